// Package sampledoc generates realistic noggin documents for benchmarks and
// property tests: a forest of depth up to 6 with fan-out 3–10, about 30 %
// of the items done, 0–3 notes per item (a done item's last note is its
// close note), titles and notes made of ordinary words (sometimes with
// punctuation that needs YAML quoting, multi-line notes and long lines).
// The result depends only on n and seed.
package sampledoc

import (
	"fmt"
	"math/rand"
	"strings"
	"time"

	"github.com/noggin-go/noggin/core/noggin"
)

var words = strings.Fields(`
api auth backend bug build cache check cleanup client config data database debug deploy design
docs draft error feature fix flaky handler index issue job key layout lint list log login memory
merge metrics migrate model module network notes page parser path plan query queue refactor
release render report request review route schema script search server session setup spec
storage sync task test ticket timeout token tree update upload user validate view write
the a an and or of for to in on with from into after before while when
add remove rename move split check update write read ship land revert retry measure
quick small large new old broken slow fast stale missing extra nightly weekly final
`)

var prefixes = []string{"", "", "", "", "", "", "TODO: ", "WIP ", "Fix: ", "#", "[infra] ", "- "}

type gen struct {
	r   *rand.Rand
	t   time.Time
	ids map[string]bool
}

func (g *gen) words(lo, hi int) string {
	n := lo + g.r.Intn(hi-lo+1)
	w := make([]string, n)
	for i := range w {
		w[i] = words[g.r.Intn(len(words))]
	}
	return strings.Join(w, " ")
}

func (g *gen) title() string {
	s := g.words(2, 8)
	s = strings.ToUpper(s[:1]) + s[1:]
	switch g.r.Intn(20) {
	case 0:
		s += "'s follow-up"
	case 1:
		s += fmt.Sprintf(" (#%d)", 100+g.r.Intn(9000))
	case 2:
		s = fmt.Sprintf("%d", g.r.Intn(1000))
	}
	return prefixes[g.r.Intn(len(prefixes))] + s
}

func (g *gen) noteText() string {
	switch g.r.Intn(10) {
	case 0: // multi-line
		lines := make([]string, 2+g.r.Intn(3))
		for i := range lines {
			lines[i] = g.words(3, 12)
		}
		return strings.Join(lines, "\n")
	case 1: // long single line, folded by the YAML writer
		return g.words(25, 45)
	}
	return g.words(4, 16)
}

func (g *gen) tick() string {
	g.t = g.t.Add(time.Duration(200+g.r.Intn(60000)) * time.Millisecond)
	return g.t.UTC().Format("2006-01-02T15:04:05.000Z")
}

func (g *gen) key() string {
	for {
		k := fmt.Sprintf("i-%s-%06x", g.t.UTC().Format("20060102-150405"), g.r.Intn(1<<24))
		if !g.ids[k] {
			g.ids[k] = true
			return k
		}
	}
}

// Doc returns a document of n items generated from seed.
func Doc(n int, seed int64) *noggin.Document {
	g := &gen{
		r:   rand.New(rand.NewSource(seed)), //nolint:gosec // a seeded generator: the same seed must give the same document
		t:   time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC),
		ids: make(map[string]bool, n),
	}
	doc := noggin.NewDocument()
	doc.Items = make([]*noggin.Item, 0, n)
	var open []string
	// children builds the subtree of parent depth-first, in the order a
	// person would create it.
	var children func(parent string, depth int)
	children = func(parent string, depth int) {
		fan := 3 + g.r.Intn(8)
		for c := 0; c < fan && len(doc.Items) < n; c++ {
			created := g.tick()
			it := &noggin.Item{Key: g.key(), ParentKey: parent, Title: g.title(), CreatedAt: &created}
			// 0–3 notes in all; a done item's last note is its close note.
			it.Done = g.r.Intn(10) < 3
			nn := g.r.Intn(4)
			if it.Done {
				nn = g.r.Intn(3)
			}
			it.Notes = make([]noggin.Note, 0, nn+1)
			for i := 0; i < nn; i++ {
				it.Notes = append(it.Notes, noggin.Note{Timestamp: g.tick(), Text: g.noteText()})
			}
			if it.Done {
				it.Notes = append(it.Notes, noggin.Note{Timestamp: g.tick(), Text: "closed"})
			} else {
				open = append(open, it.Key)
			}
			doc.Items = append(doc.Items, it)
			// Deeper levels get sparser so that big documents still reach
			// depth 6 without every branch being full.
			if depth < 6 && g.r.Intn(depth+1) == 0 {
				children(it.Key, depth+1)
			}
		}
	}
	for len(doc.Items) < n {
		children("", 1)
	}
	if len(open) > 0 {
		doc.Active = open[g.r.Intn(len(open))]
	}
	return doc
}

// Flat is a noggin of n open roots and no notes, the middle one active:
// the widest row a write answers (the answer-size measurements).
func Flat(n int) *noggin.Document {
	doc := noggin.NewDocument()
	for i := 1; i <= n; i++ {
		c := "2026-01-01T00:00:00.000Z"
		doc.Items = append(doc.Items, &noggin.Item{Key: fmt.Sprintf("k%d", i),
			Title: fmt.Sprintf("a root item of a flat noggin, number %d", i), CreatedAt: &c, Notes: []noggin.Note{}})
	}
	if n > 0 {
		doc.Active = fmt.Sprintf("k%d", (n+1)/2)
	}
	return doc
}
