package noggin

import (
	"context"
	"fmt"
	"math/rand"
	"reflect"
	"slices"
	"sync"
	"testing"
)

// cold returns a Document with the same content as doc that the engine has
// never seen (its own Items slice, so no cached index applies).
func cold(doc *Document) *Document {
	return &Document{Active: doc.Active, Items: append([]*Item(nil), doc.Items...)}
}

// warm looks up a key the spine does not serve, which publishes the
// document's full index, and returns that index.
func warm(t *testing.T, doc *Document) *index {
	t.Helper()
	newIndex(doc).item("warm")
	x := doc.cached()
	if x == nil {
		t.Fatal("index not published")
	}
	return x
}

// randomDoc is a forest of n items (seeded): mostly well formed, plus odd
// shapes that loaded documents may have when odd is set: orphans, a
// duplicate key, a parent cycle.
func randomDoc(n int, seed int64, odd bool) *Document {
	r := rand.New(rand.NewSource(seed))
	doc := NewDocument()
	for i := 0; i < n; i++ {
		it := &Item{Key: fmt.Sprintf("k%d", i), Title: fmt.Sprintf("t%d", i), Notes: []Note{}}
		if i > 0 && r.Intn(4) != 0 {
			it.ParentKey = doc.Items[r.Intn(i)].Key
		}
		doc.Items = append(doc.Items, it)
	}
	// Shuffle sibling order relative to creation order a little.
	r.Shuffle(len(doc.Items), func(i, j int) { doc.Items[i], doc.Items[j] = doc.Items[j], doc.Items[i] })
	if odd {
		doc.Items = append(doc.Items,
			&Item{Key: "orphan1", ParentKey: "ghost"},
			&Item{Key: "orphan2", ParentKey: "ghost"},
			&Item{Key: "k1", ParentKey: "k2", Title: "duplicate of k1"},
			&Item{Key: "c1", ParentKey: "c2"},
			&Item{Key: "c2", ParentKey: "c1"},
		)
	}
	doc.Active = doc.Items[r.Intn(len(doc.Items))].Key
	return doc
}

// TestIndexFullMatchesLazy checks that every answer of a published (full)
// index equals the answer of a lazy index on the same content, for item,
// children, position, path, ancestors and descendants, and that views and
// path resolution agree.
func TestIndexFullMatchesLazy(t *testing.T) {
	docs := map[string]*Document{
		"F1":       tree(F1),
		"F2":       tree(F2),
		"empty":    NewDocument(),
		"random":   randomDoc(300, 1, false),
		"odd":      randomDoc(120, 2, true),
		"odd-wide": randomDoc(60, 3, true),
	}
	for name, doc := range docs {
		t.Run(name, func(t *testing.T) {
			full := warm(t, doc)
			if full.full == nil || newIndex(doc) != full {
				t.Fatal("newIndex does not return the published full index")
			}
			keys := []string{"", "ghost", "missing"}
			for _, it := range doc.Items {
				keys = append(keys, it.Key)
			}
			for _, k := range keys {
				lazy := newIndex(cold(doc))
				if lazy.full != nil {
					t.Fatal("cold document got a full index")
				}
				if got, want := full.item(k), lazy.item(k); got != want {
					t.Errorf("item(%q) = %v, lazy %v", k, got, want)
				}
				if got, want := full.children(k), newIndex(cold(doc)).children(k); !reflect.DeepEqual(got, want) {
					t.Errorf("children(%q) differ", k)
				}
			}
			for _, it := range doc.Items {
				lazy := newIndex(cold(doc))
				if got, want := full.position(it), lazy.position(it); got != want {
					t.Errorf("position(%s) = %d, lazy %d", it.Key, got, want)
				}
				if got, want := full.path(it), newIndex(cold(doc)).path(it); got != want {
					t.Errorf("path(%s) = %q, lazy %q", it.Key, got, want)
				}
				if got, want := full.ancestors(it), newIndex(cold(doc)).ancestors(it); !reflect.DeepEqual(got, want) {
					t.Errorf("ancestors(%s) differ", it.Key)
				}
				if got, want := full.descendants(it), newIndex(cold(doc)).descendants(it); !reflect.DeepEqual(got, want) {
					t.Errorf("descendants(%s) differ", it.Key)
				}
				for _, o := range []viewOpts{{}, {noChildren: true}, {withSiblings: true}, {withDescendants: true}} {
					c := cold(doc)
					if got, want := buildView(doc, full, it, o), buildView(c, newIndex(c), it, o); !reflect.DeepEqual(got, want) {
						t.Errorf("view of %s %+v differs", it.Key, o)
					}
				}
			}
			for _, p := range []string{".", "..", "-", "+", "1", "/1", "/1/1", "/2/1", "../1", "-/1", "+/1", "/9/9"} {
				for _, active := range []string{"", doc.Active, "ghost"} {
					got, gmsg := full.resolve(active, p)
					want, wmsg := newIndex(cold(doc)).resolve(active, p)
					if got != want || gmsg != wmsg {
						t.Errorf("resolve(%q, %q) = %v %q, lazy %v %q", active, p, got, gmsg, want, wmsg)
					}
				}
			}
		})
	}
}

