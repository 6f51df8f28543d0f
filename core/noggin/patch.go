package noggin

import "slices"

// Patch rebuilds the document a watcher was not sent: prev with changes
// (Diff(prev, next)) applied, given the items they add, move or update as
// they are in next (by key), and next's cursors. The result has next's
// items in next's sibling order, its active item and its cursors; the
// flat order of items under different parents may differ from next's.
// A change naming an item it was not given is invalid-op.
func Patch(prev *Document, changes []Change, items map[string]*Item, cursors []Cursor) (*Document, error) {
	if prev == nil {
		prev = NewDocument()
	}
	detach := map[string]bool{}
	placed := 0
	active := prev.Active
	for _, c := range changes {
		switch c.Kind {
		case ChangeRemoved:
			detach[c.Key] = true
		case ChangeMoved:
			detach[c.Key] = true
			placed++
		case ChangeAdded:
			placed++
		case ChangeActiveChanged:
			active = c.ToKey
		case ChangeUpdated: // its item takes the place it has
		}
		if c.Kind != ChangeRemoved && c.Kind != ChangeActiveChanged && items[c.Key] == nil {
			return nil, invalidOp("a change without its item", F("key", c.Key))
		}
	}
	list := make([]*Item, 0, len(prev.Items)+placed)
	for _, it := range prev.Items {
		if detach[it.Key] {
			continue
		}
		if u := items[it.Key]; u != nil {
			it = u
		}
		list = append(list, it)
	}
	// Added and moved items in next's order: each one's earlier siblings
	// are in place when it is inserted (docs/rpc.md).
	for _, c := range changes {
		var at Slot
		switch c.Kind {
		case ChangeAdded:
			at = c.At
		case ChangeMoved:
			at = c.To
		default:
			continue
		}
		it := items[c.Key]
		if it.ParentKey != at.ParentKey {
			cp := it.clone()
			cp.ParentKey = at.ParentKey
			it = cp
		}
		list = slices.Insert(list, childIndex(list, at), it)
	}
	doc := &Document{Active: active, Items: list, Order: prev.Order}
	for _, f := range prev.Extra {
		if f.Name != CursorsField {
			doc.Extra = append(doc.Extra, f)
		}
	}
	if len(cursors) > 0 {
		m := make(Map, 0, len(cursors))
		for _, c := range cursors {
			var v any
			if c.Key != "" {
				v = c.Key
			}
			m = append(m, Field{Name: c.Agent, Value: v})
		}
		doc.Extra = append(doc.Extra, Field{Name: CursorsField, Value: m})
	}
	return doc, nil
}

// childIndex is the index in list to insert a child at slot: before the
// slot's current holder, else after the parent's last child, else at the end.
func childIndex(list []*Item, at Slot) int {
	n, last := 0, -1
	for i, it := range list {
		if it.ParentKey != at.ParentKey {
			continue
		}
		if n == at.Position {
			return i
		}
		n, last = n+1, i
	}
	if last >= 0 {
		return last + 1
	}
	return len(list)
}

// Touched lists the items of next that changes (Diff(prev, next)) add,
// move or update, in next's order: what Patch needs besides prev.
func Touched(next *Document, changes []Change) []*Item {
	keys := map[string]bool{}
	for _, c := range changes {
		if c.Kind == ChangeAdded || c.Kind == ChangeMoved || c.Kind == ChangeUpdated {
			keys[c.Key] = true
		}
	}
	var out []*Item
	for _, it := range next.Items {
		if keys[it.Key] {
			out = append(out, it.clone())
			delete(keys, it.Key) // a repeated key: its first item, as Diff reports it
		}
	}
	return out
}

// WatchEvent is the event a store publishes for a change from prev to
// next; ok is false when watchers have nothing to learn (no item, the
// active item nor a cursor changed).
func WatchEvent(prev, next *Document) (ev Event, ok bool) {
	ch := Diff(prev, next)
	if len(ch) == 0 && slices.Equal(prev.Cursors(), next.Cursors()) {
		return Event{}, false
	}
	return Event{Changes: ch, Doc: next}, true
}
