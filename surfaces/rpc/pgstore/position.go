package pgstore

import "strings"

// Positions keep the order of a noggin's flat item list (which is also the
// order of siblings) in the items table, so that inserting or moving one
// item writes one row. A position is a string of base-36 digits read as a
// fraction (0.d1d2…), compared byte by byte (the column is COLLATE "C");
// it never ends in '0', so there is always room below it. Positions that
// noggin appends are an 8-digit counter plus "i", so a long run of pushes
// keeps them short; insertions between two items take the midpoint.

const digits = "0123456789abcdefghijklmnopqrstuvwxyz"

// intWidth is the width of the counter part; step is the counter's
// distance between appended items.
const (
	intWidth = 8
	step     = 1 << 10
	maxCount = 2821109907456 // 36^8
)

// counterKey is the position of counter value n.
func counterKey(n int64) string {
	var b [intWidth + 1]byte
	for i := intWidth - 1; i >= 0; i-- {
		b[i] = digits[n%36]
		n /= 36
	}
	b[intWidth] = 'i'
	return string(b[:])
}

// counter reads the counter part of a position (0 when it has none).
func counter(p string) int64 {
	if len(p) < intWidth {
		return -1
	}
	var n int64
	for i := range intWidth {
		d := strings.IndexByte(digits, p[i])
		if d < 0 {
			return -1
		}
		n = n*36 + int64(d)
	}
	return n
}

// after returns a position greater than p ("" = before everything).
func after(p string) string {
	if p == "" {
		return counterKey(step)
	}
	if n := counter(p); n >= 0 && n+step < maxCount {
		return counterKey(n + step)
	}
	return between(p, "")
}

// between returns a position strictly between a and b, where a == ""
// means the lowest end and b == "" the highest (a < b, neither ends in
// '0').
func between(a, b string) string {
	if b != "" {
		n := 0
		for n < len(b) && digitAt(a, n) == b[n] {
			n++
		}
		if n > 0 {
			rest := ""
			if n < len(a) {
				rest = a[n:]
			}
			return b[:n] + between(rest, b[n:])
		}
	}
	da := 0
	if a != "" {
		da = strings.IndexByte(digits, a[0])
	}
	db := len(digits)
	if b != "" {
		db = strings.IndexByte(digits, b[0])
	}
	if db-da > 1 {
		return string(digits[(da+db+1)/2])
	}
	if len(b) > 1 {
		return b[:1]
	}
	rest := ""
	if len(a) > 1 {
		rest = a[1:]
	}
	return string(digits[da]) + between(rest, "")
}

func digitAt(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return '0'
}

// spread returns n increasing positions strictly between lo and hi (hi ""
// = unbounded), as short as it can: appended runs count up, runs inside
// the list bisect (so their length grows with log n, not n).
func spread(lo, hi string, n int) []string {
	out := make([]string, n)
	if hi == "" {
		p := lo
		for i := range out {
			p = after(p)
			out[i] = p
		}
		return out
	}
	var fill func(lo, hi string, part []string)
	fill = func(lo, hi string, part []string) {
		if len(part) == 0 {
			return
		}
		m := len(part) / 2
		part[m] = between(lo, hi)
		fill(lo, part[m], part[:m])
		fill(part[m], hi, part[m+1:])
	}
	fill(lo, hi, out)
	return out
}
