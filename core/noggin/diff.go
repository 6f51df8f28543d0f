package noggin

// placed is an item with its slot (parent and 0-based sibling position).
type placed struct {
	item *Item
	slot Slot
}

// slots maps every key (first occurrence) to its item and slot.
func slots(doc *Document) map[string]placed {
	if doc == nil {
		return map[string]placed{}
	}
	counts := map[string]int{}
	m := make(map[string]placed, len(doc.Items))
	for _, it := range doc.Items {
		n := counts[it.ParentKey]
		counts[it.ParentKey] = n + 1
		if _, dup := m[it.Key]; !dup {
			m[it.Key] = placed{it, Slot{ParentKey: it.ParentKey, Position: n}}
		}
	}
	return m
}

// Diff returns the changes from prev to next (spec/changes.md): removed
// items in prev order, then added/moved/updated in next order, then
// activeChanged.
func Diff(prev, next *Document) []Change {
	if prev == nil {
		prev = NewDocument()
	}
	if next == nil {
		next = NewDocument()
	}
	ps, ns := slots(prev), slots(next)
	var out []Change
	for _, it := range prev.Items {
		if _, ok := ns[it.Key]; !ok {
			out = append(out, Change{Kind: ChangeRemoved, Key: it.Key})
		}
	}
	for _, it := range next.Items {
		n := ns[it.Key]
		if n.item != it {
			continue // a duplicate key: reported once
		}
		p, ok := ps[it.Key]
		if !ok {
			out = append(out, Change{Kind: ChangeAdded, Key: it.Key, At: n.slot})
			continue
		}
		if p.slot != n.slot {
			out = append(out, Change{Kind: ChangeMoved, Key: it.Key, From: p.slot, To: n.slot})
		}
		var fields []string
		if p.item.Title != it.Title {
			fields = append(fields, "title")
		}
		if p.item.Done != it.Done {
			fields = append(fields, "done")
		}
		if !notesEqual(p.item.Notes, it.Notes) {
			fields = append(fields, "notes")
		}
		if fields != nil {
			out = append(out, Change{Kind: ChangeUpdated, Key: it.Key, Fields: fields})
		}
	}
	if prev.Active != next.Active {
		out = append(out, Change{Kind: ChangeActiveChanged, FromKey: prev.Active, ToKey: next.Active})
	}
	return out
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
