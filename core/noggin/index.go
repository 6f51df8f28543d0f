package noggin

import (
	"slices"
	"sync/atomic"
)

// index answers structural questions about a document that is not
// mutated while the index is in use (see Document), in one of three ways:
// on a large document, the lookups of one view are served by a spine (two
// passes over the items, see spine); any other lookup builds the full
// index, which is published in the document's memo, so later indexes of
// that document are the published one: read-only, shared by concurrent
// readers, O(1) per lookup (most of its cost is the key map, which a
// document just read already has: CheckKeys); and the document a write
// derives from an indexed one gets a derived index (see derived).
type index struct {
	// doc is the indexed document (nil for a nil document); items is
	// doc.Items when the index was made.
	doc   *Document
	items []*Item
	// byKey and kids hold what the spine found.
	byKey map[string]*Item
	kids  map[string][]*Item
	// pending is the key of a spine left for the first lookup that needs
	// more than the items already found (see itemFirst); foundKey and
	// foundAt are the key itemFirst looked for and where it found it
	// (-1: nowhere), which that spine does not look for again.
	pending  string
	foundKey string
	foundAt  int
	// full is set once every item is indexed; a full index is never
	// modified again.
	full *fullIndex
	// d is set instead of full on the index of a document Apply derived
	// from an indexed one (see derived); it is never modified either.
	d *derived
}

// derived indexes a document that Apply made from an indexed one with ops
// that left every item where it was — they only appended items at the end
// of the list and replaced items in place (set, note, unnote; push, add,
// note, edit, done, goto) — as the base's full index plus the difference,
// so that a write on a large noggin does not index it all again. Lookups
// go through flat indexes into the document's own items, so an item
// replaced in place is found as the new item. After maxDerived
// differences the next document gets a full index again.
type derived struct {
	// base is a full index of an ancestor document.
	base *index
	// added maps the key of each item appended since base to its index
	// in the list; kids lists them per parent key ("" = roots) in order.
	added map[string]int32
	kids  map[string][]int32
	// replaced lists, per parent key, the list indexes of the base items
	// replaced in place since base (each once); nreplaced counts them.
	replaced  map[string][]int32
	nreplaced int
}

// maxDerived bounds the differences a derived index carries (appended
// items plus replaced ones); a full build costs about as much
// as 20k map copies, so at 100k items this keeps the amortised cost of
// re-indexing near a tenth of a millisecond per write.
const maxDerived = 256

// derive returns the index of out, which Apply made from the document of
// bx (a published index) by appending the items at appended and replacing
// those at replaced in place.
func derive(bx *index, out *Document, appended, replaced []int) *index {
	base, prev := bx, (*derived)(nil)
	if bx.d != nil {
		base, prev = bx.d.base, bx.d
	}
	d := &derived{base: base, added: map[string]int32{}, kids: map[string][]int32{}, replaced: map[string][]int32{}}
	if prev != nil {
		for k, v := range prev.added {
			d.added[k] = v
		}
		for k, v := range prev.kids {
			d.kids[k] = v
		}
		for k, v := range prev.replaced {
			d.replaced[k] = v
		}
		d.nreplaced = prev.nreplaced
	}
	for _, i := range appended {
		it := out.Items[i]
		d.added[it.Key] = int32(i)
		d.kids[it.ParentKey] = append(slices.Clip(d.kids[it.ParentKey]), int32(i))
	}
	for _, i := range replaced {
		it := out.Items[i]
		if _, appended := d.added[it.Key]; !appended && !slices.Contains(d.replaced[it.ParentKey], int32(i)) {
			d.replaced[it.ParentKey] = append(slices.Clip(d.replaced[it.ParentKey]), int32(i))
			d.nreplaced++
		}
	}
	x := &index{doc: out, items: out.Items}
	if len(d.added)+d.nreplaced > maxDerived {
		x.buildFull()
		return x
	}
	x.d = d
	out.memo.idx.Store(x)
	return x
}

