// Package codec reads and writes noggin files — YAML in the original
// tool's layout, or JSON (docs/file-format.md) — and the journal's entries
// and items. It is the plain face of core/internal/codec: whole documents
// from and to bytes. The machinery that exists only for large noggins (the
// lazy read, splice writes over a mapped file, the item cache, the CRC
// scan) stays inside core, behind core/store.
package codec

import (
	impl "github.com/noggin-go/noggin/core/internal/codec"
	"github.com/noggin-go/noggin/core/noggin"
)

// DecodeYAML parses and normalises a document (JSON is accepted too).
// Errors are invalid-document / unsupported-schema / invalid-note without
// a path. The result keeps no reference to data.
func DecodeYAML(data []byte) (*noggin.Document, error) { return impl.DecodeYAML(data) }

// DecodeJSON parses and normalises a JSON document.
func DecodeJSON(data []byte) (*noggin.Document, error) { return impl.DecodeJSON(data) }

// EncodeYAML writes doc in the original tool's YAML layout, ending in "\n".
func EncodeYAML(doc *noggin.Document) []byte { return impl.EncodeYAML(doc) }

// EncodeJSON writes doc as two-space indented JSON plus "\n".
func EncodeJSON(doc *noggin.Document) []byte { return impl.EncodeJSON(doc) }

// EncodeEntry writes one journal entry as a line of JSON, ending in "\n".
func EncodeEntry(e noggin.Entry) []byte { return impl.EncodeEntry(e) }

// DecodeEntry reads one journal line (without its newline).
func DecodeEntry(line []byte) (noggin.Entry, error) { return impl.DecodeEntry(line) }

// EncodeItem writes one item as compact JSON, exactly as the noggin file's
// JSON form writes it (its key order and unknown fields included).
func EncodeItem(it *noggin.Item) []byte { return impl.EncodeItem(it) }

// DecodeItem reads an item written by EncodeItem.
func DecodeItem(b []byte) (*noggin.Item, error) { return impl.DecodeItem(b) }