// TestIndexNotInherited checks that documents derived from an indexed one
// (Apply results, copied values, a replaced Items slice) never answer from
// its stale index.
func TestIndexNotInherited(t *testing.T) {
	doc := tree(F2) // root1 [alpha [alpha-kid], beta [beta-kid], gamma], root2
	warm(t, doc)

	// Apply: move root2 to the front; the result (indexed anew, since its
	// input was) resolves against its own items.
	next, err := Apply(doc, []Op{{Type: OpMove, Key: "k7", Position: 0}})
	if err != nil {
		t.Fatal(err)
	}
	if c := next.cached(); c != nil && (c.doc != next || c.full == nil) {
		t.Fatal("Apply result inherited the index of its input")
	}
	if got := PathOf(next, "k7"); got != "/1" {
		t.Fatalf("PathOf(next, root2) = %q, want /1", got)
	}
	warm(t, next)
	if got := PathOf(next, "k7"); got != "/1" {
		t.Fatalf("warm PathOf(next, root2) = %q, want /1", got)
	}
	if got := PathOf(doc, "k7"); got != "/2" {
		t.Fatalf("PathOf(doc, root2) = %q after Apply, want /2", got)
	}

	// A copied Document value with a different item order.
	c := *doc
	c.Items = append([]*Item{doc.Items[6]}, doc.Items[:6]...)
	if got := PathOf(&c, "k7"); got != "/1" {
		t.Fatalf("PathOf(copy, root2) = %q, want /1", got)
	}
	// The same Items slice in a copied value: still its own index.
	d := *doc
	if x := newIndex(&d); x == doc.cached() {
		t.Fatal("copied Document value uses the original's index")
	}
	if got := PathOf(&d, "k7"); got != "/2" {
		t.Fatalf("PathOf(copy, root2) = %q, want /2", got)
	}

	// Items replaced in place of the original (not allowed, but cheap to
	// catch): the published index no longer applies.
	doc.Items = doc.Items[:6]
	if doc.cached() != nil {
		t.Fatal("index survived a new Items slice")
	}
	if got := PathOf(doc, "k7"); got != "" {
		t.Fatalf("PathOf(truncated, root2) = %q, want \"\"", got)
	}
}

