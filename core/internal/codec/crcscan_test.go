package codec

import (
	"hash/crc32"
	"math/rand"
	mathrand "math/rand/v2"
	"sync"
	"testing"
)

var sinkCRC uint32

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

// TestScanSum: the CRC of stretches told from two goroutines at once, each
// half's one after another, with bytes no stretch covers between and after
// them, is the CRC of the whole; stretches that overlap are refused.
func TestScanSum(t *testing.T) {
	m := make([]byte, 1<<20+12345)
	_, _ = mathrand.NewChaCha8([32]byte{1}).Read(m)
	want := crc32.ChecksumIEEE(m)
	for _, c := range []struct {
		name   string
		halves [2][2]int // each half's [from, to), told in stretches of 4096
		ok     bool
	}{
		{"two halves", [2][2]int{{0, 600000}, {600000, len(m)}}, true},
		{"gaps", [2][2]int{{17, 600000}, {600100, len(m) - 9}}, true},
		{"one half", [2][2]int{{0, len(m)}, {0, 0}}, true},
		{"overlap", [2][2]int{{0, 600000}, {599999, len(m)}}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var sum scanSum
			var wg sync.WaitGroup
			for _, h := range c.halves {
				wg.Go(func() {
					for from := h[0]; from < h[1]; from += 4096 {
						sum.passed(m, from, min(from+4096, h[1]))
					}
				})
			}
			wg.Wait()
			got, ok := sum.sum(m)
			if ok != c.ok || ok && got != want {
				t.Fatalf("%08x %v, want %08x %v", got, ok, want, c.ok)
			}
		})
	}
}
