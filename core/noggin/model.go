package noggin

// SchemaVersion is the only document schema version this build reads and writes.
const SchemaVersion = 1

// Document is one noggin: a forest of items plus the active item (the cursor).
//
// Sibling order is the order of Items among items sharing a ParentKey.
// Loaded documents remember their top-level key order and unknown fields
// so that a rewrite keeps them.
//
// Immutability: documents returned by the stores (Store.Load,
// Store.Update) and by Apply are never modified afterwards — Apply works
// on a copy and clones every item it changes — and callers must treat
// them as read-only too. A document under construction (a decoder, a
// test) may be changed freely until it is first handed to the engine
// (a verb, Resolve, PathOf, BuildView); after that its Items slice and the
// Key and ParentKey of its items must not change. The engine relies on
// this: a document that is read often caches its lookup index (children
// rows, key → item) in an unexported field, shared by concurrent readers.
// Copying a Document value is safe (the copy does not use the original's
// index), but compare documents with Equal rather than reflect.DeepEqual
// once the engine has read them.
type Document struct {
	// Active is the key of the active item; "" means null (no active item).
	Active string
	// Items holds every item of the forest, flat.
	Items []*Item
	// Order is the top-level key order as loaded (nil for a fresh document:
	// schemaVersion, active, items). It may name keys of Extra.
	Order []string
	// Extra holds unknown top-level fields, kept and written back unchanged.
	Extra []Field

	// memo caches the document's lookup index (see index.go).
	memo memo
	// viewer is the agent whose cursor Active is, in a document seen
	// through one (see Through); "" for the shared active item. base is
	// the document it was seen from: same items, whose index it uses.
	viewer string
	base   *Document
	// undecodable reports, for a document of a lazy read (and those a
	// write derives from it), the first of its items that could not be
	// decoded (see Undecoded); nil otherwise.
	undecodable func() error
}

// SetUndecodable makes err report the first item of doc, a lazy read's
// document, that could not be decoded (see Undecoded).
func (doc *Document) SetUndecodable(err func() error) { doc.undecodable = err }

// Undecodable is the error of the first item of doc that could not be
// decoded, or nil. The engine returns it instead of anything it read.
func (doc *Document) Undecodable() error {
	if doc == nil || doc.undecodable == nil {
		return nil
	}
	return doc.undecodable()
}

// Item is one node of the tree.
type Item struct {
	Key string
	// ParentKey is the parent's key; "" means null (a root).
	ParentKey string
	Title     string
	Done      bool
	// CreatedAt is nil when the item has no createdAt field.
	CreatedAt *string
	Notes     []Note
	// Foreign is nil unless the item was read from a file that laid its
	// fields out in another order, or gave it fields noggin does not know.
	Foreign *Foreign

	// body, when not nil, is the rest of an item that a lazy read left
	// undecoded: only Key and ParentKey are set until the engine decodes
	// it (see Undecoded).
	body Undecoded
}

// Foreign is what an item read from another tool's file may carry beyond
// noggin's own fields. It is kept out of the Item, which every noggin holds
// by the thousand, because few items have it: an Item is 40 bytes smaller
// for it, which a 10k-item noggin's read pays for in pages. A Foreign is
// never changed once an item holds it (items copied from one another share
// it): a reader builds a new one.
type Foreign struct {
	// Order is the field order as loaded (nil for noggin's own: key,
	// parentKey, title, done, createdAt, notes). It may name keys of Extra.
	Order []string
	// Extra holds unknown item fields, kept and written back unchanged.
	Extra []Field
}

// HasForeignFields reports whether the item has a field order of its own
// or fields noggin does not know: whether it is written otherwise than in
// noggin's own layout.
func (it *Item) HasForeignFields() bool {
	it.whole()
	return it.Foreign != nil && (it.Foreign.Order != nil || len(it.Foreign.Extra) > 0)
}

