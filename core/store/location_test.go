package store

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/noggin-go/noggin/core/noggin"
)

// errCode returns the noggin error code of err ("" for nil).
func errCode(err error) string {
	if err == nil {
		return ""
	}
	var e *noggin.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return "<not a noggin error: " + err.Error() + ">"
}

// filePathOf routes location and returns the absolute file path it names.
func filePathOf(location string, memory bool) (string, route, error) {
	r, err := routeLocation(location, memory)
	if err != nil || r.scheme != "file" {
		return "", r, err
	}
	p, err := absPath(r.path)
	return p, r, err
}

func TestLocationForms(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, location string
		memory         bool
		path           string // expected absolute file path
		label          string // expected memory label
		code           string // expected error code
		data           []noggin.Field
	}{
		{name: "absolute", location: "/tmp/x.yaml", path: "/tmp/x.yaml"},
		{name: "relative", location: "rel.yaml", path: filepath.Join(cwd, "rel.yaml")},
		{name: "dot relative (184)", location: "./noggin.yaml", path: filepath.Join(cwd, "noggin.yaml")},
		{name: "parent relative", location: "../x.yaml", path: filepath.Join(filepath.Dir(cwd), "x.yaml")},
		{name: "tilde alone", location: "~", path: home},
		{name: "tilde slash (185)", location: "~/y.yaml", path: filepath.Join(home, "y.yaml")},
		{name: "tilde backslash", location: `~\y.yaml`, path: filepath.Join(home, "y.yaml")},
		{name: "default (183)", location: DefaultLocation, path: filepath.Join(home, ".noggin.yaml")},
		{name: "tilde user not expanded", location: "~bob/x.yaml", path: filepath.Join(cwd, "~bob/x.yaml")},
		{name: "percent literal in bare path", location: "/tmp/a%20b.yaml", path: "/tmp/a%20b.yaml"},
		{name: "colon without slashes is bare", location: "c:x.yaml", path: filepath.Join(cwd, "c:x.yaml")},
		{name: "scheme must start with a letter", location: "1x://y", path: filepath.Join(cwd, "1x:/y")},
		{name: "file url", location: "file:///tmp/x.yaml", path: "/tmp/x.yaml"},
		{name: "file url localhost", location: "file://localhost/tmp/x.yaml", path: "/tmp/x.yaml"},
		{name: "file url LOCALHOST", location: "file://LOCALHOST/tmp/x.yaml", path: "/tmp/x.yaml"},
		{name: "file url root", location: "file://", path: "/"},
		{name: "file url percent", location: "file:///tmp/a%20b.yaml", path: "/tmp/a b.yaml"},
		{name: "file url utf8", location: "file:///tmp/%C3%A9.yaml", path: "/tmp/é.yaml"},
		{name: "file url query fragment", location: "file:///tmp/x.yaml?v=1#top", path: "/tmp/x.yaml"},
		{name: "file url dot segments", location: "file:///tmp/a/../x.yaml", path: "/tmp/x.yaml"},
		{name: "file url above root", location: "file:///../x.yaml", path: "/x.yaml"},
		{name: "file url drive letter", location: "file://C:/x.yaml", path: "/C:/x.yaml"},
		{name: "file url home fallback (186)", location: "file://~/z.yaml", path: filepath.Join(home, "z.yaml")},
		{name: "file url cwd fallback (186)", location: "file://./rel.yaml", path: filepath.Join(cwd, "rel.yaml")},
		{name: "fallback keeps percent", location: "file://./a%20b.yaml", path: filepath.Join(cwd, "a%20b.yaml")},
		{name: "file url other host falls back", location: "file://host/x.yaml", path: filepath.Join(cwd, "host/x.yaml")},
		{name: "file url encoded slash falls back", location: "file:///tmp/a%2Fb.yaml", path: "/tmp/a%2Fb.yaml"},
		{name: "file url bad escape falls back", location: "file:///tmp/%zz.yaml", path: "/tmp/%zz.yaml"},
		{name: "FILE skips url rules", location: "FILE:///tmp/a%20b.yaml", path: "/tmp/a%20b.yaml"},
		{name: "File relative", location: "File://rel.yaml", path: filepath.Join(cwd, "rel.yaml")},
		{name: "FILE empty", location: "FILE://", code: noggin.CodeNoLocation},
		{name: "empty", location: "", code: noggin.CodeNoLocation},
		{name: "memory without provider (182)", location: "memory://x", code: noggin.CodeNoProvider,
			data: []noggin.Field{{Name: "scheme", Value: "memory"}, {Name: "location", Value: "memory://x"}}},
		{name: "memory", location: "memory://x", memory: true, label: "x"},
		{name: "memory upper", location: "MEMORY://x", memory: true, label: "x"},
		{name: "memory empty label", location: "memory://", memory: true, label: "in-memory"},
		{name: "https", location: "https://example.com/x", code: noggin.CodeNoProvider,
			data: []noggin.Field{{Name: "scheme", Value: "https"}, {Name: "location", Value: "https://example.com/x"}}},
		{name: "scheme lower-cased", location: "FOO+bar.x-y://z", code: noggin.CodeNoProvider,
			data: []noggin.Field{{Name: "scheme", Value: "foo+bar.x-y"}, {Name: "location", Value: "FOO+bar.x-y://z"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, r, err := filePathOf(tc.location, tc.memory)
			if got := errCode(err); got != tc.code {
				t.Fatalf("code = %q, want %q (err %v)", got, tc.code, err)
			}
			if tc.code != "" {
				if tc.data != nil {
					var e *noggin.Error
					errors.As(err, &e)
					if !reflect.DeepEqual(e.Data, tc.data) {
						t.Errorf("data = %#v, want %#v", e.Data, tc.data)
					}
				}
				return
			}
			if tc.label != "" {
				if r.scheme != "memory" || r.label != tc.label {
					t.Fatalf("route = %+v, want memory label %q", r, tc.label)
				}
				return
			}
			if p != tc.path {
				t.Errorf("path = %q, want %q", p, tc.path)
			}
		})
	}
}

