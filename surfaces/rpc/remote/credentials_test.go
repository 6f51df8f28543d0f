package remote

import (
	"net/url"
	"strings"
	"testing"
)

func TestOrigin(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"https://Noggins.Example", "https://noggins.example:443"},
		{"http://127.0.0.1:7777", "http://127.0.0.1:7777"},
		{"http://127.0.0.1:7777/", "http://127.0.0.1:7777"},
		{"http://[::1]:80", "http://[::1]:80"},
		{"http://localhost", "http://localhost:80"},
		{"https://h:1/x.yaml", ""},
		{"https://user:pw@h:1", ""},
		{"ftp://h:1", ""},
		{"https://h:1?token=x", ""},
		{"h:1", ""},
		{"", ""},
	} {
		got, err := Origin(tc.in)
		if (err != nil) != (tc.want == "") || got != tc.want {
			t.Errorf("Origin(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestValidToken(t *testing.T) {
	for tok, want := range map[string]bool{
		"abc123": true, "a.b-c_d~e+f/g=": true, "": false, "a b": false, "a\r\nX-Evil: 1": false,
		"a\tb": false, "é": false, "a\x7f": false, "a\x00": false,
	} {
		if got := ValidToken(tok); got != want {
			t.Errorf("ValidToken(%q) = %v", tok, got)
		}
	}
}

// FuzzOrigin: any text is an origin or an error, never a panic; an origin
// is its own origin, and has no path, query, user or fragment.
func FuzzOrigin(f *testing.F) {
	for _, s := range []string{"https://h:443", "http://[::1]:7777/", "HTTP://X", "https://h/x?y#z", "https://%zz"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		o, err := Origin(s)
		if err != nil {
			return
		}
		again, err := Origin(o)
		if err != nil || again != o {
			t.Fatalf("Origin(%q) = %q, whose origin is %q, %v", s, o, again, err)
		}
		u, err := url.Parse(o)
		if err != nil || u.User != nil || u.RawQuery != "" || u.Fragment != "" || strings.Trim(u.Path, "/") != "" {
			t.Fatalf("Origin(%q) = %q is not an origin", s, o)
		}
	})
}
