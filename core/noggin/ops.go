package noggin

import "slices"

// Apply applies ops to a copy of doc and validates the result
// (docs/file-format.md). doc is not modified: the result has its own Items
// slice and shares every item it did not change with doc.
//
// A result of Apply or a document that passed Validate is known to be
// valid. When doc is one and the ops
// only add leaves, change titles, done flags, notes or the active item
// (push, add, note, edit, done, goto), Apply checks just what the ops
// touched instead of the whole document, so a long-lived store's write
// costs what it changes (BenchmarkApplyAdd, BenchmarkPush). Any doubt
// falls back to the full Validate, whose error is the one returned.
func Apply(doc *Document, ops []Op) (*Document, error) {
	if doc != nil && !doc.knownValid() && doc.keysMemo() != nil {
		// Read from a file (CheckKeys kept its key index): validating it
		// now costs a fraction of validating the result from scratch.
		_ = Validate(doc)
	}
	a, err := projectWith(doc, ops)
	if err != nil {
		return nil, err
	}
	if err := a.doc.Undecodable(); err != nil {
		return nil, err // an item the ops change could not be decoded
	}
	out := a.doc
	if doc != nil && doc.knownValid() && a.stillValid(ops) {
		out.memo.valid.Store(out)
		switch {
		case a.base != nil && !a.shifted:
			derive(a.base, out, a.appended, a.cloned)
		case a.base != nil:
			Index(out)
		}
		return out, nil
	}
	if err := Validate(out); err != nil {
		return nil, err
	}
	if a.base != nil {
		// A document that was indexed is read often (a long-lived store):
		// index its successor now, and later ones will derive from it.
		Index(out)
	}
	return out, nil
}

// stillValid reports whether the result of ops on a valid document is
// valid, checking only what the ops touched: every op is structural-free
// or adds a leaf whose parent existed when it was added (so no cycle and
// no orphan can appear), and the active item, if set, exists. It answers
// false when it cannot tell cheaply (move, remove).
func (a *applier) stillValid(ops []Op) bool {
	for i := range ops {
		switch op := &ops[i]; op.Type {
		case OpSet, OpNote, OpUnnote:
		case OpAdd:
			if !a.parentExisted[op.Item.Key] {
				return false
			}
		case OpSetActive:
			if op.Key != "" && a.find(op.Key) < 0 {
				return false
			}
		case OpCursor: // a cursor may name an item another tool has removed
		default:
			return false
		}
	}
	return true
}

// project applies ops to a copy of doc without validating the result (the
// projected state against which --goto is resolved).
func project(doc *Document, ops []Op) (*Document, error) {
	a, err := projectWith(doc, ops)
	if err != nil {
		return nil, err
	}
	return a.doc, nil
}

