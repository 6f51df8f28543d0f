package noggin

import (
	"context"
	"strings"
	"testing"

	"github.com/noggin-go/noggin/core/jstext"
)

// FuzzFind: any query, subtree and limit either fails with a noggin error
// or lists matches that hold every folded query word, in tree order,
// within the limit.
func FuzzFind(f *testing.F) {
	for _, s := range []struct {
		q, under string
		limit    int
	}{{"storage", "", 0}, {"STRASSE", "/1", 1}, {"\u212aelvin", "..", 2}, {"\x1b[2J", "", -1}, {"", "", 0}, {"  \u3000", "/9", 3}} {
		f.Add(s.q, s.under, s.limit, false, false)
	}
	doc := tree(findTree)
	doc.Active = "k2"
	f.Fuzz(func(t *testing.T, q, under string, limit int, open, done bool) {
		r, err := fixedEngine().Find(context.Background(), newMem(doc), FindOpts{Query: q, Under: under, Limit: limit, Open: open, Done: done})
		if err != nil {
			if Wrap(err).Code == CodeNogginError && !(open && done) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		words := jstext.Fields(fold(q))
		want := limit
		if want <= 0 {
			want = DefaultFindLimit
		}
		if len(r.Matches) > want || r.Total < len(r.Matches) {
			t.Fatalf("%d matches of %d with limit %d", len(r.Matches), r.Total, limit)
		}
		prev := ""
		for _, m := range r.Matches {
			it := doc.Items[indexOf(doc, m.Key)]
			text := fold(it.Title)
			for _, n := range it.Notes {
				text += "\x00" + fold(n.Text)
			}
			for _, w := range words {
				if !strings.Contains(text, w) {
					t.Fatalf("%s matched without %q", m.Path, w)
				}
			}
			if prev != "" && !pathBefore(prev, m.Path) {
				t.Fatalf("%s listed after %s", m.Path, prev)
			}
			prev = m.Path
		}
	})
}

func indexOf(doc *Document, key string) int {
	for i, it := range doc.Items {
		if it.Key == key {
			return i
		}
	}
	panic("no item " + key)
}

// pathBefore reports whether absolute path a comes before b in tree order.
func pathBefore(a, b string) bool {
	pa, pb := positions(a), positions(b)
	for i := 0; i < len(pa) && i < len(pb); i++ {
		if pa[i] != pb[i] {
			return pa[i] < pb[i]
		}
	}
	return len(pa) < len(pb)
}
