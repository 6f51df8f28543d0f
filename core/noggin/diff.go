package noggin

// placed is an item with its slot (parent and 0-based sibling position).
type placed struct {
	item *Item
	slot Slot
}

// Diff returns the changes from prev to next (spec/changes.md): removed
// items in prev order, then added/moved/updated in next order, then
// activeChanged.
//
// Documents produced by Apply share unchanged items with their input, so
// two fast paths avoid hashing every key: documents with the same shape
// (same keys and parents in the same order) can only differ by updates,
// and a common prefix of shared items can never change.
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
	if a.Title != b.Title {
		fields = append(fields, "title")
	}
	if a.Done != b.Done {
		fields = append(fields, "done")
	}
	if !notesEqual(a.Notes, b.Notes) {
		fields = append(fields, "notes")
	}
	if fields != nil {
		out = append(out, Change{Kind: ChangeUpdated, Key: b.Key, Fields: fields})
	}
	return out
}

// tailDiff is the general diff. Items shared at the same index at the
// start of both lists keep their slot and content, so only the tails
// after that common prefix are compared.
func tailDiff(prev, next []*Item) []Change {
	p := 0
	for p < len(prev) && p < len(next) && prev[p] == next[p] {
		p++
	}
	// Sibling counts contributed by the prefix, for the parents of tail items.
	base := map[string]int{}
	for _, it := range prev[p:] {
		base[it.ParentKey] = 0
	}
	for _, it := range next[p:] {
		base[it.ParentKey] = 0
	}
	if len(base) <= 4 { // few rows changed (an append): compare, don't hash
		parents := make([]string, 0, len(base))
		for k := range base {
			parents = append(parents, k)
		}
		for _, it := range prev[:p] {
			for _, k := range parents {
				if it.ParentKey == k {
					base[k]++
					break
				}
			}
		}
	} else {
		for _, it := range prev[:p] {
			if n, ok := base[it.ParentKey]; ok {
				base[it.ParentKey] = n + 1
			}
		}
	}
	ps, ns := slots(prev[p:], base), slots(next[p:], base)
	var out []Change
	for _, it := range prev[p:] {
		if _, ok := ns[it.Key]; !ok {
			out = append(out, Change{Kind: ChangeRemoved, Key: it.Key})
		}
	}
	for _, it := range next[p:] {
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

// slots maps every key of items (first occurrence) to its item and slot;
// sibling positions start at base[parent].
func slots(items []*Item, base map[string]int) map[string]placed {
	counts := make(map[string]int, len(base))
	for k, v := range base {
		counts[k] = v
	}
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

func notesEqual(a, b []Note) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
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
		if x.Key != y.Key || x.ParentKey != y.ParentKey || x.Title != y.Title || x.Done != y.Done ||
			(x.CreatedAt == nil) != (y.CreatedAt == nil) ||
			(x.CreatedAt != nil && *x.CreatedAt != *y.CreatedAt) || !notesEqual(x.Notes, y.Notes) {
			return false
		}
	}
	return true
}
