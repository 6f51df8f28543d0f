package noggin

import (
	"context"
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
func (e *Engine) Find(ctx context.Context, s Store, o FindOpts) (*FindResult, error) {
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
	st := newSnap(doc)
	x := st.x
	x.buildFull()
	root, base := "", ""
	if o.Under != "" {
		under, err := st.resolve(o.Under)
		if err != nil {
			return nil, err
		}
		root, base = under.Key, x.path(under)
	}
	res := &FindResult{Matches: []FindMatch{}}
	// Depth first in sibling order, with each item's path built on the way.
	type frame struct {
		it   *Item
		path string
	}
	var stack []frame
	push := func(parent, path string) {
		kids := x.children(parent)
		for i := len(kids) - 1; i >= 0; i-- {
			stack = append(stack, frame{kids[i], path + "/" + strconv.Itoa(i+1)})
		}
	}
	seen := map[*Item]bool{}
	push(root, base)
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[f.it] { // a cycle in a hand-edited file
			continue
		}
		seen[f.it] = true
		push(f.it.Key, f.path)
		if o.Open && f.it.Done || o.Done && !f.it.Done {
			continue
		}
		if notes, ok := match(f.it, words); ok {
			res.Total++
			if len(res.Matches) < limit {
				res.Matches = append(res.Matches, FindMatch{Key: f.it.Key, Path: f.path, Title: f.it.Title, Done: f.it.Done, Notes: notes})
			}
		}
	}
	return res, nil
}

// match reports whether every word occurs in the item's title or in one of
// its notes, and the timestamps of the notes holding any word.
func match(it *Item, words []string) ([]string, bool) {
	title := fold(it.Title)
	var notes []string
	texts := make([]string, len(it.Notes))
	for i, n := range it.Notes {
		texts[i] = fold(n.Text)
	}
	for _, w := range words {
		found := strings.Contains(title, w)
		for _, t := range texts {
			if strings.Contains(t, w) {
				found = true
				break
			}
		}
		if !found {
			return nil, false
		}
	}
	notes = []string{}
	for i, t := range texts {
		for _, w := range words {
			if strings.Contains(t, w) {
				notes = append(notes, it.Notes[i].Timestamp)
				break
			}
		}
	}
	return notes, true
}

// fold maps every letter to one representative of its Unicode simple case
// folding orbit (the smallest code point of it: "K", "k" and the Kelvin
// sign all become "K"), so that folded strings compare case-insensitively.
func fold(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ToUpper(s)
	}
	return strings.Map(foldRune, s)
}

func foldRune(r rune) rune {
	m := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		m = min(m, f)
	}
	return m
}
