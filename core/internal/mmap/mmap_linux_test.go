package mmap

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// sink keeps the test's reads of a mapping from being optimised away.
var sink byte

// TestGuard: a read past the end of a mapped file that another process
// cut short is a fault Guard reports; other panics go on.
func TestGuard(t *testing.T) {
	p := filepath.Join(t.TempDir(), "n.yaml")
	if err := os.WriteFile(p, make([]byte, 3*os.Getpagesize()), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, ok := Map(f, 3*os.Getpagesize())
	if !ok {
		t.Fatal("not mapped")
	}
	defer Unmap(b)
	if !Guard(func() { sink = b[0] }) {
		t.Fatal("a read of the mapping faulted")
	}
	Drop(b) // the page cache keeps the bytes: they read back
	if err := os.Truncate(p, 0); err != nil {
		t.Fatal(err)
	}
	if Guard(func() { sink = b[2*os.Getpagesize()] }) {
		t.Fatal("a read past the end of the cut file did not fault")
	}
	bug := errors.New("a bug")
	defer func() {
		if r := recover(); r != bug {
			t.Fatalf("recovered %v, want the panic raised again", r)
		}
	}()
	Guard(func() { panic(bug) })
}
