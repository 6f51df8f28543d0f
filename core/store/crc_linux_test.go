package store

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCRC32DroppingFault: a file cut short under its mapping makes the
// second half of the CRC fault; the fault reaches the caller's guard,
// and the process goes on.
func TestCRC32DroppingFault(t *testing.T) {
	n := 3 * crcSplitMin
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, make([]byte, n), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	m, ok := mapFileLazily(f, n)
	_ = f.Close()
	if !ok {
		t.Skip("no mapping")
	}
	defer unmapFile(m)
	if err := os.Truncate(p, int64(n*2/3)); err != nil { // inside the second half
		t.Fatal(err)
	}
	if guard(func() { _ = crc32Dropping(m) }) {
		t.Fatal("reading past the end of the cut file did not fault")
	}
}
