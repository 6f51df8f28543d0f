package noggin

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"
)

// fromItem is an Undecoded that copies a full item (and counts decodes),
// or fails with err.
type fromItem struct {
	full    *Item
	decodes *int
	err     error
	failed  *error // the document's Undecodable
}

func (f fromItem) Decode(it *Item) error {
	if f.err != nil {
		*f.failed = f.err
		return f.err
	}
	*f.decodes++
	*it = *f.full
	return nil
}

// lazyCopy is doc as a lazy read leaves it: keys and parent keys, the rest
// undecoded. The rest holds poison until decoded (the done flag the
// opposite of the item's): an engine that read an item it did not decode
// would get another result.
func lazyCopy(doc *Document, decodes *int, err error) *Document {
	out := &Document{Active: doc.Active, Order: doc.Order, Extra: doc.Extra}
	var failed error
	out.SetUndecodable(func() error { return failed })
	poison := "undecoded"
	for _, it := range doc.Items {
		c := &Item{Key: it.Key, ParentKey: it.ParentKey, Title: poison, Done: !it.Done, CreatedAt: &poison,
			Notes: []Note{{Text: poison}}, Foreign: &Foreign{Order: []string{poison}, Extra: []Field{{Name: poison}}}}
		c.LeaveUndecoded(fromItem{full: it, decodes: decodes, err: err, failed: &failed})
		out.Items = append(out.Items, c)
	}
	return out
}

// TestShowDecodesWhatItShows: a show on undecoded items decodes the items
// its view shows, and only those, and shows what it shows on the full
// document; an item that cannot be decoded fails the show with its error.
func TestShowDecodesWhatItShows(t *testing.T) {
	e := fixedEngine()
	ctx := context.Background()
	for _, outline := range []string{F1, F2, F3, F4, F5} {
		full := tree(outline)
		for _, it := range full.Items {
			for _, o := range []ShowOpts{{}, {NoChildren: true}, {WithSiblings: true}, {WithDescendants: true}} {
				o.Path = PathOf(full, it.Key)
				decodes := 0
				lazy := lazyCopy(full, &decodes, nil)
				got, err := e.Show(ctx, newMem(lazy), o)
				if err != nil {
					t.Fatal(err)
				}
				want, _ := e.Show(ctx, newMem(full), o)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s %+v: got %s, want %s", outline, o, viewOutline(got), viewOutline(want))
				}
				shown := len(flatten(want.Items))
				if decodes != shown {
					t.Fatalf("%s %+v: %d decodes for %d items shown", outline, o, decodes, shown)
				}
			}
		}
	}
	broken := errors.New("the file changed")
	decodes := 0
	if _, err := e.Show(ctx, newMem(lazyCopy(tree(F2), &decodes, broken)), ShowOpts{}); !errors.Is(err, broken) {
		t.Fatalf("show of an item that cannot be decoded: %v", err)
	}
}

func flatten(nodes []*Node) []*Node {
	var out []*Node
	for _, n := range nodes {
		out = append(append(out, n), flatten(n.Children)...)
	}
	return out
}

// TestWriteOnUndecodableWritesNothing: a write that meets an item it
// cannot decode — in its own noggin (note, edit) or in copy's source —
// fails with that item's error and leaves the noggin as it was.
func TestWriteOnUndecodableWritesNothing(t *testing.T) {
	e := fixedEngine()
	ctx := context.Background()
	broken := errors.New("the file changed")
	writes := map[string]func(s Store) error{
		"note": func(s Store) error { _, err := e.Note(ctx, s, NoteOpts{Text: "x"}); return err },
		"edit": func(s Store) error { _, err := e.Edit(ctx, s, EditOpts{Path: "/1", Title: ptr("y")}); return err },
		"done": func(s Store) error { _, err := e.Done(ctx, s, DoneOpts{Path: "/1", Force: true}); return err },
		"copy from it": func(s Store) error {
			_, err := e.Copy(ctx, s, newMem(tree(F1)))
			return err
		},
	}
	for name, write := range writes {
		decodes := 0
		lazy := lazyCopy(tree(F2), &decodes, broken)
		s := newMem(lazy)
		if err := write(s); !errors.Is(err, broken) {
			t.Errorf("%s: %v, want the decode error", name, err)
		}
		if d, _ := s.Load(ctx); d != lazy {
			t.Errorf("%s: the noggin was written", name)
		}
	}
}

