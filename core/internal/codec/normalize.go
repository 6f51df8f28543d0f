package codec

import (
	"slices"

	"github.com/noggin-go/noggin/core/jstext"
	"github.com/noggin-go/noggin/core/noggin"
)

// Field names of the model.
const (
	fSchemaVersion = "schemaVersion"
	fActive        = "active"
	fItems         = "items"
	fKey           = "key"
	fParentKey     = "parentKey"
	fTitle         = "title"
	fDone          = "done"
	fCreatedAt     = "createdAt"
	fNotes         = "notes"
	fTimestamp     = "timestamp"
	fText          = "text"
	fClosedAt      = "closedAt"
	fPushedAt      = "pushedAt"
)

func invalidDoc(msg string) error { return noggin.Errorf(noggin.CodeInvalidDocument, "%s", msg) }

func errNotesArray() error { return invalidDoc("item notes must be an array") }

func errInvalidNote() error { return noggin.NewError(noggin.CodeInvalidNote) }

func errSchema(v string) error {
	return noggin.Errorf(noggin.CodeUnsupportedSchema, "schemaVersion %s not supported by this build (expected 1).", v)
}

func get(m noggin.Map, name string) (any, bool) {
	for i := range m {
		if m[i].Name == name {
			return m[i].Value, true
		}
	}
	return nil, false
}

// toKey converts a key-like value (key, parentKey, active): null is "".
func toKey(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	}
	return jstext.String(v)
}

// toTitle converts a title: strings as they are, null is "", anything else
// its JavaScript string form.
func toTitle(v any) string { return toKey(v) }

// toCreatedAt converts a createdAt value: null is nil (the field stays in
// the item's Order and is written back as null).
func toCreatedAt(v any) *string {
	switch x := v.(type) {
	case nil:
		return nil
	case string:
		return &x
	}
	s := jstext.String(v)
	return &s
}

// toTimestamp is the note timestamp rule: falsy → null, else String(v).
func toTimestamp(v any) string {
	if !jstext.Truthy(v) {
		return ""
	}
	return jstext.String(v)
}

var defaultItemOrder = []string{fKey, fParentKey, fTitle, fDone, fCreatedAt, fNotes}
var defaultItemOrderNoCreated = []string{fKey, fParentKey, fTitle, fDone, fNotes}
var defaultDocOrder = []string{fSchemaVersion, fActive, fItems}

// canonItemOrder reports whether an item read with these fields in this
// order (createdAt among them or not) is written the same in the default
// layout: it then needs no Foreign.
func canonItemOrder(order []string, extra []noggin.Field, created bool) bool {
	if len(extra) != 0 {
		return false
	}
	return created && slices.Equal(order, defaultItemOrder) ||
		!created && slices.Equal(order, defaultItemOrderNoCreated)
}

func canonDocOrder(d *noggin.Document) {
	if len(d.Extra) == 0 && slices.Equal(d.Order, defaultDocOrder) {
		d.Order = nil
	}
}

// normalize turns a parsed generic value into a Document (steps 3–9 of
// docs/file-format.md "Reading a document"). json selects the JSON wording
// of the top-level check.
func normalize(top any, json bool) (*noggin.Document, error) {
	m, ok := top.(noggin.Map)
	if !ok {
		if json {
			return nil, invalidDoc("expected an object at the top level")
		}
		if _, isSeq := top.([]any); !isSeq {
			return nil, invalidDoc("expected a mapping at the top level")
		}
		m = nil // a sequence has no schemaVersion
	}
	sv, has := get(m, fSchemaVersion)
	if !has {
		return nil, errSchema("undefined")
	}
	if n, isNum := sv.(noggin.Number); !isNum || n != "1" {
		return nil, errSchema(jstext.String(sv))
	}
	itemsV, _ := get(m, fItems)
	rawItems, ok := itemsV.([]any)
	if !ok {
		return nil, invalidDoc("expected items array")
	}
	activeV, has := get(m, fActive)
	if !has {
		return nil, invalidDoc("expected active field")
	}
	doc := &noggin.Document{Active: toKey(activeV), Items: make([]*noggin.Item, 0, len(rawItems))}
	slab := make([]noggin.Item, len(rawItems))
	for i, raw := range rawItems {
		im, ok := raw.(noggin.Map)
		if !ok {
			return nil, errNotesArray()
		}
		it := &slab[i]
		if err := buildItem(it, im); err != nil {
			return nil, err
		}
		doc.Items = append(doc.Items, it)
	}
	doc.Order = make([]string, 0, len(m))
	for _, f := range m {
		doc.Order = append(doc.Order, f.Name)
		switch f.Name {
		case fSchemaVersion, fActive, fItems:
		default:
			doc.Extra = append(doc.Extra, f)
		}
	}
	canonDocOrder(doc)
	return doc, nil
}

func buildItem(it *noggin.Item, im noggin.Map) error {
	notesV, _ := get(im, fNotes)
	rawNotes, ok := notesV.([]any)
	if !ok {
		return errNotesArray()
	}
	it.Notes = make([]noggin.Note, len(rawNotes))
	for j, rn := range rawNotes {
		nm, ok := rn.(noggin.Map)
		if !ok {
			return errInvalidNote()
		}
		text, has := get(nm, fText)
		if !has {
			return errInvalidNote()
		}
		ts, _ := get(nm, fTimestamp)
		it.Notes[j] = noggin.Note{Timestamp: toTimestamp(ts), Text: jstext.String(text)}
	}
	order := make([]string, 0, len(im))
	var extra []noggin.Field
	for _, f := range im {
		switch f.Name {
		case fKey:
			it.Key = toKey(f.Value)
		case fParentKey:
			it.ParentKey = toKey(f.Value)
		case fTitle:
			it.Title = toTitle(f.Value)
		case fDone:
			it.Done = jstext.Truthy(f.Value)
		case fCreatedAt:
			it.CreatedAt = toCreatedAt(f.Value)
		case fNotes:
		case fClosedAt, fPushedAt:
			continue
		default:
			extra = append(extra, f)
		}
		order = append(order, f.Name)
	}
	if !canonItemOrder(order, extra, it.CreatedAt != nil) {
		it.Foreign = &noggin.Foreign{Order: order, Extra: extra}
	}
	return nil
}
