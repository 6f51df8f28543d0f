package codec

import (
	"errors"
	"io"

	"github.com/noggin-go/noggin/core/internal/mmap"
	"github.com/noggin-go/noggin/core/noggin"
)

// A store reads and writes a noggin file through Decode and Write; the
// other entry points (DecodeYAML, EncodeYAML, …) are their whole-document
// forms for tools and tests.

// ErrCutShort says that the mapped file was cut short (by a tool that
// ignores the lock) while it was read or copied from; read it again.
var ErrCutShort = errors.New("codec: the mapped file was cut short while it was read")

// ErrNotLazy says that Options.Lazy met bytes that this encoder did not
// write (or whose CRC-32 could not be worked out); read them without Lazy.
var ErrNotLazy = errors.New("codec: not a file this encoder wrote")

// Options say how Decode reads a noggin file's bytes.
type Options struct {
	// JSON: the bytes are a .json file's (else YAML).
	JSON bool
	// Mapped: the bytes map the file (internal/mmap). Each stretch the
	// read has passed is dropped from memory as it goes, and so is each
	// stretch a Write copies from the Source, so that a large noggin is
	// never held twice; a read that faults on them fails with ErrCutShort.
	Mapped bool
	// Source: also answer where each item lies in the bytes (YAML read by
	// the fast reader; nil otherwise), for a Write that copies the
	// unchanged items. The bytes must not change while it is used.
	Source bool
	// Lazy: the bytes are YAML that this encoder wrote (the caller knows it
	// from their digest); only the items' keys and parent keys are read,
	// and the rest of each item is decoded when a verb reads it
	// (noggin.Undecoded), or fails with Changed if its bytes no longer hold
	// it. Bytes of another layout fail with ErrNotLazy. Implies Source.
	Lazy    bool
	Changed error
	// CRC32, when not nil, gets the CRC-32 (IEEE) of the bytes, worked out
	// as the read passes them (one pass over a mapped file's pages).
	CRC32 *uint32
}

// Decode reads a noggin file's bytes (see Options). Its errors are
// invalid-document, unsupported-schema and invalid-note without a path,
// ErrCutShort and ErrNotLazy.
func Decode(data []byte, o Options) (doc *noggin.Document, src *Source, err error) {
	var sum *scanSum
	if o.CRC32 != nil {
		sum = &scanSum{}
	}
	var release, copied func(from, to int) // the read's; a Write's copy from src
	if o.Mapped {
		copied = func(from, to int) { mmap.Drop(data[from:to]) }
	}
	if o.Mapped || sum != nil {
		release = func(from, to int) {
			if sum != nil {
				sum.passed(data, from, to)
			}
			if o.Mapped {
				mmap.Drop(data[from:to])
			}
			if readPassed != nil {
				readPassed()
			}
		}
	}
	guard := unguarded
	if o.Mapped {
		guard = mmap.Guard
	}
	ok := true
	if !guard(func() {
		switch {
		case o.JSON:
			doc, err = DecodeJSON(data)
		case o.Lazy:
			doc, src, ok = decodeYAMLLazy(data, release, guard, o.Changed)
		case o.Source:
			doc, src, err = decodeYAMLSource(data, release)
		default:
			doc, err = decodeYAMLReleasing(data, release)
		}
		if sum != nil && ok && err == nil {
			*o.CRC32, ok = sum.sum(data)
		}
	}) {
		return nil, nil, ErrCutShort
	}
	if !ok {
		return nil, nil, ErrNotLazy
	}
	if src != nil {
		src.release = copied
	}
	return doc, src, err
}

// readPassed, when set (by tests), runs each time a read has passed a
// stretch of its bytes.
var readPassed func()

// unguarded runs f: bytes of the heap cannot fault.
func unguarded(f func()) bool {
	f()
	return true
}

// WriteOptions say how Write encodes a document.
type WriteOptions struct {
	// JSON: write JSON (else YAML).
	JSON bool
	// From copies the bytes of every item doc shares with the document
	// Decode read (the same *Item: documents are never modified, and
	// noggin.Apply keeps unchanged items) from its file instead of
	// encoding it. The result is EncodeYAML(doc) only if that file is
	// exactly EncodeYAML of its document, which the caller must know.
	From *Source
	// Cache copies the items the cache's last Write wrote from Last, which
	// must be exactly what that Write wrote (nil: encode every item; a
	// long-lived store maps the file it wrote), and remembers where each
	// item lies in what this Write writes. LastMapped: Last maps the file,
	// whose pages are dropped once copied.
	Cache      *ItemCache
	Last       []byte
	LastMapped bool
}

// Write streams doc, encoded as EncodeYAML or EncodeJSON would, to w
// through small buffers (no document-sized allocation). It returns the
// first write error, or ErrCutShort when the mapped file it copies from
// was cut short meanwhile: what it wrote is then to be thrown away.
func Write(w io.Writer, doc *noggin.Document, o WriteOptions) (err error) {
	switch {
	case o.JSON:
		return writeJSON(w, doc)
	case o.From != nil:
		if !mmap.Guard(func() { err = writeYAMLFrom(w, doc, o.From) }) {
			return ErrCutShort
		}
		return err
	case o.Cache != nil:
		var release func(from, to int) // never drop pages of the heap
		if o.LastMapped {
			release = func(from, to int) { mmap.Drop(o.Last[from:to]) }
		}
		if !mmap.Guard(func() { err = o.Cache.writeYAML(w, doc, o.Last, release) }) {
			return ErrCutShort
		}
		return err
	}
	return writeYAML(w, doc)
}
