package noggin

// Validate checks the write-time invariants of a document, in the order of
// docs/file-format.md (validation on write). Every failure is
// invalid-document, exit 2.
//
// A document that passes is remembered as valid, so Apply can check just
// what later ops touch (see Apply): it must not change afterwards.
func Validate(doc *Document) error {
	if doc == nil {
		return Errorf(CodeInvalidDocument, "document items must be an array")
	}
	items := doc.Items
	idx := doc.keysMemo()
	if idx == nil {
		var err error
		if idx, err = keyIndex(items); err != nil {
			return err
		}
	}
	// parent[i] is the index of item i's parent, -1 for a root.
	parent := make([]int32, len(items))
	for i, it := range items {
		parent[i] = -1
		if it.ParentKey != "" {
			p, ok := idx[it.ParentKey]
			if !ok {
				return Errorf(CodeInvalidDocument, "item references unknown parent").
					With(F("key", it.Key), F("parentKey", it.ParentKey))
			}
			parent[i] = p
		}
	}
	// Cycle check: the first item (array order) whose parent chain never
	// reaches a root. state: 0 unvisited, 1 on the current walk, 2 reaches a root.
	state := make([]uint8, len(items))
	var walk []int32
	for i := range items {
		for j := int32(i); j >= 0 && state[j] != 2; j = parent[j] {
			if state[j] == 1 {
				return Errorf(CodeInvalidDocument, "parent chain cycle").With(F("key", items[i].Key))
			}
			state[j] = 1
			walk = append(walk, j)
		}
		for _, j := range walk {
			state[j] = 2
		}
		walk = walk[:0]
	}
	if doc.Active != "" {
		if _, ok := idx[doc.Active]; !ok {
			return Errorf(CodeInvalidDocument, "active references unknown item").With(F("active", doc.Active))
		}
	}
	doc.memo.valid.Store(doc)
	return nil
}

// AssumeValid records doc as valid without checking it, as Validate would
// after checking it: Apply then checks only what later ops touch. It is
// for a document read back from a file that this build validated and
// wrote (a store knows it from the file's digest; see noggin.Undecoded),
// whose checking would cost as much as reading it whole.
func AssumeValid(doc *Document) { doc.memo.valid.Store(doc) }

// CheckKeys is the part of Validate that loading applies too: every item
// has a key and no two share one. A document that breaks it cannot be
// rendered consistently (paths and keys would name different items), so
// it is refused on read as on write; the other invariants (orphans, a
// dangling active item) have a defined reading and are checked on write.
//
// The key index it builds is kept with doc, so a write that follows
// validates doc without building it again and finds items by key in O(1)
// (see Apply).
func CheckKeys(doc *Document) error {
	idx, err := keyIndex(doc.Items)
	if err == nil {
		doc.memo.keys.Store(&keyMemo{doc: doc, items: doc.Items, at: idx})
	}
	return err
}

// keyMemo is the key index CheckKeys built for a document.
type keyMemo struct {
	doc   *Document
	items []*Item
	at    map[string]int32
}

// keysMemo returns the key index CheckKeys built for doc itself, or nil.
func (doc *Document) keysMemo() map[string]int32 {
	doc = doc.memoDoc()
	m, _ := doc.memo.keys.Load().(*keyMemo)
	if m == nil || m.doc != doc || !sameItems(m.items, doc.Items) {
		return nil
	}
	return m.at
}

// keyIndex maps each key to its item's index (invalid-document for a
// missing or duplicate key).
func keyIndex(items []*Item) (map[string]int32, error) {
	idx := make(map[string]int32, len(items))
	for i, it := range items {
		if it == nil || it.Key == "" {
			return nil, Errorf(CodeInvalidDocument, "item missing key")
		}
		idx[it.Key] = int32(i) // one hash per key: a duplicate leaves the length as it was
		if len(idx) != i+1 {
			return nil, Errorf(CodeInvalidDocument, "duplicate item key").With(F("key", it.Key))
		}
	}
	return idx, nil
}
