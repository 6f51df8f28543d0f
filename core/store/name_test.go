package store

import (
	"path"
	"strings"
	"testing"

	"github.com/noggin-go/noggin/core/noggin"
)

// FuzzRelativeName: every location is either refused with a location code or
// named by a clean relative path that stays among a team server's noggins.
// (Naming is not idempotent, as paths are not: "./ 0" names " 0", while
// the location " 0" is trimmed to "0".)
func FuzzRelativeName(f *testing.F) {
	for _, s := range []string{"team.yaml", " ./a/../b.yaml ", "/etc/passwd", "~", "~/x", "../x", "a/../../x",
		"memory://x", "FILE:///x", "", " \t", "a\x00b", "\ufeffteam.yaml", "a//b/./c", "..", ".", "x/..", "\u0085"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, loc string) {
		name, err := RelativeName(loc)
		if err != nil {
			switch code := noggin.Wrap(err).Code; code {
			case noggin.CodeNoLocation, noggin.CodeNoProvider, noggin.CodeLocationRefused:
			default:
				t.Fatalf("RelativeName(%q): code %s", loc, code)
			}
			return
		}
		if name == "" || path.Clean(name) != name || strings.HasPrefix(name, "/") || name == ".." ||
			strings.HasPrefix(name, "../") || strings.ContainsRune(name, 0) || name == "." {
			t.Fatalf("RelativeName(%q) = %q", loc, name)
		}
	})
}

// TestRelativeName: locations are cleaned names; URIs, absolute paths and
// names leaving the server are refused with the codes of a rooted file
// store.
func TestRelativeName(t *testing.T) {
	for in, want := range map[string]string{
		"team.yaml": "team.yaml", " ./team.yaml ": "team.yaml", "a/../b.yaml": "b.yaml", "x//y.yaml": "x/y.yaml",
		"a\x00b": noggin.CodeLocationRefused,
		// Trimmed as JavaScript trims: U+FEFF is white space, U+0085 is not.
		"\ufeffteam.yaml\u0085": "team.yaml\u0085",
		"/etc/passwd":           noggin.CodeLocationRefused, "~": noggin.CodeLocationRefused, "~/x": noggin.CodeLocationRefused,
		"../up.yaml": noggin.CodeLocationRefused, "x/../..": noggin.CodeLocationRefused, ".": noggin.CodeLocationRefused,
		"memory://x": noggin.CodeNoProvider, "file:///x": noggin.CodeNoProvider, "   ": noggin.CodeNoLocation,
	} {
		got, err := RelativeName(in)
		if err != nil {
			got = noggin.Wrap(err).Code
		}
		if got != want {
			t.Errorf("RelativeName(%q) = %q, want %q", in, got, want)
		}
	}
}
