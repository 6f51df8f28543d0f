package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/noggin-go/noggin/core/noggin"
)

func TestRootSandbox(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "root")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{root, outside, filepath.Join(root, "sub")} {
		if err := os.Mkdir(d, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	secret := filepath.Join(outside, "secret.yaml")
	if err := os.WriteFile(secret, []byte("schemaVersion: 1\nactive: null\nitems: []\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	mustLink := func(target, name string) {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	mustLink(secret, "abs-link.yaml")                   // absolute symlink to a file outside
	mustLink("../outside/secret.yaml", "rel-link.yaml") // relative symlink escaping
	mustLink(outside, "dirlink")                        // symlinked directory outside
	mustLink("sub/inner.yaml", "inner-link.yaml")       // symlink staying inside
	t.Chdir(base)                                       // relative locations must not use the cwd
	t.Setenv("HOME", outside)

	o := Options{Root: root}
	refused := []string{
		"../x.yaml",
		"sub/../../x.yaml",
		"/etc/passwd",
		secret,
		"file://" + secret,
		"file:///etc/passwd",
		"file://./../x.yaml",
		"FILE://../x.yaml",
		"~/x.yaml",
		"~",
		"abs-link.yaml",
		"rel-link.yaml",
		"dirlink/secret.yaml",
		"dirlink/new.yaml",
		root + "/../outside/new.yaml",
	}
	for _, loc := range refused {
		t.Run("refused "+loc, func(t *testing.T) {
			s, err := Open(context.Background(), loc, o)
			if err == nil {
				// Nothing to read yet (e.g. a missing file below a
				// symlinked directory is caught on the write).
				err = addItem(s, "k1")
			}
			e := asError(t, err)
			if e.Code != noggin.CodeLocationRefused || e.ExitCode != 2 || e.Get("location") != loc {
				t.Fatalf("error = %+v, want location-refused", e)
			}
		})
	}
	// Nothing outside the root was read into a store or created.
	if names := dirNames(t, outside); !slices.Equal(names, []string{"secret.yaml"}) {
		t.Errorf("outside holds %v", names)
	}
	if names := dirNames(t, base); !slices.Equal(names, []string{"outside", "root"}) {
		t.Errorf("base holds %v", names)
	}

	allowed := []struct{ location, file string }{
		{"a.yaml", "a.yaml"},
		{"./b.yaml", "b.yaml"},
		{"sub/c.yaml", "sub/c.yaml"},
		{"new/dir/d.yaml", "new/dir/d.yaml"},
		{"sub/../e.yaml", "e.yaml"},
		{root + "/f.yaml", "f.yaml"},
		{"file://" + root + "/g.yaml", "g.yaml"},
		{"file://./h.yaml", "h.yaml"},
	}
	for _, tc := range allowed {
		t.Run("allowed "+tc.location, func(t *testing.T) {
			s := mustOpen(t, tc.location, o)
			mustAdd(t, s, "k1")
			if got := fileKeys(t, filepath.Join(root, tc.file)); !slices.Equal(got, []string{"k1"}) {
				t.Errorf("keys = %v", got)
			}
			if s.Describe() != tc.location {
				t.Errorf("Describe = %q", s.Describe())
			}
		})
	}

	// A symlink that stays inside the root is followed on read and write:
	// the target is replaced and the link stays a link.
	if err := os.WriteFile(filepath.Join(root, "sub/inner.yaml"), []byte("schemaVersion: 1\nactive: null\nitems: []\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	mustAdd(t, mustOpen(t, "sub/inner.yaml", o), "k0")
	s := mustOpen(t, "inner-link.yaml", o)
	if doc, err := s.Load(context.Background()); err != nil || !slices.Equal(keysOf(doc), []string{"k0"}) {
		t.Fatalf("through the link: %v, %v", doc, err)
	}
	mustAdd(t, s, "k1")
	isLink := func(name string) {
		t.Helper()
		if fi, err := os.Lstat(filepath.Join(root, name)); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s is no longer a link: %v, %v", name, fi, err)
		}
	}
	isLink("inner-link.yaml")
	if got := fileKeys(t, filepath.Join(root, "sub/inner.yaml")); !slices.Equal(got, []string{"k0", "k1"}) {
		t.Errorf("keys = %v", got)
	}

	// An absolute symlink is judged by where it leads: to a file inside
	// the root it is read and written through; a directory link inside
	// the root is used for reads and writes.
	mustLink(filepath.Join(root, "sub/inner.yaml"), "abs-inside.yaml")
	mustLink(filepath.Join(root, "sub"), "abs-dir")
	s = mustOpen(t, "abs-inside.yaml", o)
	if doc, err := s.Load(context.Background()); err != nil || !slices.Equal(keysOf(doc), []string{"k0", "k1"}) {
		t.Fatalf("through the absolute link: %v, %v", doc, err)
	}
	mustAdd(t, s, "k2")
	isLink("abs-inside.yaml")
	if got := fileKeys(t, filepath.Join(root, "sub/inner.yaml")); !slices.Equal(got, []string{"k0", "k1", "k2"}) {
		t.Errorf("keys = %v", got)
	}
	s = mustOpen(t, "abs-dir/inner.yaml", o)
	mustAdd(t, s, "k3")
	if got := fileKeys(t, filepath.Join(root, "sub/inner.yaml")); !slices.Equal(got, []string{"k0", "k1", "k2", "k3"}) {
		t.Errorf("keys = %v", got)
	}
	mustAdd(t, mustOpen(t, "abs-dir/fresh.yaml", o), "k4")
	if got := fileKeys(t, filepath.Join(root, "sub/fresh.yaml")); !slices.Equal(got, []string{"k4"}) {
		t.Errorf("keys = %v", got)
	}
	// A link to a file not there yet: the first write creates the target.
	mustLink("sub/later.yaml", "later-link.yaml")
	mustAdd(t, mustOpen(t, "later-link.yaml", o), "k5")
	isLink("later-link.yaml")
	if got := fileKeys(t, filepath.Join(root, "sub/later.yaml")); !slices.Equal(got, []string{"k5"}) {
		t.Errorf("keys = %v", got)
	}

	// Errors inside the root name the file relative to it: a remote client
	// never learns the server's directories.
	if err := os.Mkdir(filepath.Join(root, "dir.yaml"), 0o777); err != nil {
		t.Fatal(err)
	}
	_, err := Open(context.Background(), "dir.yaml", o)
	if e := asError(t, err); e.Code != noggin.CodeIO || e.Get("path") != "dir.yaml" || strings.Contains(fmt.Sprint(e.Message, e.Get("detail")), root) {
		t.Errorf("error = %+v", e)
	}
	if _, err := Open(context.Background(), "", o); errCode(err) != noggin.CodeNoLocation {
		t.Errorf("empty: %v", err)
	}
}

func TestRootLockProtocol(t *testing.T) {
	// Inside a root the plain mkdir protocol is used; a live lock blocks,
	// a dead one is reclaimed.
	root := t.TempDir()
	o := Options{Root: root, LockTimeout: 100e6}
	s := mustOpen(t, "x.yaml", o)
	p := filepath.Join(root, "x.yaml")
	plantLock(t, p, nil)
	if err := addItem(s, "k1"); errCode(err) != noggin.CodeLockTimeout {
		t.Fatalf("error = %v", err)
	}
	if err := os.RemoveAll(p + ".lock"); err != nil {
		t.Fatal(err)
	}
	plantLock(t, p, pidFile(deadPid(t), 0))
	mustAdd(t, s, "k1")
	if names := dirNames(t, root); !slices.Equal(names, []string{"x.yaml", "x.yaml.history"}) {
		t.Errorf("root holds %v", names)
	}
}
