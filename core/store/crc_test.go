package store

import (
	"hash/crc32"
	"math/rand"
	"os"
	"path/filepath"
	"testing"

	"github.com/noggin-go/noggin/core/internal/mmap"
)

// TestCRC32Combine: the combined CRC of two parts is the CRC of the
// whole, for every split of short inputs and random splits of long ones.
func TestCRC32Combine(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	for _, n := range []int{0, 1, 2, 7, 64, 1000, 70000} {
		b := make([]byte, n)
		r.Read(b)
		splits := []int{0, n / 2, n}
		for range 20 {
			splits = append(splits, r.Intn(n+1))
		}
		if n <= 64 {
			splits = splits[:0]
			for i := 0; i <= n; i++ {
				splits = append(splits, i)
			}
		}
		for _, at := range splits {
			got := crc32Combine(crc32.ChecksumIEEE(b[:at]), crc32.ChecksumIEEE(b[at:]), int64(n-at))
			if want := crc32.ChecksumIEEE(b); got != want {
				t.Fatalf("%d bytes split at %d: %08x, want %08x", n, at, got, want)
			}
		}
	}
}

// TestCRC32CombineLong: for lengths far past what a test can checksum,
// crc32Combine agrees with zlib's older combine, which squares GF(2)
// operator matrices, one per bit of the length (crc32CombineMatrix).
func TestCRC32CombineLong(t *testing.T) {
	r := rand.New(rand.NewSource(6))
	for range 2000 {
		crc1, crc2 := r.Uint32(), r.Uint32()
		len2 := r.Int63() >> r.Intn(63)
		if got, want := crc32Combine(crc1, crc2, len2), crc32CombineMatrix(crc1, crc2, len2); got != want {
			t.Fatalf("%08x, %08x, %d: %08x, want %08x", crc1, crc2, len2, got, want)
		}
	}
}

// crc32CombineMatrix is zlib's crc32_combine before version 1.2.12: it
// appends len2 zero bytes to crc1 by squaring the operator matrix of one
// zero bit, log2(len2) times.
func crc32CombineMatrix(crc1, crc2 uint32, len2 int64) uint32 {
	if len2 <= 0 {
		return crc1
	}
	times := func(mat *[32]uint32, vec uint32) uint32 {
		var sum uint32
		for i := 0; vec != 0; i, vec = i+1, vec>>1 {
			if vec&1 != 0 {
				sum ^= mat[i]
			}
		}
		return sum
	}
	square := func(sq, mat *[32]uint32) {
		for n := range mat {
			sq[n] = times(mat, mat[n])
		}
	}
	var even, odd [32]uint32
	odd[0] = crc32.IEEE
	row := uint32(1)
	for n := 1; n < 32; n++ {
		odd[n] = row
		row <<= 1
	}
	square(&even, &odd)
	square(&odd, &even)
	for {
		square(&even, &odd)
		if len2&1 != 0 {
			crc1 = times(&even, crc1)
		}
		if len2 >>= 1; len2 == 0 {
			break
		}
		square(&odd, &even)
		if len2&1 != 0 {
			crc1 = times(&odd, crc1)
		}
		if len2 >>= 1; len2 == 0 {
			break
		}
	}
	return crc1 ^ crc2
}

// BenchmarkCRC32Combine: one combine of two CRCs around a 40 MB file's
// halves, as the two-half checks make.
func BenchmarkCRC32Combine(b *testing.B) {
	for b.Loop() {
		sinkCRC = crc32Combine(0x12345678, 0x9abcdef0, 20<<20)
	}
}

var sinkCRC uint32

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
// (mmap.MapLazily), until the test ends; it skips the test where files
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
	m, ok := mmap.MapLazily(f, len(data))
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
				m, ok := mmap.MapLazily(f, n)
				if !ok {
					b.Skip("no mapping")
				}
				_ = c.sum(m)
				mmap.Unmap(m)
			}
		})
	}
}
