package store

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// A symlinked noggin (~/.noggin.yaml -> dotfiles/noggin.yaml) stays a
// link: writers through the link and through the target share one lock
// and one file, and nothing acknowledged is lost.
func TestSymlinkedNogginStaysALink(t *testing.T) {
	const writes = 60
	base := t.TempDir()
	home, dotfiles := filepath.Join(base, "home"), filepath.Join(base, "dotfiles")
	for _, d := range []string{home, dotfiles} {
		if err := os.Mkdir(d, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	target := filepath.Join(dotfiles, "noggin.yaml")
	link := filepath.Join(home, ".noggin.yaml")
	if err := os.Symlink("../dotfiles/noggin.yaml", link); err != nil {
		t.Fatal(err)
	}
	absLink := filepath.Join(home, "abs.yaml")
	if err := os.Symlink(target, absLink); err != nil {
		t.Fatal(err)
	}
	files := []string{link, target, absLink, target}
	runWriters(t, files, writes)
	for _, l := range []string{link, absLink} {
		if fi, err := os.Lstat(l); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s is no longer a link: %v", l, err)
		}
	}
	if keys := fileKeys(t, target); len(keys) != len(files)*writes {
		t.Errorf("%d items in the target, want %d (lost %d)", len(keys), len(files)*writes, len(files)*writes-len(keys))
	}
	if names := dirNames(t, home); !slices.Equal(names, []string{".noggin.yaml", "abs.yaml"}) {
		t.Errorf("the links' directory holds %v", names)
	}
	if names := dirNames(t, dotfiles); !slices.Equal(names, []string{"noggin.yaml", "noggin.yaml.history"}) {
		t.Errorf("the target's directory holds %v", names)
	}
}

func TestLinkTarget(t *testing.T) {
	dir := t.TempDir()
	link := func(target, name string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o777); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path, want string
		wantErr          bool
	}{
		{name: "a plain name is itself", path: filepath.Join(dir, "plain.yaml"), want: filepath.Join(dir, "plain.yaml")},
		{name: "a relative link", path: link("sub/a.yaml", "rel.yaml"), want: filepath.Join(dir, "sub/a.yaml")},
		{name: "an absolute link", path: link(filepath.Join(dir, "sub/b.yaml"), "abs.yaml"), want: filepath.Join(dir, "sub/b.yaml")},
		{name: "a chain of links", path: link("rel.yaml", "chain.yaml"), want: filepath.Join(dir, "sub/a.yaml")},
		{name: "a link relative to a linked directory", path: filepath.Join(link("sub", "subdir"), "x.yaml"), want: filepath.Join(dir, "subdir/x.yaml")},
		{name: "a loop", path: link("loop-b.yaml", "loop-a.yaml"), wantErr: true},
	}
	link("loop-a.yaml", "loop-b.yaml")
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := linkTarget(tc.path)
			if (err != nil) != tc.wantErr || got != tc.want {
				t.Errorf("linkTarget = %q, %v; want %q (error %v)", got, err, tc.want, tc.wantErr)
			}
		})
	}
}
