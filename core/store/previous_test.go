package store

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// Every write keeps the file it replaces as <file>.previous (the same
// file, linked) until the next write; the first write of a noggin has
// none to keep. Checked for YAML and JSON noggins, for one-shot and
// long-lived stores, with and without a root.
func TestPreviousVersion(t *testing.T) {
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
				prev := p + previousSuffix
				for i, key := range []string{"k0", "k1", "k2"} {
					var before []byte
					var beforeInfo os.FileInfo
					if i > 0 {
						var err error
						if before, err = os.ReadFile(p); err != nil {
							t.Fatal(err)
						}
						if beforeInfo, err = os.Stat(p); err != nil {
							t.Fatal(err)
						}
					}
					// A one-shot store lives for one write, as in the CLI.
					mustAdd(t, mustOpen(t, loc, o.opts(dir)), key)
					info, err := os.Stat(prev)
					if i == 0 {
						if !os.IsNotExist(err) {
							t.Fatalf("first write: %s exists (%v)", prev, err)
						}
						continue
					}
					if err != nil {
						t.Fatalf("write %d: %v", i, err)
					}
					if !os.SameFile(info, beforeInfo) {
						t.Errorf("write %d: %s is not the file it replaced", i, prev)
					}
					if got, _ := os.ReadFile(prev); !bytes.Equal(got, before) {
						t.Errorf("write %d: %s holds\n%s\nwant\n%s", i, prev, got, before)
					}
				}
				want := []string{name, name + historySuffix, name + previousSuffix}
				if names := dirNames(t, dir); !slices.Equal(names, want) {
					t.Errorf("directory holds %v, want %v", names, want)
				}
			})
		}
	}
}

// A name taken by something that is not a noggin's previous version (a
// directory, with a file in it or empty) is left alone, and the write
// succeeds without keeping one.
func TestPreviousNameTaken(t *testing.T) {
	for _, inside := range []string{"mine", ""} {
		dir := t.TempDir()
		p := filepath.Join(dir, "x.yaml")
		mustAdd(t, mustOpen(t, p, Options{}), "k0")
		if err := os.Mkdir(p+previousSuffix, 0o755); err != nil {
			t.Fatal(err)
		}
		if inside != "" {
			if err := os.WriteFile(filepath.Join(p+previousSuffix, inside), []byte("keep"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		mustAdd(t, mustOpen(t, p, Options{MapFiles: true}), "k1")
		if inside != "" {
			if got, err := os.ReadFile(filepath.Join(p+previousSuffix, inside)); err != nil || string(got) != "keep" {
				t.Errorf("%s: %q, %v", inside, got, err)
			}
		} else if fi, err := os.Stat(p + previousSuffix); err != nil || !fi.IsDir() {
			t.Errorf("the empty directory is gone: %v", err)
		}
		if keys := fileKeys(t, p); !slices.Equal(keys, []string{"k0", "k1"}) {
			t.Errorf("keys %v", keys)
		}
	}
}
