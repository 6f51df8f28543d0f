package store

import (
	"hash/crc32"
	"slices"
	"sync"
)

// scanSum works out the CRC-32 (IEEE) of a mapping from the stretches that
// a lazy read passes, as it passes them: a one-shot process checks the file
// and scans it in one pass over its pages instead of two, and drops each
// stretch once both are done with it, so that it never holds the whole
// file: a CLI `show` on 100k items (a 39 MB file) peaks at 26.6 MB, and
// peaked at 47.8 MB with the file checked whole before the scan.
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
