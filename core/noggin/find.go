package noggin

import (
	"bytes"
	"context"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/noggin-go/noggin/core/jstext"
)

// FindOpts are find's options.
type FindOpts struct {
	// Query is the text to look for: every word of it must occur in the
	// item's title or notes, ignoring case.
	Query string
	// Open and Done keep only open or only done items (not both).
	Open, Done bool
	// Under, when not empty, is a path: only items below it are searched.
	Under string
	// Limit caps the matches returned (Total still counts them all);
	// 0 means DefaultFindLimit.
	Limit int
	// By keeps only the items the writes of this agent changed (added,
	// renamed, closed, reopened, noted, moved), as the history records them.
	By string
}

// DefaultFindLimit is how many matches find returns unless told.
const DefaultFindLimit = 50

// FindMatch is one item find matched.
type FindMatch struct {
	Key, Path, Title string
	Done             bool
	// Notes are the timestamps of the item's notes that hold a query word
	// ("" for a note without timestamp), in note order.
	Notes []string
}

// FindResult is the result of find: the matches in tree order (depth
// first, siblings in order), at most the limit, and how many there are.
type FindResult struct {
	Matches []FindMatch
	Total   int
}

// Find lists the items whose title or notes contain every word of the
// query, case-insensitively (Unicode simple case folding).
func (e *Engine) Find(ctx context.Context, s Store, o FindOpts) (_ *FindResult, err error) {
	var r reads
	defer r.check(&err) // a lazy read's item that could not be decoded (Undecoded)
	s = r.track(s)
	words := jstext.Fields(fold(o.Query))
	if len(words) == 0 {
		return nil, NewError(CodeQueryRequired, F("verb", "find"))
	}
	if o.Open && o.Done {
		return nil, Usage(CodeNogginError, 2, "find: choose at most one of open and done (CLI: --open, --done)")
	}
	limit := o.Limit
	if limit <= 0 {
		limit = DefaultFindLimit
	}
	doc, err := s.Load(ctx)
	if err != nil {
		return nil, err
	}
	var touched map[string]bool
	if o.By != "" {
		j, err := s.History(ctx)
		if err != nil {
			return nil, historyError(err)
		}
		touched = map[string]bool{}
		for _, e := range j.Entries {
			for _, c := range e.Changes {
				if e.Agent == o.By && c.Kind != "activated" {
					touched[c.Key] = true
				}
			}
		}
	}
	st := newSnap(doc)
	x := st.x
	under := ""
	if o.Under != "" {
		it, err := st.resolve(o.Under)
		if err != nil {
			return nil, err
		}
		under = x.path(it) + "/"
	}
	ws := make([][]byte, len(words))
	for i, w := range words {
		ws[i] = []byte(w)
	}
	m := matcher{words: ws}
	// Match in file order first: most items do not match, and they cost no
	// index. Then the matches get their paths (unreachable items have
	// none and are left out) and are put in tree order.
	type hit struct {
		it  *Item
		m   FindMatch
		pos []int
	}
	var hits []hit
	for _, it := range doc.Items {
		if o.Open && it.done() || o.Done && !it.done() || touched != nil && !touched[it.Key] {
			continue
		}
		if notes, ok := m.match(it); ok {
			hits = append(hits, hit{it: it, m: FindMatch{Key: it.Key, Title: it.title(), Done: it.done(), Notes: notes}})
		}
	}
	if len(hits) > 8 { // many paths to work out: one full index beats a spine each
		x.buildFull()
	}
	kept := hits[:0]
	for _, h := range hits {
		h.m.Path = x.path(h.it)
		if h.m.Path == "" || under != "" && !strings.HasPrefix(h.m.Path, under) {
			continue
		}
		h.pos = positions(h.m.Path)
		kept = append(kept, h)
	}
	hits = kept
	slices.SortStableFunc(hits, func(a, b hit) int { return slices.Compare(a.pos, b.pos) })
	res := &FindResult{Matches: []FindMatch{}, Total: len(hits)}
	for _, h := range hits[:min(len(hits), limit)] {
		res.Matches = append(res.Matches, h.m)
	}
	return res, nil
}

// positions are the numbers of an absolute path ("/1/12" → [1 12]).
func positions(p string) []int {
	var out []int
	for _, part := range strings.Split(p[1:], "/") {
		n, _ := strconv.Atoi(part)
		out = append(out, n)
	}
	return out
}

// matcher tests items against the folded query words, folding each item's
// title and notes into one reused buffer (no allocation per item).
type matcher struct {
	words [][]byte
	buf   []byte
	ends  []int // end of the title, then of each note, in buf
}

// match reports whether every word occurs in the item's title or in one of
// its notes, and the timestamps of the notes holding any word.
func (m *matcher) match(it *Item) ([]string, bool) {
	m.buf = appendFold(m.buf[:0], it.title())
	m.ends = append(m.ends[:0], len(m.buf))
	for _, n := range it.notes() {
		m.buf = appendFold(m.buf, n.Text)
		m.ends = append(m.ends, len(m.buf))
	}
	for _, w := range m.words {
		found, start := false, 0
		for _, end := range m.ends {
			if bytes.Contains(m.buf[start:end], w) {
				found = true
				break
			}
			start = end
		}
		if !found {
			return nil, false
		}
	}
	notes := []string{}
	for i := range it.notes() {
		seg := m.buf[m.ends[i]:m.ends[i+1]]
		for _, w := range m.words {
			if bytes.Contains(seg, w) {
				notes = append(notes, it.notes()[i].Timestamp)
				break
			}
		}
	}
	return notes, true
}

// appendFold appends fold(s) to dst: ASCII through a table, a byte at a
// time into room made once; other runes through foldRune.
func appendFold(dst []byte, s string) []byte {
	n := len(dst)
	dst = slices.Grow(dst, len(s))[:n+len(s)]
	out := dst[n:]
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			dst = dst[:n+i]
			for _, r := range s[i:] {
				dst = utf8.AppendRune(dst, foldRune(r))
			}
			return dst
		}
		out[i] = upperASCII[c]
	}
	return dst
}

// upperASCII maps each ASCII byte to its upper case.
var upperASCII = func() (t [utf8.RuneSelf]byte) {
	for i := range t {
		t[i] = byte(i)
		if 'a' <= i && i <= 'z' {
			t[i] -= 'a' - 'A'
		}
	}
	return t
}()

// fold maps every letter to one representative of its Unicode simple case
// folding orbit (the smallest code point of it: "K", "k" and the Kelvin
// sign all become "K"), so that folded strings compare case-insensitively.
func fold(s string) string { return string(appendFold(nil, s)) }

func foldRune(r rune) rune {
	m := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		m = min(m, f)
	}
	return m
}
