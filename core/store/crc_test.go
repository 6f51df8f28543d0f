package store

import (
	"hash/crc32"
	"math/rand"
	"os"
	"path/filepath"
	"testing"

	"github.com/noggin-go/noggin/core/internal/mmap"
)

// TestCRC32Dropping: the CRC of a mapped file, read a step at a time, is
// the file's CRC, around the size of a step.
func TestCRC32Dropping(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	for _, n := range []int{1, 4096, 1<<20 - 1, 1 << 20, 1<<20 + 1, 3<<20 + 12345} {
		b := make([]byte, n)
		r.Read(b)
		m, _ := mapTestFile(t, b)
		var got uint32
		if !mmap.Guard(func() { got = crc32Dropping(m) }) {
			t.Fatalf("%d bytes: faulted", n)
		}
		if want := crc32.ChecksumIEEE(b); got != want {
			t.Fatalf("%d bytes: %08x, want %08x", n, got, want)
		}
	}
}

// mapTestFile writes data to a new file and maps it as a store does
// (mmap.Map), until the test ends; it skips the test where files
// cannot be mapped. It returns the mapping and the file's path.
func mapTestFile(tb testing.TB, data []byte) ([]byte, string) {
	tb.Helper()
	p := filepath.Join(tb.TempDir(), "f")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		tb.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		tb.Fatal(err)
	}
	m, ok := mmap.Map(f, len(data))
	_ = f.Close()
	if !ok {
		tb.Skip("no mapping")
	}
	tb.Cleanup(func() { mmap.Unmap(m) })
	return m, p
}

// BenchmarkCRC32Dropping: the trust check's CRC-32 of a mapped 40 MB
// file (a 100k-item noggin).
func BenchmarkCRC32Dropping(b *testing.B) {
	n := 40 << 20
	_, p := mapTestFile(b, make([]byte, n))
	f, err := os.Open(p)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	for _, c := range []struct {
		name string
		sum  func([]byte) uint32
	}{
		{"one pass", func(m []byte) uint32 { return crc32Dropping(m) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(n))
			for b.Loop() {
				m, ok := mmap.Map(f, n)
				if !ok {
					b.Skip("no mapping")
				}
				_ = c.sum(m)
				mmap.Unmap(m)
			}
		})
	}
}
