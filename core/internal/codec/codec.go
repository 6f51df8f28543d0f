// Package codec reads and writes noggin documents as YAML (the original
// tool's layout) and JSON, including read normalisation (docs/file-format.md).
// core/codec is its public face (whole documents, journal entries); the
// large-file machinery — the lazy read, splice writes over a mapped file,
// the item cache, the CRC scan and their options (Decode, Write) — is for
// core/store only, which is why the package is internal. Its plain path is
// the fast one's test oracle (FuzzLoad, FuzzSaveString, checkFastPaths).
//
// Reading YAML first tries a purpose-built reader for the layout EncodeYAML
// writes (and common hand-written variants of it); anything it does not
// recognise goes to the general YAML parser (go.yaml.in/yaml/v3), whose
// scalars are then resolved with the original tool's rules (js-yaml 4.1
// default schema: YAML 1.2 core booleans/nulls/numbers, "<<" merges,
// JavaScript key order with array-index keys first). Both paths give the
// same Document for any input the fast reader accepts. JSON text given to
// DecodeYAML is parsed with a strict JSON parser first (same result, much
// faster).
//
// Writing YAML reproduces js-yaml 4.1 dump(doc, {lineWidth: 100}) byte for
// byte (checked against js-yaml's own output in testdata/jsyaml).
//
// Decisions where the spec is silent or the model cannot hold the
// original's value:
//   - unquoted timestamps (and !!timestamp values) stay strings with their
//     literal text; !!binary values stay their base64 text;
//   - a non-string key, parentKey, active or title becomes its JavaScript
//     string form (123 → "123", true → "true"), null becomes "" (so a null
//     title loads as the empty title); done is JavaScript truthiness;
//     a non-string createdAt becomes its string form, a null createdAt is
//     kept and written back as null;
//   - numbers in unknown fields keep their JavaScript value (0x1F → 31,
//     1_000 → 1000) and are written as js-yaml writes that number;
//   - a top-level unknown key that would start with a document end marker
//     ("...") is single-quoted (js-yaml would write an unreadable file);
//   - EncodeJSON writes negative zero as -0 (JSON.stringify writes 0) so a
//     JSON round trip is stable.
//
// Known gaps of the general parser (input js-yaml accepts but this package
// refuses with invalid-document, unless the fast reader or the JSON
// pre-parse handles it): the \/ escape and surrogate-pair \u escapes in
// YAML double-quoted scalars, implicit keys longer than 1024 characters, a
// tab as the first character of a folded block line. The non-specific tag
// "!" is not seen (! 12 reads as a number, js-yaml reads "12").
package codec

import (
	"errors"
	"io"
	"math"

	"github.com/noggin-go/noggin/core/noggin"
)

// DecodeYAML parses and normalises a document (JSON is accepted too).
// Errors are invalid-document / unsupported-schema / invalid-note without
// a path; the file provider adds data.path. The result keeps no reference
// to data (the caller may reuse the buffer).
func DecodeYAML(data []byte) (*noggin.Document, error) {
	return decodeYAMLReleasing(data, nil)
}

// decodeYAMLReleasing is DecodeYAML telling release (when not nil) of the
// stretches of data the reader has passed, as decodeYAMLSource does.
func decodeYAMLReleasing(data []byte, release func(from, to int)) (*noggin.Document, error) {
	if isBlank(data) {
		return noggin.NewDocument(), nil
	}
	if doc, ok := decodeFastReleasing(data, parallelMin, nil, release); ok {
		return doc, nil
	}
	return decodeYAMLSlow(data)
}

// decodeYAMLSlow is DecodeYAML without the fast reader.
func decodeYAMLSlow(data []byte) (*noggin.Document, error) {
	if isBlank(data) {
		return noggin.NewDocument(), nil
	}
	if first := firstNonSpace(data); first == '{' && !hasNonPrintable(data) {
		// JSON text: a strict JSON parse (duplicate keys rejected, as in
		// YAML) gives the same value as the YAML parser, faster.
		if v, err := parseJSON(data, true); err == nil {
			return normalize(v, false)
		}
	}
	v, present, err := parseYAMLGeneric(data)
	if err != nil {
		return nil, wrapParse("YAML", err)
	}
	if !present {
		return nil, invalidDoc("expected a mapping at the top level")
	}
	return normalize(v, false)
}

