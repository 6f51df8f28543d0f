package remote

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Credentials say which token goes to which server. A token belongs to one
// origin (scheme, host and port): $NOGGIN_TOKEN to the origin of
// $NOGGIN_SERVER, and the tokens of `noggin login` to theirs (kept in a
// 0600 file under $XDG_CONFIG_HOME/noggin); the environment overrides the
// file. A location on any other origin carries no token.
type Credentials struct {
	getenv func(string) string
	// Servers are further origins a client may reach without a token
	// (noggin-mcp --server).
	Servers []string

	loaded bool
	file   map[string]string
	err    error
}

// NewCredentials reads the environment through getenv; the file is read on
// first use.
func NewCredentials(getenv func(string) string) *Credentials {
	return &Credentials{getenv: getenv}
}

// Origin is the canonical origin of an http(s) URL: lower-case scheme and
// host, and the port, the scheme's default made explicit
// ("https://noggins.example:443"). A URL with more than an origin and "/"
// is an error.
func Origin(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return "", errors.New("a server is http(s)://HOST:PORT")
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	return u.Scheme + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port), nil
}

// Token returns the token of origin ("" for none) and whether the origin
// is one the user configured ($NOGGIN_SERVER, a login, Servers).
func (c *Credentials) Token(origin string) (token string, known bool, err error) {
	if s := c.getenv("NOGGIN_SERVER"); s != "" {
		o, err := Origin(s)
		if err != nil {
			return "", false, fmt.Errorf("$NOGGIN_SERVER: %w", err)
		}
		if o == origin {
			if t := c.getenv("NOGGIN_TOKEN"); t != "" {
				return t, true, nil
			}
			known = true
		}
	}
	file, err := c.stored()
	if err != nil {
		return "", false, err
	}
	if t, ok := file[origin]; ok {
		return t, true, nil
	}
	for _, s := range c.Servers {
		if o, err := Origin(s); err == nil && o == origin {
			known = true
		}
	}
	return "", known, nil
}

// ValidToken reports whether t can be sent as a bearer token: printable
// ASCII without spaces. A line break in it would let it write headers of
// its own.
func ValidToken(t string) bool {
	for i := 0; i < len(t); i++ {
		if t[i] <= ' ' || t[i] > '~' {
			return false
		}
	}
	return t != ""
}

// CredentialsFile is where `noggin login` keeps tokens:
// $XDG_CONFIG_HOME/noggin/credentials.json, else
// ~/.config/noggin/credentials.json.
func CredentialsFile(getenv func(string) string) (string, error) {
	dir := getenv("XDG_CONFIG_HOME")
	if dir == "" {
		home := getenv("HOME")
		if home == "" {
			var err error
			if home, err = os.UserHomeDir(); err != nil {
				return "", err
			}
		}
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "noggin", "credentials.json"), nil
}

// credentialsFile is the file's form.
type credentialsFile struct {
	Tokens map[string]string `json:"tokens"`
}

func (c *Credentials) stored() (map[string]string, error) {
	if !c.loaded {
		c.loaded = true
		c.file, c.err = LoadTokens(c.getenv)
	}
	return c.file, c.err
}

// LoadTokens reads the tokens of `noggin login` by origin (none: an empty
// map). A file that others may read is refused.
func LoadTokens(getenv func(string) string) (map[string]string, error) {
	name, err := CredentialsFile(getenv)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(name)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("%s may be read by others (mode %04o): chmod 600 it", name, fi.Mode().Perm())
	}
	var cf credentialsFile
	if err := json.NewDecoder(f).Decode(&cf); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if cf.Tokens == nil {
		cf.Tokens = map[string]string{}
	}
	return cf.Tokens, nil
}

// SaveTokens writes the tokens of `noggin login` (a 0600 file in a 0700
// directory, replaced whole).
func SaveTokens(getenv func(string) string, tokens map[string]string) error {
	name, err := CredentialsFile(getenv)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(name), 0o700); err != nil {
		return err
	}
	b, err := json.MarshalIndent(credentialsFile{Tokens: tokens}, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(name), ".credentials-*")
	if err != nil {
		return err
	}
	defer func() { _ = os.Remove(tmp.Name()) }() // gone already after the rename
	if err := tmp.Chmod(0o600); err != nil {
		_ = tmp.Close()
		return err
	}
	_, err = tmp.Write(append(b, '\n'))
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp.Name(), name)
}

// Origins lists the origins of stored tokens, sorted.
func Origins(tokens map[string]string) []string {
	var out []string
	for o := range tokens {
		out = append(out, o)
	}
	slices.Sort(out)
	return out
}

// isLoopback reports whether host (of an origin) is this machine.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}
