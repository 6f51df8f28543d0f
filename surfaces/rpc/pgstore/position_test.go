package pgstore

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestPositions inserts at random places (fixed seed) and checks that the
// positions stay strictly ordered, never end in '0', and stay short for
// appends and bulk runs.
func TestPositions(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	list := spread("", "", 100)
	for range 5000 {
		i := rng.IntN(len(list) + 1)
		lo, hi := "", ""
		if i > 0 {
			lo = list[i-1]
		}
		if i < len(list) {
			hi = list[i]
		}
		n := 1 + rng.IntN(3)
		list = slices.Insert(list, i, spread(lo, hi, n)...)
	}
	for i, p := range list {
		if strings.HasSuffix(p, "0") || p == "" {
			t.Fatalf("position %q", p)
		}
		if i > 0 && list[i-1] >= p {
			t.Fatalf("positions %q and %q out of order", list[i-1], p)
		}
	}
	// 10,000 appends keep the counter's width.
	p := list[len(list)-1]
	for range 10000 {
		next := after(p)
		if next <= p {
			t.Fatalf("after(%q) = %q", p, next)
		}
		p = next
	}
	if len(p) > 40 {
		t.Fatalf("appended position grew to %d bytes", len(p))
	}
	// A run of 1,000 inserted between two neighbours stays short.
	run := spread("00000400i", "00000401i", 1000)
	if !slices.IsSorted(run) || len(slices.MaxFunc(run, func(a, b string) int { return len(a) - len(b) })) > 20 {
		t.Fatalf("bisected run too long or unsorted")
	}
}
