package store

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestOpenFileLikeOS: the store's own open, read and write give what the
// os package's give: contents of every size, not-exist and other errors.
func TestOpenFileLikeOS(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []int{0, 1, 511, 512, 513, 64 << 10, 300001} {
		p := filepath.Join(dir, "f")
		want := bytes.Repeat([]byte("noggin\n"), n/7+1)[:n]
		if err := writeFile(p, want, 0o640); err != nil {
			t.Fatal(err)
		}
		got, err := readFile(p)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%d bytes: read %d bytes, %v", n, len(got), err)
		}
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm()&^0o640 != 0 {
			t.Fatalf("mode %v, %v", fi.Mode(), err)
		}
	}
	if _, err := readFile(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) || !os.IsNotExist(err) {
		t.Fatalf("missing file: %v", err)
	}
	if _, err := openFile(filepath.Join(dir, "missing", "x"), os.O_WRONLY|os.O_CREATE, 0o666); err == nil {
		t.Fatal("created a file in a missing directory")
	}
	if _, err := readFile(dir); err == nil {
		t.Fatal("read a directory as a file")
	}
	f, err := openFile(dir, os.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Sync(); err != nil { // a directory's sync, as after a rename
		t.Fatal(err)
	}
	_ = f.Close()
}
