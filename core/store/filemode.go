package store

import (
	"errors"
	"sync"

	"github.com/noggin-go/noggin/core/internal/codec"
	"github.com/noggin-go/noggin/core/internal/mmap"
	"github.com/noggin-go/noggin/core/noggin"
)

// fileMode is what differs between the two kinds of file store. A one-shot
// store (a CLI run, Options.MapFiles) maps the file and keeps its bytes, so
// that its one write copies the unchanged items from them; it ends with the
// process. A long-lived store (a server) keeps the file's digest instead,
// not a second copy of a large noggin, and copies unchanged items from the
// file as it last wrote it (codec.ItemCache).
type fileMode interface {
	// load reads and decodes the file.
	load(s *fileStore) (loadedFile, error)
	// keep is what the cache holds of a version read as raw with digest
	// ("" when not known).
	keep(raw []byte, digest string) ([]byte, string)
	// unchanged reports whether the file still holds the cached version
	// (under s.mu).
	unchanged(s *fileStore) bool
	// digestCached is the digest, in like's scheme, of the cached version
	// (under s.mu).
	digestCached(s *fileStore, like string) string
	// current fills c, the version a write found cached, with what the
	// write needs of its bytes (under s.mu).
	current(s *fileStore, c *current)
	// holds reports whether the file, under the lock, is still c's version.
	holds(s *fileStore, c *current) bool
	// digest is the digest, in like's scheme, of c's version.
	digest(s *fileStore, c current, like string) string
	// before is the journal entry's before: the digest of the version the
	// write replaces (h.Digest).
	before(h *noggin.History) func() string
	// encode writes doc's YAML into w, copying unchanged items' bytes when
	// that copy is sound (see writeAtomic).
	encode(s *fileStore, w *summed, doc *noggin.Document, src *codec.Source, trusted func() bool, last []byte, lastMapped bool, st stamp) error
	// written records a write whose file has digest after (under s.mu).
	written(s *fileStore, after string)
}

// oneShot is the mode of a one-shot store.
type oneShot struct{}

// longLived is the mode of a long-lived store.
type longLived struct{}

func (oneShot) load(s *fileStore) (f loadedFile, err error) {
	f.raw, f.mapped, err = s.read(true)
	if err != nil {
		return loadedFile{}, err
	}
	if f.mapped {
		if f.doc, f.src, err = s.decode(f.raw, true, true); !errors.Is(err, codec.ErrCutShort) {
			return f, err
		}
		// The file shrank while mapped (rewritten in place): read it.
		f.mapped = false
		if f.raw, _, err = s.read(false); err != nil {
			return loadedFile{}, err
		}
	}
	f.doc, f.src, err = s.decode(f.raw, false, true)
	return f, err
}

func (longLived) load(s *fileStore) (f loadedFile, err error) {
	if f, ok, err := s.loadDropping(); ok {
		return f, err
	}
	f.raw, _, err = s.read(false)
	if err != nil {
		return loadedFile{}, err
	}
	f.digest = digestOf(f.raw)
	if doc, ok := s.replay(f.digest); ok {
		f.doc, f.raw = doc, nil
		return f, nil
	}
	f.doc, _, err = s.decode(f.raw, false, false)
	f.raw = nil
	return f, err
}

func (oneShot) keep(raw []byte, digest string) ([]byte, string) { return raw, digest }

func (longLived) keep(raw []byte, digest string) ([]byte, string) {
	if digest == "" {
		digest = digestOf(raw)
	}
	return nil, digest
}

// A one-shot store compares the file with the bytes it has; a long-lived
// one by digest.
func (oneShot) unchanged(s *fileStore) bool {
	return s.sameFile(s.cachedRawLocked(), &s.scratch)
}

func (longLived) unchanged(s *fileStore) bool {
	b, mapped, same := s.fileHolds(s.digest, false, &s.scratch)
	if mapped {
		mmap.Unmap(b)
	}
	return same
}

func (oneShot) digestCached(s *fileStore, like string) string {
	return s.digestRaw(s.cachedRawLocked(), s.shot.mapped, like)
}

func (longLived) digestCached(s *fileStore, like string) string {
	return s.digestFile(s.digest, like, &s.scratch)
}

func (oneShot) current(s *fileStore, c *current) {
	c.raw, c.rawMapped = s.cachedRawLocked(), s.shot.mapped
}

func (longLived) current(*fileStore, *current) {}

// A mapping shows the file's current bytes, not those the document was
// read from: comparing it with the file proves nothing (the stamp decided).
func (oneShot) holds(s *fileStore, c *current) bool {
	return !c.rawMapped && s.sameFile(c.raw, &s.wscratch)
}

// A long-lived store also maps the file as it last wrote it, for the
// write to copy the unchanged items from (c.last).
func (longLived) holds(s *fileStore, c *current) bool {
	keep := !s.jsonFile && c.digest == s.live.itemsDigest
	var same bool
	c.last, c.lastMapped, same = s.fileHolds(c.digest, keep, &s.wscratch)
	return same
}

func (oneShot) digest(s *fileStore, c current, like string) string {
	return s.digestRaw(c.raw, c.rawMapped, like)
}

func (longLived) digest(s *fileStore, c current, like string) string {
	return s.digestFile(c.digest, like, &s.wscratch)
}

// A one-shot store works the digest out from the file's bytes, on another
// goroutine while the write applies its ops and writes; the caller waits
// for it on every return (the digest reads the mapping).
func (oneShot) before(h *noggin.History) func() string {
	digest := make(chan string, 1)
	go func() { digest <- h.Digest() }()
	return sync.OnceValue(func() string { return <-digest })
}

func (longLived) before(h *noggin.History) func() string { return h.Digest }

func (oneShot) encode(s *fileStore, w *summed, doc *noggin.Document, src *codec.Source, trusted func() bool, _ []byte, _ bool, st stamp) error {
	if src != nil {
		if beforeSplice != nil {
			beforeSplice()
		}
		err := codec.Write(w, doc, codec.WriteOptions{From: src})
		if !errors.Is(err, codec.ErrCutShort) && s.unchanged(st) && trusted() {
			return err
		}
		if err = w.restart(); err != nil { // the copy was not sound: encode all
			return err
		}
	}
	if err := decodeAll(doc); err != nil { // a lazy read's items, to encode
		return err
	}
	return codec.Write(w, doc, codec.WriteOptions{})
}

func (longLived) encode(s *fileStore, w *summed, doc *noggin.Document, _ *codec.Source, _ func() bool, last []byte, lastMapped bool, st stamp) error {
	if beforeSplice != nil && last != nil {
		beforeSplice()
	}
	err := codec.Write(w, doc, codec.WriteOptions{Cache: &s.live.items, Last: last, LastMapped: lastMapped})
	if !errors.Is(err, codec.ErrCutShort) && (last == nil || s.unchanged(st)) {
		return err
	}
	if err = w.restart(); err != nil { // the copy was not sound: encode all
		return err
	}
	return codec.Write(w, doc, codec.WriteOptions{Cache: &s.live.items})
}

// After a write, a one-shot store's file is encode(next), rebuilt on demand
// (cachedRawLocked); a long-lived store's item cache holds what it wrote.
func (oneShot) written(s *fileStore, _ string) { s.shot.rawDoc = true }

func (longLived) written(s *fileStore, after string) {
	if !s.jsonFile {
		s.live.itemsDigest = after
	}
}