// FieldOrder is the item's field order as loaded (nil for noggin's own).
func (it *Item) FieldOrder() []string {
	if it.whole().Foreign == nil {
		return nil
	}
	return it.Foreign.Order
}

// ExtraFields are the item's fields that noggin does not know.
func (it *Item) ExtraFields() []Field {
	if it.whole().Foreign == nil {
		return nil
	}
	return it.Foreign.Extra
}

// Undecoded is the rest of an item that a lazy read left undecoded: a
// one-shot verb on a large noggin reads the keys and parent keys of all
// its items but decodes only the items it reads, changes or shows.
//
// The engine decodes an item before it reads any field but Key and
// ParentKey, and a verb returns a decode's error as its own (the file
// changed under the reader). Outside the engine, decode an item (Decode)
// before reading it; a document with undecoded items is used by one
// goroutine at a time. The encoder refuses undecoded items: a write
// copies their bytes from the file they were read from.
type Undecoded interface {
	// Decode sets the fields of it that the read left out. An error means
	// they can no longer be read (the file changed under the reader); the
	// document's Undecodable then reports it.
	Decode(it *Item) error
}

// LeaveUndecoded marks it, an item a reader is building with only Key and
// ParentKey, as undecoded: body decodes the rest when the engine needs it.
func (it *Item) LeaveUndecoded(body Undecoded) { it.body = body }

// Undecoded reports whether it is an item a lazy read left undecoded.
func (it *Item) Undecoded() bool { return it.body != nil }

// Decode sets the fields a lazy read left out of it, if it is undecoded.
func (it *Item) Decode() error {
	if b := it.body; b != nil {
		if err := b.Decode(it); err != nil {
			return err
		}
		it.body = nil
	}
	return nil
}

// The engine reads an item's fields through these accessors only (a test
// holds it to that, TestEngineReadsItemsThroughAccessors): each decodes an
// item a lazy read left undecoded first. An item that can no longer be
// decoded keeps its keys only; its document's Undecodable says why, and
// the engine returns that instead of what it read.

func (it *Item) whole() *Item {
	if it.body != nil { // small enough to inline: the accessors cost a field read on whole items
		_ = it.Decode() // a failure is the document's Undecodable
	}
	return it
}

func (it *Item) title() string      { return it.whole().Title }
func (it *Item) done() bool         { return it.whole().Done }
func (it *Item) createdAt() *string { return it.whole().CreatedAt }
func (it *Item) notes() []Note      { return it.whole().Notes }
func (it *Item) foreign() *Foreign  { return it.whole().Foreign }

// clone is a private, whole copy of it: what the engine changes, or hands
// out of a document (an inverse op's item).
func (it *Item) clone() *Item {
	c := *it.whole()
	return &c
}

// Note is one append-only, timestamped note of an item.
type Note struct {
	// Timestamp is "" for a null timestamp.
	Timestamp string
	Text      string
}

// Field is one named value of an ordered mapping. Value is one of: nil,
// bool, Number, string, []any (a sequence) or Map (a nested mapping).
type Field struct {
	Name  string
	Value any
}

// Map is an ordered mapping of unknown data kept from a loaded document.
type Map []Field

// Number is a numeric scalar kept as its literal text (e.g. "42", "1.5").
type Number string

// NewDocument returns the empty document {schemaVersion: 1, active: null, items: []}.
func NewDocument() *Document { return &Document{Items: []*Item{}} }

// JSString is String(n) in JavaScript (negative zero is "0").
func (n Number) JSString() string {
	if n == "-0" {
		return "0"
	}
	return string(n)
}

// JSTruthy is the truthiness of n in JavaScript.
func (n Number) JSTruthy() bool { return n != "0" && n != "-0" && n != "NaN" }

// JSString is String(m) in JavaScript.
func (Map) JSString() string { return "[object Object]" }

// JSTruthy is the truthiness of a mapping (always true).
func (Map) JSTruthy() bool { return true }
