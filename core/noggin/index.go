package noggin

import (
	"sync/atomic"
)

// index answers structural questions about a document that is not
// mutated while the index is in use (see Document). Lookups start as
// linear scans whose results are cached: one scan for key K finds the item
// K, the children of K and (once) the roots, so walking up a spine costs
// one scan per level. After scanLimit scans the index builds full maps, so
// a view of a large subtree stays O(n) too.
//
// Scans are also counted per document: once a document has been scanned
// more than docScanLimit times (by any number of indexes, as when a
// long-lived server shows the same document again and again), the next
// scan builds the full maps instead and publishes the index in the
// document's memo. Later indexes of that document are the published one:
// read-only, shared by concurrent readers, O(1) per lookup. A one-shot
// command scans each document a few times only and never pays for the
// full maps.
type index struct {
	// doc is the indexed document (nil for a nil document); items is
	// doc.Items when the index was made.
	doc   *Document
	items []*Item
	byKey map[string]*Item
	kids  map[string][]*Item
	// full is set once byKey and kids hold every item; a full index is
	// never modified again.
	full  bool
	scans int
}

// scanLimit is the number of linear scans an index performs before it
// builds full maps.
const scanLimit = 8

// docScanLimit is the number of linear scans a document sees before its
// next index builds (and publishes) the full maps. A full build costs
// about as much as this many scans.
const docScanLimit = 16

// memo is the per-document cache of a published full index.
type memo struct {
	// idx holds a *index: a full, read-only index of the document.
	idx atomic.Value
	// scans counts the linear scans run on the document (atomic).
	scans int32
}

// cached returns the published index of doc, or nil. The index must have
// been built for doc itself (not for a Document value it was copied
// from) and for its current Items slice.
func (doc *Document) cached() *index {
	x, _ := doc.memo.idx.Load().(*index)
	if x == nil || x.doc != doc || !sameItems(x.items, doc.Items) {
		return nil
	}
	return x
}

// sameItems reports whether a and b are the same slice (same length and
// backing array).
func sameItems(a, b []*Item) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// newIndex returns the published index of doc or a fresh lazy one.
func newIndex(doc *Document) *index {
	if doc != nil {
		if x := doc.cached(); x != nil {
			return x
		}
	}
	x := &index{doc: doc, byKey: map[string]*Item{}, kids: map[string][]*Item{}}
	if doc != nil {
		x.items = doc.Items
	}
	return x
}

// scan caches the item with key, its children and the roots, in one pass
// over the items (or adopts the document's published index, or builds
// the full maps once scans are exhausted).
func (x *index) scan(key string) {
	if x.full {
		return
	}
	if x.doc != nil {
		if c := x.doc.cached(); c != nil && sameItems(c.items, x.items) {
			x.byKey, x.kids, x.full = c.byKey, c.kids, true
			return
		}
	}
	if x.scans >= scanLimit || (x.doc != nil && atomic.AddInt32(&x.doc.memo.scans, 1) > docScanLimit) {
		x.buildFull()
		return
	}
	x.scans++
	_, haveRoots := x.kids[""]
	var found *Item
	var kids, roots []*Item
	for _, it := range x.items {
		switch {
		case it.ParentKey == key:
			kids = append(kids, it)
		case !haveRoots && it.ParentKey == "":
			roots = append(roots, it)
		}
		if found == nil && it.Key == key {
			found = it
		}
	}
	if key != "" {
		if _, ok := x.byKey[key]; !ok {
			x.byKey[key] = found
		}
	}
	x.kids[key] = kids
	if !haveRoots && key != "" {
		x.kids[""] = roots
	}
}

// buildFull indexes every item and publishes the index in its document.
func (x *index) buildFull() {
	if x.full {
		return
	}
	byKey := make(map[string]*Item, len(x.items))
	kids := make(map[string][]*Item, len(x.items)/2+1)
	for _, it := range x.items {
		if _, dup := byKey[it.Key]; !dup {
			byKey[it.Key] = it
		}
		kids[it.ParentKey] = append(kids[it.ParentKey], it)
	}
	x.byKey, x.kids, x.full = byKey, kids, true
	if x.doc != nil {
		x.doc.memo.idx.Store(x)
	}
}

// item returns the first item with key, or nil.
func (x *index) item(key string) *Item {
	if key == "" {
		return nil
	}
	if it, ok := x.byKey[key]; ok || x.full {
		return it
	}
	x.scan(key)
	return x.byKey[key]
}

// children returns the children of parent ("" = the roots) in sibling order.
func (x *index) children(parent string) []*Item {
	if c, ok := x.kids[parent]; ok || x.full {
		return c
	}
	x.scan(parent)
	return x.kids[parent]
}

// position is the 1-based position of it among its siblings (0 if absent).
func (x *index) position(it *Item) int {
	for i, s := range x.children(it.ParentKey) {
		if s == it {
			return i + 1
		}
	}
	return 0
}
