package store

import (
	"os"
	"testing"

	"github.com/noggin-go/noggin/core/internal/mmap"
)

// TestCRC32DroppingFault: a file cut short under its mapping makes the
// CRC fault; the fault is reported to the caller, and the process goes on.
func TestCRC32DroppingFault(t *testing.T) {
	n := 3 << 20
	m, p := mapTestFile(t, make([]byte, n))
	if err := os.Truncate(p, int64(n*2/3)); err != nil {
		t.Fatal(err)
	}
	if mmap.Guard(func() { crc32Dropping(m) }) {
		t.Fatal("reading past the end of the cut file did not fault")
	}
}
