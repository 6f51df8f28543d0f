package store

import (
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/noggin-go/noggin/core/jstext"
	"github.com/noggin-go/noggin/core/noggin"
)

// uriPrefix returns the "<scheme>://" prefix of a location matching
// ^[A-Za-z][A-Za-z0-9+.-]*:// (docs/file-format.md), or "".
func uriPrefix(s string) string {
	if s == "" || !isAlpha(s[0]) {
		return ""
	}
	i := 1
	for i < len(s) && (isAlpha(s[i]) || s[i] >= '0' && s[i] <= '9' || s[i] == '+' || s[i] == '.' || s[i] == '-') {
		i++
	}
	if strings.HasPrefix(s[i:], "://") {
		return s[:i+3]
	}
	return ""
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// route is the outcome of routing a location: a provider scheme and the
// provider-specific rest.
type route struct {
	scheme string // "file" or "memory"
	// path is the file path for the file provider, before ~ expansion and
	// before making it absolute; label is the memory label.
	path  string
	label string
}

// routeLocation turns a location into a provider route. Bare paths go to the
// file provider; URIs to the provider of their (lower-cased) scheme.
func routeLocation(location string, memory bool) (route, error) {
	if location == "" {
		return route{}, noggin.NewError(noggin.CodeNoLocation)
	}
	m := uriPrefix(location)
	if m == "" {
		return route{scheme: "file", path: location}, nil
	}
	scheme := strings.ToLower(m[:len(m)-3])
	rest := location[len(m):]
	switch {
	case scheme == "file":
		if strings.HasPrefix(location, "file://") {
			if p, ok := fileURLToPath(location); ok {
				return route{scheme: "file", path: p}, nil
			}
		}
		return route{scheme: "file", path: rest}, nil
	case scheme == "memory" && memory:
		if rest == "" {
			rest = "in-memory"
		}
		return route{scheme: "memory", label: rest}, nil
	}
	return route{}, noggin.NewError(noggin.CodeNoProvider,
		noggin.F("scheme", scheme), noggin.F("location", location))
}

// fileURLToPath converts a file:// URL with the standard (WHATWG + Node
// fileURLToPath, POSIX) rules: the host must be empty or localhost, the
// query and fragment are dropped, dot segments are resolved, an encoded
// "/" is refused, and the path is percent-decoded. ok is false when the
// conversion fails; the caller then falls back to the text after "file://".
func fileURLToPath(location string) (string, bool) {
	rest := location[len("file://"):]
	if i := strings.IndexAny(rest, "?#"); i >= 0 {
		rest = rest[:i]
	}
	// file is a special scheme: a backslash separates like a slash.
	rest = strings.ReplaceAll(rest, `\`, "/")
	host, p := rest, "/"
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		host, p = rest[:i], rest[i:]
	}
	if isDriveLetter(host) {
		// "file://C:/x" — the drive letter belongs to the path.
		p = "/" + host[:1] + ":" + p
		host = ""
	}
	if host != "" {
		h, err := url.PathUnescape(host)
		if err != nil || !strings.EqualFold(h, "localhost") {
			return "", false
		}
	}
	lower := strings.ToLower(p)
	if strings.Contains(lower, "%2f") {
		return "", false
	}
	dec, err := url.PathUnescape(p)
	if err != nil || !utf8.ValidString(dec) {
		return "", false
	}
	// Resolve dot segments like the URL parser does ("/.." stays "/").
	return filepath.Clean(dec), true
}

func isDriveLetter(s string) bool {
	return len(s) == 2 && (s[1] == ':' || s[1] == '|') && isAlpha(s[0])
}

// expandHome expands "~" and a leading "~/" (or "~\") to the home
// directory. "~user/…" is not expanded.
func expandHome(p string) (string, error) {
	if p != "~" && !strings.HasPrefix(p, "~/") && !strings.HasPrefix(p, `~\`) {
		return p, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", noggin.Wrap(err)
	}
	if p == "~" {
		return home, nil
	}
	return filepath.Join(home, p[2:]), nil
}

// absPath makes a file provider path absolute (expanding ~ first).
func absPath(p string) (string, error) {
	if p == "" {
		return "", noggin.NewError(noggin.CodeNoLocation)
	}
	p, err := expandHome(p)
	if err != nil {
		return "", err
	}
	a, err := filepath.Abs(p)
	if err != nil {
		return "", noggin.Wrap(err)
	}
	return a, nil
}

// RelativeName is the name of a location on a server that keeps its
// noggins by relative name (a team database): the location trimmed as
// every location is, then cleaned as a slash-separated path, so
// "team.yaml", "./team.yaml" and "a/../team.yaml" name one noggin.
// Refused with the codes of a rooted file store: an empty location is
// no-location; a URI is no-provider; an absolute path, "~", a name that
// climbs out with "..", and a name holding U+0000 are location-refused.
func RelativeName(location string) (string, error) {
	loc := jstext.TrimSpace(location)
	if loc == "" {
		return "", noggin.NewError(noggin.CodeNoLocation)
	}
	if m := uriPrefix(loc); m != "" {
		return "", noggin.NewError(noggin.CodeNoProvider,
			noggin.F("scheme", strings.ToLower(m[:len(m)-3])), noggin.F("location", loc))
	}
	if strings.ContainsRune(loc, 0) {
		return "", refusedError(loc, "a name must not contain U+0000")
	}
	if strings.HasPrefix(loc, "/") || loc == "~" || strings.HasPrefix(loc, "~/") {
		return "", refusedError(loc, "a team server's noggins are names relative to it, not paths of its disk")
	}
	name := path.Clean(loc)
	if name == ".." || strings.HasPrefix(name, "../") || name == "." {
		return "", refusedError(loc, "the name leaves the team server's noggins")
	}
	return name, nil
}
