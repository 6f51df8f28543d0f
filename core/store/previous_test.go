package store

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestNothingBesideTheNoggin: a write leaves nothing beside the noggin but
// its history, and removes the <file>.previous an earlier build kept (a
// directory of that name is not ours, and stays). Checked for YAML and
// JSON noggins, for one-shot and long-lived stores, with and without a
// root.
func TestNothingBesideTheNoggin(t *testing.T) {
	for _, name := range []string{"x.yaml", "x.json"} {
		for _, o := range []struct {
			label string
			opts  func(dir string) Options
		}{
			{"long-lived", func(string) Options { return Options{} }},
			{"one-shot", func(string) Options { return Options{MapFiles: true} }},
			{"rooted", func(dir string) Options { return Options{Root: dir} }},
		} {
			t.Run(name+"/"+o.label, func(t *testing.T) {
				dir := t.TempDir()
				p := filepath.Join(dir, name)
				loc := p
				if o.label == "rooted" {
					loc = name
				}
				mustAdd(t, mustOpen(t, loc, o.opts(dir)), "k0")
				if err := os.WriteFile(p+previousSuffix, []byte("an earlier build's copy"), 0o644); err != nil {
					t.Fatal(err)
				}
				mustAdd(t, mustOpen(t, loc, o.opts(dir)), "k1")
				if names := dirNames(t, dir); !slices.Equal(names, []string{name, name + historySuffix}) {
					t.Errorf("directory holds %v", names)
				}
				if err := os.Mkdir(p+previousSuffix, 0o755); err != nil {
					t.Fatal(err)
				}
				mustAdd(t, mustOpen(t, loc, o.opts(dir)), "k2")
				if fi, err := os.Stat(p + previousSuffix); err != nil || !fi.IsDir() {
					t.Errorf("a directory named like the old previous file was removed: %v", err)
				}
			})
		}
	}
}
