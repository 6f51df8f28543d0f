package codec

import (
	"hash/crc32"
	"slices"
	"sync"
)

// scanSum works out the CRC-32 (IEEE) of the bytes a read passes, as it
// passes them (Options.CRC32): a one-shot store checks the file and reads
// it in one pass over its pages instead of two, dropping each stretch once
// both are done with it, so that it never holds the whole file.
//
// The read may tell of its stretches from two goroutines at once (its two
// halves), each half's stretches following one another; passed extends the
// run a stretch follows, or starts one. sum fills what no stretch covered
// from the mapping itself, so the CRC is the file's whatever the read told.
type scanSum struct {
	mu   sync.Mutex
	runs []*crcRun
}

// crcRun is one run of consecutive stretches, [from, to), and its CRC.
type crcRun struct {
	from, to int
	sum      uint32
}

// passed adds m[from:to], which the read has passed and is about to drop.
func (c *scanSum) passed(m []byte, from, to int) {
	c.mu.Lock()
	var run *crcRun
	for _, r := range c.runs {
		if r.to == from {
			run = r
			break
		}
	}
	if run == nil {
		run = &crcRun{from: from, to: from}
		c.runs = append(c.runs, run)
	}
	c.mu.Unlock()
	// Only the goroutine reading this run extends it: no lock for the sum.
	run.sum = crc32.Update(run.sum, crc32.IEEETable, m[from:to])
	c.mu.Lock()
	run.to = to
	c.mu.Unlock()
}

// sum is the CRC-32 of m, from the runs passed and, between and after
// them, m's own bytes. ok is false if two runs overlap (the read went over
// a stretch twice): the caller then trusts nothing of the read.
func (c *scanSum) sum(m []byte) (sum uint32, ok bool) {
	c.mu.Lock()
	runs := slices.Clone(c.runs)
	c.mu.Unlock()
	slices.SortFunc(runs, func(a, b *crcRun) int { return a.from - b.from })
	at := 0
	for _, r := range runs {
		if r.from < at {
			return 0, false
		}
		sum = crc32.Update(sum, crc32.IEEETable, m[at:r.from])
		sum = crc32Combine(sum, r.sum, int64(r.to-r.from))
		at = r.to
	}
	return crc32.Update(sum, crc32.IEEETable, m[at:]), true
}

// crc32Combine is the CRC-32 (IEEE) of a followed by b, from crc1 of a,
// crc2 of b and b's length: zlib's crc32_combine, which multiplies crc1 by
// x^(8·len2) modulo the CRC's polynomial, the power built from the table
// of x^(2^n) (crcX2n), one multiplication per bit of len2.
func crc32Combine(crc1, crc2 uint32, len2 int64) uint32 {
	if len2 <= 0 {
		return crc1
	}
	// x^(8·len2), from x^0: bit k of the length in bits is bit k-3 of len2.
	p := uint32(1) << 31
	for k := 3; len2 != 0; len2, k = len2>>1, k+1 {
		if len2&1 != 0 {
			p = crcMultModP(crcX2n[k&31], p)
		}
	}
	return crcMultModP(p, crc1) ^ crc2
}

// crcMultModP is a times b modulo the CRC-32 (IEEE) polynomial, both in
// its reflected bit order.
func crcMultModP(a, b uint32) uint32 {
	var p uint32
	for m := uint32(1) << 31; a != 0; m >>= 1 {
		if a&m != 0 {
			p ^= b
			a ^= m
		}
		if b&1 != 0 {
			b = b>>1 ^ crc32.IEEE
		} else {
			b >>= 1
		}
	}
	return p
}

// crcX2n holds x^(2^n) modulo the polynomial, for n below 32. It stands
// for every n, as crcX2n[n&31]: x^(2^32) is x modulo this polynomial, as
// zlib relies on too (TestCRC32CombineLong checks lengths up to 2^62).
var crcX2n = func() (t [32]uint32) {
	p := uint32(1) << 30 // x^1
	for n := range t {
		t[n] = p
		p = crcMultModP(p, p)
	}
	return t
}()
