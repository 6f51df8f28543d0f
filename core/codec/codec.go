// Package codec reads and writes noggin documents as YAML (the original
// tool's layout) and JSON, including read normalisation (spec/data-model.md).
package codec

import "github.com/noggin-go/noggin/core/noggin"

// DecodeYAML parses and normalises a document (JSON is accepted too).
// Errors are invalid-document / unsupported-schema / invalid-note without
// a path; the file provider adds data.path.
func DecodeYAML(data []byte) (*noggin.Document, error) { panic("TODO") }

// DecodeJSON parses and normalises a JSON document.
func DecodeJSON(data []byte) (*noggin.Document, error) { panic("TODO") }

// EncodeYAML writes doc in the original tool's YAML layout, ending in "\n".
func EncodeYAML(doc *noggin.Document) []byte { panic("TODO") }

// EncodeJSON writes doc as two-space indented JSON plus "\n".
func EncodeJSON(doc *noggin.Document) []byte { panic("TODO") }
