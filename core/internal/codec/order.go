package codec

import "github.com/noggin-go/noggin/core/noggin"

func getField(fs []noggin.Field, name string) (any, bool) {
	for i := range fs {
		if fs[i].Name == name {
			return fs[i].Value, true
		}
	}
	return nil, false
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// docOrder is the top-level key order to write: the loaded order (names
// that no longer exist dropped), then missing core fields, then Extra
// fields not named in the order.
func docOrder(doc *noggin.Document) []string {
	if doc.Order == nil && len(doc.Extra) == 0 {
		return defaultDocOrder
	}
	out := make([]string, 0, len(doc.Order)+len(doc.Extra)+3)
	for _, n := range doc.Order {
		switch n {
		case fSchemaVersion, fActive, fItems:
		default:
			if _, ok := getField(doc.Extra, n); !ok {
				continue
			}
		}
		if !contains(out, n) {
			out = append(out, n)
		}
	}
	for _, n := range defaultDocOrder {
		if !contains(out, n) {
			out = append(out, n)
		}
	}
	for _, f := range doc.Extra {
		if !contains(out, f.Name) {
			out = append(out, f.Name)
		}
	}
	return out
}

// loadedOrder appends to out the fields of a loaded item's order that it
// still has, then the core fields it did not have but now sets.
func loadedOrder(out []string, it *noggin.Item, order []string, extra []noggin.Field) []string {
	for _, n := range order {
		switch n {
		case fKey, fParentKey, fTitle, fDone, fCreatedAt, fNotes:
		default:
			if _, ok := getField(extra, n); !ok {
				continue
			}
		}
		if !contains(out, n) {
			out = append(out, n)
		}
	}
	add := func(name string, set bool) {
		if set && !contains(out, name) {
			out = append(out, name)
		}
	}
	add(fKey, it.Key != "")
	add(fParentKey, it.ParentKey != "")
	add(fTitle, it.Title != "")
	add(fDone, it.Done)
	add(fCreatedAt, it.CreatedAt != nil)
	add(fNotes, true)
	return out
}

// itemOrder is the field order to write for an item. Items without a
// loaded order use the creation layout (key, parentKey, title, done,
// createdAt when set, notes). Loaded items keep their order; core fields
// they did not have are appended only when they carry a non-default value
// (as the original tool appends properties it assigns).
func itemOrder(it *noggin.Item) []string {
	if !it.HasForeignFields() {
		if it.CreatedAt == nil {
			return defaultItemOrderNoCreated
		}
		return defaultItemOrder
	}
	order, extra := it.FieldOrder(), it.ExtraFields()
	out := make([]string, 0, len(order)+len(extra)+6)
	switch {
	case order != nil:
		out = loadedOrder(out, it, order, extra)
	case it.CreatedAt == nil:
		out = append(out, defaultItemOrderNoCreated...)
	default:
		out = append(out, defaultItemOrder...)
	}
	for _, f := range extra {
		if !contains(out, f.Name) {
			out = append(out, f.Name)
		}
	}
	return out
}
