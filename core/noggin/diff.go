package noggin

import "slices"

// placed is an item with its slot (parent and 0-based sibling position).
type placed struct {
	item *Item
	slot Slot
}

// Diff returns the changes from prev to next (docs/rpc.md): removed
// items in prev order, then added/moved/updated in next order, then
// activeChanged.
//
// Documents produced by Apply share unchanged items with their input, so
// two fast paths avoid hashing every key: documents with the same shape
// (same keys and parents in the same order) can only differ by updates,
// and a common prefix of shared items can never change. The result is
// the plain algorithm's for documents with unique keys; for documents that
// repeat a key (which can be loaded but never written) it is well defined
// but unspecified.
func Diff(prev, next *Document) []Change {
	if prev == nil {
		prev = NewDocument()
	}
	if next == nil {
		next = NewDocument()
	}
	out, ok := sameShapeDiff(prev.Items, next.Items)
	if !ok {
		out = tailDiff(prev.Items, next.Items)
	}
	if prev.Active != next.Active {
		out = append(out, Change{Kind: ChangeActiveChanged, FromKey: prev.Active, ToKey: next.Active})
	}
	return out
}

// sameShapeDiff reports the updates between item lists with the same
// keys and parents in the same order; ok is false for any other pair.
func sameShapeDiff(prev, next []*Item) (out []Change, ok bool) {
	if len(prev) != len(next) {
		return nil, false
	}
	for i, a := range prev {
		if b := next[i]; a != b && (a.Key != b.Key || a.ParentKey != b.ParentKey) {
			return nil, false
		}
	}
	for i, a := range prev {
		if b := next[i]; a != b {
			out = appendUpdated(out, a, b)
		}
	}
	return out, true
}

// appendUpdated appends an updated change when a and b (the same key)
// differ in title, done or notes.
func appendUpdated(out []Change, a, b *Item) []Change {
	var fields []string
	if a.title() != b.title() {
		fields = append(fields, "title")
	}
	if a.done() != b.done() {
		fields = append(fields, "done")
	}
	if !slices.Equal(a.notes(), b.notes()) {
		fields = append(fields, "notes")
	}
	if fields != nil {
		out = append(out, Change{Kind: ChangeUpdated, Key: b.Key, Fields: fields})
	}
	return out
}

// tailDiff is the general diff. Items shared (same pointer) by both
// documents are unchanged, so after skipping the shared prefix and suffix
// it matches the remaining items by pointer, pairs the unshared ones by
// key, and recomputes sibling positions only in the rows that contain an
// unshared item (the only rows that can differ). Inputs it cannot reason
// about (a shared item reordered in place, an item listed twice) go to
// plainDiff.
func tailDiff(prev, next []*Item) []Change {
	p := 0
	for p < len(prev) && p < len(next) && prev[p] == next[p] {
		p++
	}
	s := 0
	for s < len(prev)-p && s < len(next)-p && prev[len(prev)-1-s] == next[len(next)-1-s] {
		s++
	}
	pw, nw := prev[p:len(prev)-s], next[p:len(next)-s]
	at := make(map[*Item]int, len(nw))
	for j, it := range nw {
		at[it] = j
	}
	if len(at) != len(nw) {
		return plainDiff(prev, next)
	}
	shared := make([]bool, len(nw))
	last := -1
	var unP, unN []*Item
	for _, it := range pw {
		j, ok := at[it]
		if !ok {
			unP = append(unP, it)
			continue
		}
		if j < last {
			return plainDiff(prev, next)
		}
		last, shared[j] = j, true
	}
	for j, it := range nw {
		if !shared[j] {
			unN = append(unN, it)
		}
	}
	if len(unP)+len(unN) > maxUnshared {
		return plainDiff(prev, next)
	}
	// Rows that can differ, and the positions of their items in each document.
	var rows []string
	for _, list := range [][]*Item{unP, unN} {
		for _, it := range list {
			if !slices.Contains(rows, it.ParentKey) {
				rows = append(rows, it.ParentKey)
			}
		}
	}
	pPos, nPos := rowPositions(prev, rows), rowPositions(next, rows)
	byKey := make(map[string]*Item, len(unP))
	for _, it := range unP {
		if _, dup := byKey[it.Key]; !dup {
			byKey[it.Key] = it
		}
	}
	var out []Change
	for _, it := range unP {
		if !slices.ContainsFunc(unN, func(n *Item) bool { return n.Key == it.Key }) {
			out = append(out, Change{Kind: ChangeRemoved, Key: it.Key})
		}
	}
	for j, it := range next[p:] {
		to, inRow := nPos[it]
		if j < len(nw) && !shared[j] {
			old := byKey[it.Key]
			if old == nil {
				out = append(out, Change{Kind: ChangeAdded, Key: it.Key, At: Slot{it.ParentKey, to}})
				continue
			}
			if from := pPos[old]; old.ParentKey != it.ParentKey || from != to {
				out = append(out, Change{Kind: ChangeMoved, Key: it.Key, From: Slot{old.ParentKey, from}, To: Slot{it.ParentKey, to}})
			}
			out = appendUpdated(out, old, it)
			continue
		}
		if from := pPos[it]; inRow && from != to {
			out = append(out, Change{Kind: ChangeMoved, Key: it.Key, From: Slot{it.ParentKey, from}, To: Slot{it.ParentKey, to}})
		}
	}
	return out
}