// DecodeJSON parses and normalises a JSON document.
func DecodeJSON(data []byte) (*noggin.Document, error) {
	if isBlank(data) {
		return noggin.NewDocument(), nil
	}
	v, err := parseJSON(data, false)
	if err != nil {
		return nil, wrapParse("JSON", err)
	}
	return normalize(v, true)
}

// EncodeYAML writes doc in the original tool's YAML layout, ending in "\n".
func EncodeYAML(doc *noggin.Document) []byte {
	b := appendYAML(make([]byte, 0, estimateSize(doc)), doc)
	return b[:len(b):len(b)]
}

// ItemCache makes repeated YAML encodings of successive versions of one
// document cheap: documents are never modified once built, and Apply keeps
// every unchanged item as the same *Item, so the bytes of an item written
// before are copied from what the last write wrote and only new or changed
// items are encoded again. It keeps where each item lies in what it wrote,
// not the bytes: the caller hands them back (a long-lived store maps the
// file it wrote), so a large noggin is not held in memory a second time.
// The zero value is ready to use; it is not safe for concurrent use.
type ItemCache struct {
	// items and spans place the items of the last write's document in
	// its output; nil after a failed write (everything is encoded anew).
	items []*noggin.Item
	spans *spanList
}

// writeYAML streams EncodeYAML(doc) to w through small buffers, copying
// the bytes of every item the last call wrote too from last, which must be
// exactly what that call wrote (nil: encode every item), and remembers
// where each item lies in what it writes now. After a failure, or a panic
// while reading last (a mapping of a file that shrank), the next call
// encodes every item. release (may be nil) is told of the stretches of
// last copied so far, as decodeYAMLSource's is.
func (c *ItemCache) writeYAML(w io.Writer, doc *noggin.Document, last []byte, release func(from, to int)) error {
	var from *Source
	if last != nil && c.spans != nil {
		from = &Source{raw: last, items: c.items, spans: c.spans, release: release}
	}
	c.items, c.spans = nil, nil
	out := &countingWriter{w: w}
	rec := &recorder{from: from, spans: &spanList{}, flushed: &out.n}
	err := stream(out, func(b []byte, flush func([]byte) []byte) []byte {
		return append(appendYAMLDoc(b, doc, flush, rec), '\n')
	})
	if err == nil && out.n < math.MaxUint32 { // spans hold uint32 offsets
		c.items, c.spans = doc.Items, rec.spans
	}
	return err
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int
}

func (c *countingWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n += n
	return n, err
}

// recorder writes items as from would (from may be nil: encode them all)
// and records where each one lies in the output, of which *flushed bytes
// were written before the buffer it appends to.
type recorder struct {
	from    *Source
	spans   *spanList
	flushed *int
}

// appendRun writes as from.appendRun does (see itemSource), recording
// where each item it writes lies in the output: a long-lived store's
// writes copy runs too (BenchmarkItemCache).
func (r *recorder) appendRun(b []byte, list []*noggin.Item, flush func([]byte) []byte) ([]byte, int) {
	start := *r.flushed + len(b)
	first, n := -1, 1
	if r.from != nil {
		b, first, n = r.from.copyRun(b, list, flush)
	} else {
		b = appendItem(b, list[0])
	}
	if first < 0 { // encoded
		r.spans.add(start)
		r.spans.end(*r.flushed + len(b))
		return b, 1
	}
	// A run lies in the output as it lay in the source, shifted.
	shift := start - int(r.from.spans.at(first).start)
	for i := first; i < first+n; i++ {
		sp := r.from.spans.at(i)
		r.spans.add(int(sp.start) + shift)
		r.spans.end(int(sp.end) + shift)
	}
	return b, n
}