// TestEveryVerbDecodesWhatItReads: every verb, at every item of the
// fixtures, answers and writes on a lazy read (items undecoded, holding
// poison until decoded) what it answers and writes on the full document:
// a verb that reads an item it did not decode fails here.
func TestEveryVerbDecodesWhatItReads(t *testing.T) {
	e := fixedEngine()
	ctx := context.Background()
	place := func(kind, path string) *Placement { return &Placement{Kind: kind, Anchor: path} }
	for _, outline := range []string{F1, F2, F3, F4, F5} {
		for _, it := range tree(outline).Items {
			p := PathOf(tree(outline), it.Key)
			verbs := []struct {
				name string
				run  func(s Store) (any, error)
			}{
				{"push", func(s Store) (any, error) { return e.Push(ctx, s, PushOpts{Title: "new"}) }},
				{"add into", func(s Store) (any, error) { return e.Add(ctx, s, AddOpts{Title: "n", Placement: place("into", p)}) }},
				{"add after, goto", func(s Store) (any, error) {
					return e.Add(ctx, s, AddOpts{Title: "n", Placement: place("after", p), Goto: Goto{Present: true, Self: true}})
				}},
				{"add before", func(s Store) (any, error) { return e.Add(ctx, s, AddOpts{Title: "n", Placement: place("before", p)}) }},
				{"move to the end", func(s Store) (any, error) { return e.Move(ctx, s, MoveOpts{Path: p, Placement: place("after", "/1")}) }},
				{"move into /1", func(s Store) (any, error) { return e.Move(ctx, s, MoveOpts{Path: p, Placement: place("into", "/1")}) }},
				{"goto", func(s Store) (any, error) { return e.Goto(ctx, s, GotoOpts{Path: p}) }},
				{"done", func(s Store) (any, error) { return e.Done(ctx, s, DoneOpts{Path: p}) }},
				{"done --force", func(s Store) (any, error) { return e.Done(ctx, s, DoneOpts{Path: p, Force: true}) }},
				{"done --close-all", func(s Store) (any, error) {
					return e.Done(ctx, s, DoneOpts{Path: p, CloseAll: true})
				}},
				{"pop", func(s Store) (any, error) { return e.Pop(ctx, s, PopOpts{Force: true}) }},
				{"edit title", func(s Store) (any, error) { return e.Edit(ctx, s, EditOpts{Path: p, Title: ptr("renamed")}) }},
				{"edit reopen", func(s Store) (any, error) { return e.Edit(ctx, s, EditOpts{Path: p, Done: ptr(false)}) }},
				{"edit close", func(s Store) (any, error) { return e.Edit(ctx, s, EditOpts{Path: p, Done: ptr(true), Force: true}) }},
				{"note", func(s Store) (any, error) { return e.Note(ctx, s, NoteOpts{Path: p, Text: "seen"}) }},
				{"delete", func(s Store) (any, error) { return e.Delete(ctx, s, DeleteOpts{Path: p, Recursive: true}) }},
				{"find", func(s Store) (any, error) { return e.Find(ctx, s, FindOpts{Query: "a"}) }},
				{"find --done", func(s Store) (any, error) { return e.Find(ctx, s, FindOpts{Query: "a", Done: true, Under: p}) }},
				{"agents", func(s Store) (any, error) { return e.Agents(ctx, s, AgentsOpts{}) }},
			}
			for _, v := range verbs {
				name, verb := v.name, v.run
				decodes := 0
				lazy, full := newMem(lazyCopy(tree(outline), &decodes, nil)), newMem(tree(outline))
				got, gotErr := verb(lazy)
				want, wantErr := verb(full)
				if !reflect.DeepEqual(got, want) || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
					t.Fatalf("%s %s on %q: lazy %#v (%v), full %#v (%v)", name, p, outline, got, gotErr, want, wantErr)
				}
				a, _ := lazy.Load(ctx)
				b, _ := full.Load(ctx)
				if diff := sameDecoded(a, b); diff != "" {
					t.Fatalf("%s %s on %q: the noggin after it: %s", name, p, outline, diff)
				}
			}
		}
	}
}

// sameDecoded says how a (its items decoded now) differs from b ("": not).
func sameDecoded(a, b *Document) string {
	if a.Active != b.Active || !reflect.DeepEqual(a.Cursors(), b.Cursors()) || len(a.Items) != len(b.Items) {
		return fmt.Sprintf("active %q vs %q, cursors %v vs %v, %d vs %d items", a.Active, b.Active, a.Cursors(), b.Cursors(), len(a.Items), len(b.Items))
	}
	for i := range a.Items {
		if err := a.Items[i].Decode(); err != nil {
			return err.Error()
		}
		if !reflect.DeepEqual(a.Items[i], b.Items[i]) {
			return fmt.Sprintf("item %d: %+v vs %+v", i, a.Items[i], b.Items[i])
		}
	}
	return ""
}