// maxUnshared bounds the unshared items tailDiff pairs by hand (its row
// scan is linear in their number); beyond it plainDiff is cheaper.
const maxUnshared = 16

// rowPositions returns the 0-based sibling position of every item whose
// parent is one of rows.
func rowPositions(items []*Item, rows []string) map[*Item]int {
	counts := make([]int, len(rows))
	pos := map[*Item]int{}
	for _, it := range items {
		for r, parent := range rows {
			if it.ParentKey == parent {
				pos[it] = counts[r]
				counts[r]++
				break
			}
		}
	}
	return pos
}

// plainDiff is the algorithm of docs/rpc.md over whole item lists.
func plainDiff(prev, next []*Item) []Change {
	ps, ns := slots(prev), slots(next)
	var out []Change
	for _, it := range prev {
		if _, ok := ns[it.Key]; !ok {
			out = append(out, Change{Kind: ChangeRemoved, Key: it.Key})
		}
	}
	for _, it := range next {
		n := ns[it.Key]
		if n.item != it {
			continue // a duplicate key: reported once
		}
		pr, ok := ps[it.Key]
		if !ok {
			out = append(out, Change{Kind: ChangeAdded, Key: it.Key, At: n.slot})
			continue
		}
		if pr.slot != n.slot {
			out = append(out, Change{Kind: ChangeMoved, Key: it.Key, From: pr.slot, To: n.slot})
		}
		out = appendUpdated(out, pr.item, it)
	}
	return out
}

// slots maps every key of items (first occurrence) to its item and slot.
func slots(items []*Item) map[string]placed {
	counts := map[string]int{}
	m := make(map[string]placed, len(items))
	for _, it := range items {
		n := counts[it.ParentKey]
		counts[it.ParentKey] = n + 1
		if _, dup := m[it.Key]; !dup {
			m[it.Key] = placed{it, Slot{ParentKey: it.ParentKey, Position: n}}
		}
	}
	return m
}

// Equal reports structural equality (active, then every item in array
// order: key, parentKey, title, done, createdAt, notes).
func Equal(a, b *Document) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Active != b.Active || len(a.Items) != len(b.Items) {
		return false
	}
	for i, x := range a.Items {
		y := b.Items[i]
		if x == y {
			continue
		}
		if x.Key != y.Key || x.ParentKey != y.ParentKey || x.title() != y.title() || x.done() != y.done() ||
			(x.createdAt() == nil) != (y.createdAt() == nil) ||
			(x.createdAt() != nil && *x.createdAt() != *y.createdAt()) || !slices.Equal(x.notes(), y.notes()) {
			return false
		}
	}
	return true
}