// TestIndexConcurrentShow runs many concurrent shows on one document (run
// with -race): every reader gets the same views, before and after the
// index is published.
func TestIndexConcurrentShow(t *testing.T) {
	doc := randomDoc(150, 5, true)
	var paths []string
	for _, it := range doc.Items {
		if p := PathOf(cold(doc), it.Key); p != "" {
			paths = append(paths, p)
		}
	}
	want := make(map[string]*View, len(paths))
	for _, p := range paths {
		c := cold(doc)
		it, err := Resolve(c, c.Active, p)
		if err != nil {
			t.Fatal(err)
		}
		want[p] = buildView(c, newIndex(c), it, viewOpts{withSiblings: true})
	}
	s := newMem(doc)
	e := fixedEngine()
	var wg sync.WaitGroup
	errs := make(chan string, 4)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < len(paths); i++ {
				p := paths[(i*7+g)%len(paths)]
				v, err := e.Show(context.Background(), s, ShowOpts{Path: p, WithSiblings: true})
				if err != nil || !reflect.DeepEqual(v, want[p]) {
					errs <- fmt.Sprintf("show %s: %v", p, err)
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if doc.cached() == nil {
		t.Error("index not published after repeated shows")
	}
}

// TestDerivedIndex applies random writes to an indexed document and checks,
// after each, that the derived index (or the full one it falls back to)
// answers every lookup exactly as a fresh index of the same items does.
func TestDerivedIndex(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	doc := &Document{Items: []*Item{}}
	for i := range 60 {
		it := newItem(fmt.Sprintf("k%03d", i))
		if i > 0 && rng.Intn(3) > 0 {
			it.ParentKey = doc.Items[rng.Intn(len(doc.Items))].Key
		}
		doc.Items = append(doc.Items, it)
	}
	if err := Validate(doc); err != nil {
		t.Fatal(err)
	}
	Index(doc)
	derivedSeen := 0
	for step := range 1500 {
		pick := func() string { return doc.Items[rng.Intn(len(doc.Items))].Key }
		var ops []Op
		switch r := rng.Intn(20); {
		case r < 6:
			k := fmt.Sprintf("n%04d", step)
			ops = []Op{{Type: OpAdd, Item: newItem(k), ParentKey: pick(), AtEnd: true}, {Type: OpSetActive, Key: k}}
		case r < 8:
			ops = []Op{{Type: OpAdd, Item: newItem(fmt.Sprintf("r%04d", step)), AtEnd: true}}
		case r < 11:
			ops = []Op{{Type: OpNote, Key: pick(), Note: &Note{Text: "x"}}}
		case r < 14:
			title := fmt.Sprintf("t%d", step)
			ops = []Op{{Type: OpSet, Key: pick(), Title: &title}}
		case r < 16:
			ops = []Op{{Type: OpSetActive, Key: pick()}}
		case r < 17:
			ops = []Op{{Type: OpAdd, Item: newItem(fmt.Sprintf("p%04d", step)), ParentKey: pick(), Position: 0}}
		case r < 18:
			k := pick()
			ops = []Op{{Type: OpMove, Key: k, ParentKey: "", Position: 0}}
		default:
			ops = []Op{{Type: OpUnnote, Key: pick()}}
		}
		next, err := Apply(doc, ops)
		if err != nil {
			continue // an unnote without notes
		}
		doc = next
		got := doc.cached()
		if got == nil {
			t.Fatalf("step %d: the successor of an indexed document is not indexed", step)
		}
		if got.d != nil {
			derivedSeen++
		}
		fresh := newIndex(&Document{Items: doc.Items})
		fresh.buildFull()
		for _, it := range doc.Items {
			if got.item(it.Key) != it {
				t.Fatalf("step %d: item(%s) wrong", step, it.Key)
			}
			if g, w := got.position(it), fresh.position(it); g != w {
				t.Fatalf("step %d: position(%s) = %d, want %d", step, it.Key, g, w)
			}
			if g, w := got.path(it), fresh.path(it); g != w {
				t.Fatalf("step %d: path(%s) = %s, want %s", step, it.Key, g, w)
			}
			if g, w := got.children(it.Key), fresh.children(it.Key); !slices.Equal(g, w) {
				t.Fatalf("step %d: children(%s) differ", step, it.Key)
			}
		}
		if g, w := got.children(""), fresh.children(""); !slices.Equal(g, w) {
			t.Fatalf("step %d: roots differ", step)
		}
		if step%300 == 0 {
			Index(doc) // as a long-lived store does after a fresh read
		}
	}
	if derivedSeen < 500 {
		t.Fatalf("only %d derived indexes checked", derivedSeen)
	}
}
