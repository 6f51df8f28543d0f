package noggin

import (
	"context"
	"errors"
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