// Index builds and publishes doc's lookup index now, for a long-lived
// store that will read and write doc often: verbs then find items and
// paths in O(1), and the documents Apply makes from doc by appending and
// in-place ops are indexed by difference instead of anew. doc must not
// change afterwards (see Document).
func Index(doc *Document) {
	if doc != nil && doc.cached() == nil {
		x := &index{doc: doc, items: doc.Items}
		x.buildFull()
	}
}

// IndexOf returns the index in doc.Items of the first item with key, or
// -1: O(1) on an indexed document (see Index), a scan otherwise.
func IndexOf(doc *Document, key string) int {
	if x := doc.cached(); x != nil {
		i := x.flat(key)
		if i < 0 || i < len(doc.Items) && doc.Items[i].Key == key {
			return i
		}
	}
	return indexOfKey(doc.Items, key)
}

// indexOfKey returns the index of the first item with key, or -1.
func indexOfKey(items []*Item, key string) int {
	return slices.IndexFunc(items, func(it *Item) bool { return it.Key == key })
}

// flat returns the list index of the first item with key, or -1; only
// for full and derived indexes.
func (x *index) flat(key string) int {
	if x.d != nil {
		if i, ok := x.d.added[key]; ok {
			return int(i)
		}
		x = x.d.base
	}
	if x.full != nil {
		if i, ok := x.full.at[key]; ok {
			return int(i)
		}
	}
	return -1
}

