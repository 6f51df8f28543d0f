package noggin

import (
	"fmt"
	"math/rand"
	"reflect"
	"testing"
)

// spineDoc is a valid forest of n items with generated-looking keys: most
// items under an earlier one, some (moved) under a later one.
func spineDoc(r *rand.Rand, n int) *Document {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = fmt.Sprintf("i-20260105-090008-%06x", i*7919%(1<<24))
	}
	return spineDocOf(r, keys)
}

// spineDocOf is spineDoc with the given keys.
func spineDocOf(r *rand.Rand, keys []string) *Document {
	n := len(keys)
	items := make([]*Item, n)
	for i := range items {
		items[i] = &Item{Key: keys[i], Title: fmt.Sprint("item ", i), Notes: []Note{}}
	}
	// parent[i] < i for a tree; then swap some items' places in the list,
	// so that a parent is sometimes listed after its child.
	for i := 1; i < n; i++ {
		if r.Intn(8) != 0 {
			items[i].ParentKey = items[r.Intn(i)].Key
		}
	}
	for range n / 20 {
		a, b := r.Intn(n), r.Intn(n)
		items[a], items[b] = items[b], items[a]
	}
	return &Document{Items: items}
}

// TestSpineViews: views built from spine's two passes are the views the
// full index gives, for any target and active item, also when keys share
// their last bytes (suffixKeys).
func TestSpineViews(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	t.Run("generated keys", func(t *testing.T) { testSpineViews(t, r, spineDoc(r, 3*spineMin)) })
	t.Run("keys sharing suffixes", func(t *testing.T) { testSpineViews(t, r, spineDocOf(r, suffixKeys(3*spineMin))) })
}

func testSpineViews(t *testing.T, r *rand.Rand, base *Document) {
	t.Helper()
	for i := range 300 {
		target := base.Items[r.Intn(len(base.Items))].Key
		active := base.Items[r.Intn(len(base.Items))].Key
		if i%3 == 0 {
			active = target
		}
		lazy := &Document{Active: active, Items: base.Items}
		if err := Validate(lazy); err != nil {
			t.Fatal(err)
		}
		full := &Document{Active: active, Items: base.Items}
		Index(full)
		for _, o := range []viewOpts{{}, {noChildren: true}, {withSiblings: true}} {
			got, want := viewOf(lazy, target, o), viewOf(full, target, o)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("view of %s (active %s, %+v): got %s, want %s", target, active, o, viewOutline(got), viewOutline(want))
			}
		}
		if x := newIndex(lazy); x.full != nil {
			t.Fatal("the lazy document got a full index: spine was not used")
		}
	}
}

// BenchmarkSpine: the view of the deepest item of a 100k-item document
// without an index (a lazy read's), with spine's two passes and with a
// scan per key.
func BenchmarkSpine(b *testing.B) {
	items, deepest := benchItems(100000)
	for _, spine := range []bool{true, false} {
		b.Run(fmt.Sprint("spine=", spine), func(b *testing.B) {
			for b.Loop() {
				doc := &Document{Active: deepest, Items: items}
				if spine {
					AssumeValid(doc)
				}
				_ = viewOf(doc, deepest, viewOpts{})
			}
		})
	}
}

// TestSnapDefersSpine: a verb's snapshot of a large document finds the
// active item without a pass over every item's parent (a push reads
// nothing else), shows it, and then resolves
// every path as a snapshot of the same document fully indexed does.
func TestSnapDefersSpine(t *testing.T) {
	r := rand.New(rand.NewSource(9))
	for _, base := range []*Document{spineDoc(r, 2*spineMin), spineDocOf(r, suffixKeys(2*spineMin))} {
		for i := range 60 {
			active := base.Items[r.Intn(len(base.Items))].Key
			if i%10 == 0 {
				active = "absent"
			}
			lazy := &Document{Active: active, Items: base.Items}
			AssumeValid(lazy)
			st := newSnap(lazy)
			if len(st.x.kids) != 0 || st.x.full != nil {
				t.Fatalf("the snapshot's first lookup ran a pass over the items (%d rows cached)", len(st.x.kids))
			}
			full := &Document{Active: active, Items: base.Items}
			Index(full)
			want := newSnap(full)
			if st.activeKey() != want.activeKey() {
				t.Fatalf("active %q, indexed %q", st.activeKey(), want.activeKey())
			}
			// A show: the view of the active item from the snapshot, as
			// the indexed document gives it.
			if got, w := buildView(lazy, st.x, st.active, viewOpts{}), buildView(full, want.x, want.active, viewOpts{}); !reflect.DeepEqual(got, w) {
				t.Fatalf("active %s: view %s, indexed %s", active, viewOutline(got), viewOutline(w))
			}
			paths := []string{".", "..", "-", "+", "1", "2/1", "/1", "/2/1", "/1/1/1", "../1", "../..", "3"}
			for _, p := range paths {
				got, err := st.resolve(p)
				w, werr := want.resolve(p)
				if (err == nil) != (werr == nil) || err == nil && got.Key != w.Key {
					t.Fatalf("active %s, path %q: %v %v, indexed %v %v", active, p, got, err, w, werr)
				}
			}
		}
	}
}

// suffixKeys are keys that share their last eight bytes and length:
// "a-00000007", "b-00000007" and "c-00000007".
func suffixKeys(n int) []string {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = fmt.Sprintf("%c-%08d", 'a'+i%3, i/3)
	}
	return keys
}
