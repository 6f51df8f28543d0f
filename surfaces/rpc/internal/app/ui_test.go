package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/noggin-go/noggin/core/store"
)

// TestRedirectFile: --open hands the browser a private file that redirects
// to the page, so that the token is in no command line.
func TestRedirectFile(t *testing.T) {
	page := "http://127.0.0.1:4000/ui/a%22b.yaml#token=" + strings.Repeat("ab", 32)
	dir, file, err := redirectFile(page)
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	for p, want := range map[string]os.FileMode{dir: 0o700 | os.ModeDir, file: 0o600} {
		if fi, err := os.Stat(p); err != nil || fi.Mode() != want {
			t.Errorf("%s: mode %v, %v; want %v", p, fi.Mode(), err, want)
		}
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `content="0;url=http://127.0.0.1:4000/ui/a%22b.yaml#token=`+strings.Repeat("ab", 32)+`"`) {
		t.Errorf("redirect %s", b)
	}
}

// TestOneNoggin: noggin-rpc ui serves the one noggin under every spelling
// core gives its name, and no other file of its directory.
func TestOneNoggin(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"mine.yaml", "other.yaml"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("schemaVersion: 1\nactive: null\nitems: []\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	o := &oneNoggin{Cache: store.NewCache(store.Options{Root: dir}), name: "mine.yaml"}
	for loc, ok := range map[string]bool{
		"mine.yaml": true, " ./mine.yaml\u00a0": true, "x/../mine.yaml": true,
		"other.yaml": false, "../mine.yaml": false, "/etc/passwd": false, "": false,
	} {
		if _, err := o.Open(context.Background(), loc); (err == nil) != ok {
			t.Errorf("Open(%q): %v", loc, err)
		}
	}
}
