package noggin

import (
	"fmt"
	"strconv"
	"testing"
)

// benchItems is a forest of n items: ten roots, ten children under each
// earlier item in turn; the active item is the last one (deepest spine).
func benchItems(n int) ([]*Item, string) {
	items := make([]*Item, n)
	for i := range items {
		it := &Item{Key: "k" + strconv.Itoa(i), Title: "item " + strconv.Itoa(i), Notes: []Note{}}
		if i >= 10 {
			it.ParentKey = items[(i-10)/10].Key
		}
		items[i] = it
	}
	return items, items[n-1].Key
}

// BenchmarkIndex measures the view a one-shot `show` builds on a document
// seen for the first time (lazy: the spine on a large document; full: the
// full index built first), and the same view asked of one document again
// and again (a long-lived server: the published full index). The spine
// pays for itself where noggin lives (the CLI on a large noggin): a view
// costs a fourth of the full build and no index-sized memory.
func BenchmarkIndex(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		items, active := benchItems(n)
		for _, full := range []bool{false, true} {
			name := "lazy"
			if full {
				name = "full"
			}
			b.Run(fmt.Sprintf("one-shot/%dk/%s", n/1000, name), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					d := &Document{Active: active, Items: items} // unseen: no memo
					x := newIndex(d)
					if full {
						x.buildFull()
					}
					if v := buildView(d, x, x.item(active), viewOpts{}); v == nil {
						b.Fatal("no view")
					}
				}
			})
		}
	}
	items, active := benchItems(10000)
	d := &Document{Active: active, Items: items}
	b.Run("repeated/10k", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			x := newIndex(d)
			if v := buildView(d, x, x.item(active), viewOpts{}); v == nil {
				b.Fatal("no view")
			}
		}
	})
}

// TestIndexOfKey: indexOfKey finds the first item with exactly the key,
// and lastIndexOfKey the last, the empty key too.
func TestIndexOfKey(t *testing.T) {
	items := []*Item{{Key: "ab"}, {Key: "xb"}, {Key: ""}, {Key: "b"}, {Key: "xb"}, {Key: "abc"}}
	for key, want := range map[string]int{"ab": 0, "xb": 1, "": 2, "b": 3, "abc": 5, "zb": -1, "bc": -1, "abcd": -1} {
		if got := indexOfKey(items, key); got != want {
			t.Errorf("indexOfKey(%q) = %d, want %d", key, got, want)
		}
	}
	for key, want := range map[string]int{"ab": 0, "xb": 4, "": 2, "b": 3, "abc": 5, "zb": -1, "bc": -1, "abcd": -1} {
		if got := lastIndexOfKey(items, key); got != want {
			t.Errorf("lastIndexOfKey(%q) = %d, want %d", key, got, want)
		}
	}
}