// appendYAML appends EncodeYAML(doc) to dst (so a caller can reuse one
// buffer across writes) and returns the extended buffer.
func appendYAML(dst []byte, doc *noggin.Document) []byte {
	dst = appendYAMLDoc(dst, doc, nil, nil)
	return append(dst, '\n')
}

// EncodeJSON writes doc as two-space indented JSON plus "\n".
func EncodeJSON(doc *noggin.Document) []byte {
	b := appendJSON(make([]byte, 0, estimateSize(doc)*3/2), doc)
	return b[:len(b):len(b)]
}

// appendJSON appends EncodeJSON(doc) to dst and returns the extended buffer.
func appendJSON(dst []byte, doc *noggin.Document) []byte {
	dst = appendJSONDoc(dst, doc, nil)
	return append(dst, '\n')
}

// writeYAML streams EncodeYAML(doc) to w through a small buffer (no
// document-sized allocation), returning the first write error.
func writeYAML(w io.Writer, doc *noggin.Document) error {
	return stream(w, func(b []byte, flush func([]byte) []byte) []byte {
		return append(appendYAMLDoc(b, doc, flush, nil), '\n')
	})
}

// writeJSON streams EncodeJSON(doc) to w like writeYAML.
func writeJSON(w io.Writer, doc *noggin.Document) error {
	return stream(w, func(b []byte, flush func([]byte) []byte) []byte {
		return append(appendJSONDoc(b, doc, flush), '\n')
	})
}

func stream(w io.Writer, write func([]byte, func([]byte) []byte) []byte) error {
	var err error
	flush := func(b []byte) []byte {
		if err == nil && len(b) > 0 {
			_, err = w.Write(b)
		}
		return b[:0]
	}
	flush(write(make([]byte, 0, flushSize+8<<10), flush))
	return err
}

func estimateSize(doc *noggin.Document) int {
	n := 64 + len(doc.Active)
	for _, it := range doc.Items {
		n += 96 + len(it.Key) + len(it.ParentKey) + len(it.Title)
		if it.CreatedAt != nil {
			n += 16 + len(*it.CreatedAt)
		}
		for _, no := range it.Notes {
			n += 48 + len(no.Timestamp) + len(no.Text) + len(no.Text)/8
		}
		for _, f := range it.ExtraFields() {
			n += 64 + len(f.Name)
		}
	}
	return n + n/16
}

func wrapParse(kind string, err error) error {
	var pe *parseError
	if errors.As(err, &pe) {
		return invalidDoc("failed to parse " + kind + ": " + pe.msg)
	}
	var ne *noggin.Error
	if errors.As(err, &ne) {
		return ne
	}
	return invalidDoc("failed to parse " + kind + ": " + err.Error())
}

// isBlank reports whether data is empty or only whitespace (JavaScript's
// String.prototype.trim() set).
func isBlank(data []byte) bool {
	for i := 0; i < len(data); {
		c := data[i]
		if c < 0x80 {
			switch c {
			case ' ', '\t', '\n', '\v', '\f', '\r':
				i++
				continue
			}
			return false
		}
		r, n := decodeRune(data[i:])
		switch {
		case r == 0xA0, r == 0x1680, r >= 0x2000 && r <= 0x200A, r == 0x2028, r == 0x2029,
			r == 0x202F, r == 0x205F, r == 0x3000, r == 0xFEFF:
			i += n
		default:
			return false
		}
	}
	return true
}

func firstNonSpace(data []byte) byte {
	for _, c := range data {
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		}
		return c
	}
	return 0
}

// hasNonPrintable reports characters the original tool's YAML parser
// refuses anywhere in its input (js-yaml's PATTERN_NON_PRINTABLE); such
// input is left to the general parser, which refuses it too.
func hasNonPrintable(data []byte) bool {
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case c < 0x20:
			if c != '\t' && c != '\n' && c != '\r' {
				return true
			}
		case c == 0x7F:
			return true
		case c >= 0x80:
			r, n := decodeRune(data[i:])
			if (r >= 0x80 && r <= 0x9F && r != 0x85) || r == 0xFFFE || r == 0xFFFF {
				return true
			}
			i += n - 1
		}
	}
	return false
}