func TestResolve(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == "NOGGIN" {
				return v
			}
			return ""
		}
	}
	tests := []struct{ flag, env, want string }{
		{"", "", DefaultLocation},         // 183
		{"", "/e.yaml", "/e.yaml"},        // env
		{"/f.yaml", "/e.yaml", "/f.yaml"}, // flag wins
		{"", "", "~/.noggin.yaml"},        // 187: empty flag and env fall through
	}
	for _, tc := range tests {
		if got := Resolve(tc.flag, env(tc.env)); got != tc.want {
			t.Errorf("Resolve(%q, NOGGIN=%q) = %q, want %q", tc.flag, tc.env, got, tc.want)
		}
	}
}

func TestProviders(t *testing.T) {
	if got := Providers(Options{}); !reflect.DeepEqual(got, []noggin.Provider{{Scheme: "file"}}) {
		t.Errorf("Providers = %v", got)
	}
	if got := Providers(Options{Memory: true}); len(got) != 2 || got[1].Scheme != "memory" {
		t.Errorf("Providers(memory) = %v", got)
	}
}

// uriPattern is the spec's definition of a URI location.
var uriPattern = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*://`)

// FuzzLocation: routing never panics, file locations give absolute paths,
// and a URI never routes to the file provider unless its scheme is file.
func FuzzLocation(f *testing.F) {
	for _, s := range []string{"", "x.yaml", "~/a", "~", "file://", "file:///tmp/a%20b", "file://~/x", "file://./x",
		"FILE:///x", "memory://", "https://h/x", "file://C:/x", "file://%zz/x", "file:///a%2fb", "file:///%ff", "a+b.c-d://x"} {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, loc string, memory bool) {
		if got, want := uriPrefix(loc), uriPattern.FindString(loc); got != want {
			t.Fatalf("uriPrefix(%q) = %q, want %q", loc, got, want)
		}
		r, err := routeLocation(loc, memory)
		if err != nil {
			return
		}
		switch r.scheme {
		case "file":
			if m := uriPattern.FindString(loc); m != "" && !strings.EqualFold(m, "file://") {
				t.Fatalf("%q routed to file", loc)
			}
			if p, err := absPath(r.path); err == nil && !filepath.IsAbs(p) {
				t.Fatalf("%q gave relative path %q", loc, p)
			}
		case "memory":
			if !memory || r.label == "" {
				t.Fatalf("%q routed to memory %+v", loc, r)
			}
		default:
			t.Fatalf("%q routed to %+v", loc, r)
		}
	})
}