// derivedChildren is children for a derived index.
func (x *index) derivedChildren(parent string) []*Item {
	d := x.d
	row := d.base.children(parent)
	kids, replaced := d.kids[parent], d.replaced[parent]
	if len(replaced) == 0 && len(kids) == 0 {
		return row
	}
	out := make([]*Item, len(row), len(row)+len(kids))
	copy(out, row)
	for _, i := range replaced { // in place: at its base position
		out[d.base.full.rank[i]-1] = x.items[i]
	}
	for _, i := range kids {
		out = append(out, x.items[i])
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// fullIndex is the complete lookup structure of a list of items, built in
// a few passes with a handful of allocations.
type fullIndex struct {
	// at maps a key to the index (in items) of its first item.
	at map[string]int32
	// The children of items[i] (of every item whose ParentKey is its key)
	// are rows[start[i]:start[i+1]], in sibling order.
	rows  []*Item
	start []int32
	// rank[i] is the 1-based position of items[i] among its siblings.
	rank []int32
	// roots are the items without a parent; orphans the children of keys
	// that no item has.
	roots   []*Item
	orphans map[string][]*Item
}

// memo is the per-document cache of a published full index.
type memo struct {
	// idx holds a *index: a full, read-only index of the document.
	idx atomic.Value
	// valid holds the *Document that Apply validated (see Apply); a copy
	// of the Document value is not its document, so it does not inherit it.
	valid atomic.Value
	// keys holds the *keyMemo CheckKeys built.
	keys atomic.Value
	// rev holds the func() string that names the document's revision,
	// set by the store that read or wrote it (see SetRevision).
	rev atomic.Value
}

// knownValid reports whether Apply validated doc itself.
func (doc *Document) knownValid() bool {
	doc = doc.memoDoc()
	d, _ := doc.memo.valid.Load().(*Document)
	return d == doc
}

// cached returns the published index of doc, or nil. The index must have
// been built for doc itself (not for a Document value it was copied
// from) and for its current Items slice.
func (doc *Document) cached() *index {
	doc = doc.memoDoc()
	x, _ := doc.memo.idx.Load().(*index)
	if x == nil || x.doc != doc || !sameItems(x.items, doc.Items) {
		return nil
	}
	return x
}

// memoDoc is the document whose memo doc uses: the one it was seen from
// through a cursor while their items are the same, else doc itself.
func (doc *Document) memoDoc() *Document {
	if doc != nil && doc.base != nil && sameItems(doc.base.Items, doc.Items) {
		return doc.base
	}
	return doc
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
	x := &index{doc: doc.memoDoc(), byKey: map[string]*Item{}, kids: map[string][]*Item{}}
	if doc != nil {
		x.items = doc.Items
	}
	return x
}

// indexAll serves a lookup the spine does not: it adopts the document's
// published index, or builds the full index.
func (x *index) indexAll() {
	if x.full != nil || x.d != nil {
		return
	}
	if x.doc != nil {
		if c := x.doc.cached(); c != nil && sameItems(c.items, x.items) {
			x.full, x.byKey, x.kids = c.full, nil, nil
			return
		}
	}
	x.buildFull()
}

// spineMin is the number of items from which a view's lookups are made by
// spine rather than by a scan per key.
const spineMin = 1024

// spine caches what a view around the item with key reads — the item, its
// ancestors, the children of each of them, and the roots — in about two
// passes over the items instead of a scan for each level (a lazy read's
// document has no index: BenchmarkSpine). Parents are usually listed
// before their children, so each ancestor is looked for backwards from
// its child first. Only for a document known to have unique keys (read
// and checked, assumed valid, or made by Apply), where the item found is
// the first with its key.
func (x *index) spine(key string) {
	if !x.spineServes(key) {
		return
	}
	if _, ok := x.kids[key]; ok {
		return
	}
	items := x.items
	at := x.foundAt // found already: a show looks for no other key
	if key != x.foundKey {
		at = indexOfKey(items, key)
	}
	if at < 0 {
		return // not there
	}
	chain := []int{at}
	for p := items[at].ParentKey; p != "" && len(chain) <= len(items); p = items[at].ParentKey {
		j := lastIndexOfKey(items[:at], p)
		if j < 0 {
			if j = indexOfKey(items[at+1:], p); j >= 0 {
				j += at + 1
			}
		}
		if j < 0 || slices.Contains(chain, j) {
			break // an orphan, or a cycle
		}
		chain = append(chain, j)
		at = j
	}
	keys := make([]string, len(chain))
	for i, c := range chain {
		keys[i] = items[c].Key
	}
	rows := make([][]*Item, len(keys))
	var roots []*Item
	for _, it := range items {
		p := it.ParentKey
		if p == "" {
			roots = append(roots, it)
			continue
		}
		if k := slices.Index(keys, p); k >= 0 {
			rows[k] = append(rows[k], it)
		}
	}
	for k, key := range keys {
		x.byKey[key] = items[chain[k]]
		x.kids[key] = rows[k]
	}
	if _, ok := x.kids[""]; !ok {
		x.kids[""] = roots
	}
}

// spineServes reports whether spine caches the views around key in x.
func (x *index) spineServes(key string) bool {
	return x.full == nil && x.d == nil && key != "" && len(x.items) >= spineMin &&
		x.doc != nil && (x.doc.knownValid() || x.doc.keysMemo() != nil)
}

// itemFirst is item for the first lookup of an index, the active item of
// a verb's snapshot: where spine would serve it, it finds the item alone
// and leaves the spine around it to the first lookup that needs more. A
// push, add or note reads the active item only, and a spine's pass over
// every item's parent is costly on a large noggin.
func (x *index) itemFirst(key string) *Item {
	if !x.spineServes(key) {
		x.spine(key)
		return x.item(key)
	}
	if it, ok := x.byKey[key]; ok {
		return it
	}
	var it *Item
	i := indexOfKey(x.items, key)
	if i >= 0 {
		it = x.items[i]
	}
	x.byKey[key], x.pending, x.foundKey, x.foundAt = it, key, key, i
	return it
}

// spinePending runs the spine itemFirst left, if any: true if it ran.
func (x *index) spinePending() bool {
	if x.pending == "" {
		return false
	}
	key := x.pending
	x.pending = ""
	x.spine(key)
	return true
}

// lastIndexOfKey is indexOfKey searching from the end (-1 if absent).
func lastIndexOfKey(items []*Item, key string) int {
	for i := len(items) - 1; i >= 0; i-- {
		if items[i].Key == key {
			return i
		}
	}
	return -1
}

// buildFull indexes every item and publishes the index in its document.
func (x *index) buildFull() {
	if x.full != nil || x.d != nil { // published, read-only: lookups are fast already
		return
	}
	items := x.items
	n := len(items)
	f := &fullIndex{}
	if x.doc != nil && sameItems(x.doc.Items, items) {
		// The key index CheckKeys built for a document just read (its keys
		// are unique): the same map, read-only from here on.
		f.at = x.doc.keysMemo()
	}
	if f.at == nil {
		f.at = make(map[string]int32, n)
		// Backwards, so that the first item of a duplicated key wins.
		for i := n - 1; i >= 0; i-- {
			f.at[items[i].Key] = int32(i)
		}
	}
	// parent[i] is the index of items[i]'s parent, -1 for a root or an
	// orphan; count[p+1] counts the children of items[p].
	parent := make([]int32, n)
	count := make([]int32, n+1)
	nroots := 0
	// Siblings are usually listed together: the last parent found is
	// asked first.
	lastKey, last, lastOK := "", int32(0), false
	for i, it := range items {
		parent[i] = -1
		if it.ParentKey == "" {
			nroots++
			continue
		}
		if it.ParentKey != lastKey {
			lastKey = it.ParentKey
			last, lastOK = f.at[lastKey]
		}
		if lastOK {
			parent[i] = last
			count[last+1]++
		}
	}
	// Prefix sums: count becomes start; next[p] is the next free slot of
	// row p while filling.
	for i := 1; i <= n; i++ {
		count[i] += count[i-1]
	}
	f.start = count
	next := make([]int32, n)
	copy(next, count[:n])
	f.rows = make([]*Item, count[n])
	f.rank = make([]int32, n)
	if nroots > 0 {
		f.roots = make([]*Item, 0, nroots)
	}
	for i, it := range items {
		switch p := parent[i]; {
		case p >= 0:
			f.rows[next[p]] = it
			next[p]++
			f.rank[i] = next[p] - f.start[p]
		case it.ParentKey == "":
			f.roots = append(f.roots, it)
			f.rank[i] = int32(len(f.roots))
		default:
			if f.orphans == nil {
				f.orphans = map[string][]*Item{}
			}
			f.orphans[it.ParentKey] = append(f.orphans[it.ParentKey], it)
			f.rank[i] = int32(len(f.orphans[it.ParentKey]))
		}
	}
	x.full, x.byKey, x.kids = f, nil, nil
	if x.doc != nil {
		x.doc.memo.idx.Store(x)
	}
}

// item returns the first item with key, or nil.
func (x *index) item(key string) *Item {
	if key == "" {
		return nil
	}
	if x.d != nil {
		if i := x.flat(key); i >= 0 && i < len(x.items) {
			return x.items[i]
		}
		return nil
	}
	if x.full == nil {
		if it, ok := x.byKey[key]; ok {
			return it
		}
		if x.spinePending() {
			if it, ok := x.byKey[key]; ok {
				return it
			}
		}
		x.indexAll()
	}
	if i, ok := x.full.at[key]; ok {
		return x.items[i]
	}
	return nil
}

// children returns the children of parent ("" = the roots) in sibling order.
func (x *index) children(parent string) []*Item {
	if x.d != nil {
		return x.derivedChildren(parent)
	}
	if x.full == nil {
		if c, ok := x.kids[parent]; ok {
			return c
		}
		if x.spinePending() {
			if c, ok := x.kids[parent]; ok {
				return c
			}
		}
		x.indexAll()
	}
	f := x.full
	if parent == "" {
		return f.roots
	}
	if i, ok := f.at[parent]; ok {
		if row := f.rows[f.start[i]:f.start[i+1]]; len(row) > 0 {
			return row
		}
		return nil
	}
	return f.orphans[parent]
}

// position is the 1-based position of it among its siblings (0 if absent).
func (x *index) position(it *Item) int {
	if d := x.d; d != nil {
		if i, ok := d.added[it.Key]; ok && x.items[i] == it {
			n := len(d.base.children(it.ParentKey))
			for j, k := range d.kids[it.ParentKey] {
				if k == i {
					return n + j + 1
				}
			}
		}
		if i, ok := d.base.full.at[it.Key]; ok && x.items[i] == it {
			return int(d.base.full.rank[i])
		}
	}
	if f := x.full; f != nil {
		if i, ok := f.at[it.Key]; ok && x.items[i] == it {
			return int(f.rank[i])
		}
	}
	for i, s := range x.children(it.ParentKey) {
		if s == it {
			return i + 1
		}
	}
	return 0
}