// projectWith is project returning the applier, whose bookkeeping Apply's
// incremental validation reads.
func projectWith(doc *Document, ops []Op) (*applier, error) {
	if doc == nil {
		doc = NewDocument()
	}
	a := newApplier(doc, len(ops))
	for i := range ops {
		if err := a.apply(&ops[i]); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// newApplier starts applying ops to a copy of doc, with room for extra
// more items.
func newApplier(doc *Document, extra int) *applier {
	a := lookupApplier(doc)
	a.doc.Items = make([]*Item, len(doc.Items), len(doc.Items)+extra)
	copy(a.doc.Items, doc.Items)
	return a
}

// lookupApplier is an applier that only looks doc's items up: its
// document shares doc's item list until it is given a copy.
func lookupApplier(doc *Document) *applier {
	// Field by field: the result must not inherit doc's cached index.
	a := &applier{doc: &Document{Active: doc.Active, Order: doc.Order, Extra: doc.Extra, undecodable: doc.undecodable}, owned: map[*Item]bool{}}
	a.doc.Items = doc.Items
	a.base = doc.cached()
	a.keys = doc.keysMemo()
	return a
}

// applier holds the copy-on-write state of one Apply.
type applier struct {
	// doc is the result, allocated on its own: a result that lived inside
	// the applier would keep the applier alive with it, and with it base,
	// the input's index, so every document a long-lived store wrote would
	// keep all the versions before it (TestApplyKeepsNoAncestors).
	doc *Document
	// owned marks items created or cloned by this apply (safe to mutate).
	owned map[*Item]bool
	// pos maps keys to indexes in doc.Items (first occurrence); nil until
	// built, reset by structural changes.
	pos     map[string]int
	lookups int
	// seen holds the keys linear scans found while pos is nil (a verb
	// looks its few items up again and again), until a structural change.
	seen map[string]int
	// parentExisted records, per added key, whether its parent was a root
	// ("") or an existing item other than itself when it was added.
	parentExisted map[string]bool
	// base is the published index of the input document (nil: none).
	// Until an op moves items around (shifted), every input item is still
	// at its input index, so find asks base, and the items appended at the
	// end (appended, list indexes) and cloned in place (cloned) are what
	// derive needs to index the result.
	base     *index
	shifted  bool
	appended []int
	cloned   []int
	// keys is the input's key index from CheckKeys (nil: none), which find
	// asks like base while nothing shifted.
	keys map[string]int32
}

func invalidOp(msg string, data ...Field) *Error {
	return Errorf(CodeInvalidOp, "%s", msg).With(data...)
}

func (a *applier) apply(op *Op) error {
	switch op.Type {
	case OpAdd:
		return a.add(op)
	case OpRemove:
		return a.remove(op)
	case OpSet:
		return a.set(op)
	case OpNote:
		return a.note(op)
	case OpMove:
		return a.move(op)
	case OpSetActive:
		a.doc.Active = op.Key
		return nil
	case OpUnnote:
		return a.unnote(op)
	case OpCursor:
		return a.setCursor(op)
	}
	return invalidOp("unknown op type", F("opType", string(op.Type)))
}

// find returns the index of the first item with key, or -1.
func (a *applier) find(key string) int {
	if a.pos == nil && (a.base != nil || a.keys != nil) && !a.shifted && len(a.appended) <= 16 {
		for _, i := range a.appended {
			if a.doc.Items[i].Key == key {
				return i
			}
		}
		i := -1
		if a.base != nil {
			i = a.base.flat(key)
		} else if j, ok := a.keys[key]; ok {
			i = int(j)
		}
		if i >= 0 && i < len(a.doc.Items) && a.doc.Items[i].Key == key {
			return i
		}
		return -1
	}
	if a.pos == nil {
		if i, ok := a.seen[key]; ok {
			return i
		}
		a.lookups++
		if a.lookups <= 4 {
			return a.scan(key)
		}
		a.pos = make(map[string]int, len(a.doc.Items))
		for i, it := range a.doc.Items {
			if _, dup := a.pos[it.Key]; !dup {
				a.pos[it.Key] = i
			}
		}
	}
	if i, ok := a.pos[key]; ok {
		return i
	}
	return -1
}

// scan finds key by a linear scan, and remembers where (seen).
func (a *applier) scan(key string) int {
	i := indexOfKey(a.doc.Items, key)
	if i >= 0 {
		if a.seen == nil {
			a.seen = map[string]int{}
		}
		a.seen[key] = i
	}
	return i
}

// mutable returns a private copy of the item at index i.
func (a *applier) mutable(i int) *Item {
	it := a.doc.Items[i]
	if !a.owned[it] {
		it = it.clone()
		a.doc.Items[i] = it
		a.owned[it] = true
		a.cloned = append(a.cloned, i)
	}
	return it
}

// insert places it under parent by the insertion rule of docs/file-format.md.
func (a *applier) insert(it *Item, parent string, atEnd bool, position int) error {
	items := a.doc.Items
	if atEnd {
		a.doc.Items = append(items, it)
		a.appended = append(a.appended, len(a.doc.Items)-1)
		if a.pos != nil {
			if _, dup := a.pos[it.Key]; !dup {
				a.pos[it.Key] = len(a.doc.Items) - 1
			}
		}
		return nil
	}
	if position < 0 {
		return invalidOp("invalid position", F("position", position))
	}
	at, count, last := -1, 0, -1
	for i, s := range items {
		if s.ParentKey != parent {
			continue
		}
		if count == position {
			at = i
			break
		}
		count++
		last = i
	}
	switch {
	case at >= 0:
	case last < 0:
		at = len(items)
	default:
		at = last + 1
	}
	a.doc.Items = slices.Insert(items, at, it)
	a.pos, a.seen = nil, nil
	a.shifted = true
	return nil
}

func (a *applier) add(op *Op) error {
	src := op.Item
	if src == nil || src.Key == "" {
		return invalidOp("add op requires item with key")
	}
	if a.find(src.Key) >= 0 {
		return invalidOp("add op references existing key", F("key", src.Key))
	}
	it := &Item{
		Key:       src.Key,
		ParentKey: op.ParentKey,
		Title:     src.title(),
		Done:      src.done(),
		Notes:     append(make([]Note, 0, len(src.notes())), src.notes()...),
		Foreign:   src.foreign(),
	}
	if src.createdAt() != nil {
		c := *src.createdAt()
		it.CreatedAt = &c
	}
	a.owned[it] = true
	if a.parentExisted == nil {
		a.parentExisted = map[string]bool{}
	}
	a.parentExisted[it.Key] = op.ParentKey == "" || a.find(op.ParentKey) >= 0
	return a.place(it, op)
}

// place inserts it where op says: at a flat index, or among siblings.
func (a *applier) place(it *Item, op *Op) error {
	if !op.Flat {
		return a.insert(it, op.ParentKey, op.AtEnd, op.Position)
	}
	if op.Position < 0 || op.Position > len(a.doc.Items) {
		return invalidOp("invalid position", F("position", op.Position))
	}
	a.doc.Items = slices.Insert(a.doc.Items, op.Position, it)
	a.pos, a.seen = nil, nil
	a.shifted = true
	return nil
}

func (a *applier) remove(op *Op) error {
	if op.Keys == nil {
		return invalidOp("remove op requires keys array")
	}
	drop := make(map[string]bool, len(op.Keys))
	for _, k := range op.Keys {
		drop[k] = true
	}
	a.doc.Items = slices.DeleteFunc(a.doc.Items, func(it *Item) bool { return drop[it.Key] })
	a.pos, a.seen = nil, nil
	a.shifted = true
	return nil
}

// target finds the item an op names, with the op's failure messages.
func (a *applier) target(op *Op) (int, error) {
	if op.Key == "" {
		return -1, invalidOp(string(op.Type) + " op requires key")
	}
	i := a.find(op.Key)
	if i < 0 {
		return -1, invalidOp(string(op.Type)+" op references unknown key", F("key", op.Key))
	}
	return i, nil
}

func (a *applier) set(op *Op) error {
	i, err := a.target(op)
	if err != nil {
		return err
	}
	if op.Title == nil && op.Done == nil {
		return invalidOp("set op requires patch object")
	}
	it := a.mutable(i)
	if op.Title != nil {
		it.Title = *op.Title
	}
	if op.Done != nil {
		it.Done = *op.Done
	}
	return nil
}

func (a *applier) note(op *Op) error {
	i, err := a.target(op)
	if err != nil {
		return err
	}
	if op.Note == nil {
		return invalidOp("note op requires note text")
	}
	it := a.mutable(i)
	it.Notes = append(slices.Clip(it.notes()), *op.Note)
	return nil
}

func (a *applier) move(op *Op) error {
	i, err := a.target(op)
	if err != nil {
		return err
	}
	it := a.mutable(i)
	a.doc.Items = slices.Delete(a.doc.Items, i, i+1)
	a.pos, a.seen = nil, nil
	a.shifted = true
	it.ParentKey = op.ParentKey
	return a.place(it, op)
}

func (a *applier) unnote(op *Op) error {
	i, err := a.target(op)
	if err != nil {
		return err
	}
	it := a.mutable(i)
	if len(it.notes()) == 0 {
		return invalidOp("unnote op references an item without notes", F("key", op.Key))
	}
	it.Notes = slices.Clip(it.notes()[:len(it.notes())-1])
	return nil
}
