package store

import (
	"context"
	"io"
	"time"

	"github.com/noggin-go/noggin/core/internal/codec"
	"github.com/noggin-go/noggin/core/internal/mmap"
	"github.com/noggin-go/noggin/core/noggin"
)

// LazyLoader is a store that can read a noggin for a caller that reads
// few of its items (see noggin.Undecoded).
type LazyLoader interface {
	// LoadLazy is Load, except that the document may hold items left
	// undecoded: it must go only where noggin.Undecoded allows.
	LoadLazy(ctx context.Context) (*noggin.Document, error)
}

// RecentLoader is a store whose Load asks somewhere else (a database)
// for the noggin's last commit. A write plans on that commit under its own
// lock (Update) whatever was loaded before it, so the request layer loads
// the noggin of a write that reads it only there with LoadRecent: the last
// commit this process knows, without asking.
type RecentLoader interface {
	LoadRecent(ctx context.Context) (*noggin.Document, error)
}

// LoadLazy is Load for a verb that reads few of the noggin's items
// (noggin.Undecoded). A one-shot store reads a file that this build wrote
// — its length and CRC-32 are those of the journal's last after — for its
// items' keys and parent keys only, and the engine decodes the few items
// the verb reads, changes or shows: a push on a 10k-item noggin decodes a
// dozen items instead of 10,000, and its write copies the others' bytes.
// Any other file, and any other store, is read whole, as Load does. The
// lazy document becomes the store's, so that the verb's write plans on it
// (Update), and its mapping stays until the process ends, as a one-shot
// store's mappings do.
//
// The CRC-32 is the cheaper half of the digest, as in the long-lived
// store's check, which also trusts a file of the length and CRC-32 it
// wrote: an edit that keeps both (odds of 1 in 2^32) would be read in this
// encoder's layout, its items copied as they are by a write, and the
// journal's last after taken as the file's digest (a write's before).
func (s *fileStore) LoadLazy(ctx context.Context) (*noggin.Document, error) {
	if _, one := s.mode.(oneShot); !one || s.jsonFile {
		return s.Load(ctx)
	}
	if err := noggin.Cancelled(ctx); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.loaded {
		now := time.Now()
		if st, err := s.stat(); err == nil {
			if doc, raw, src, digest := s.lazyLocked(); doc != nil {
				// This build validated the file before it wrote it.
				noggin.AssumeValid(doc)
				s.doc, s.shot.raw, s.shot.rawDoc, s.st, s.checked, s.loaded = doc, raw, false, st, now, true
				s.digest, s.shot.src, s.shot.mapped, s.shot.lazy = digest, src, true, true
				s.setRevision(doc, digest)
				return doc, nil
			}
		}
	}
	return s.refreshLocked(true)
}

// lazyLocked reads the file lazily if this build wrote it (nil if not),
// returning its mapping, the Source of its items and its digest (the
// journal's last after, whose length and CRC-32 it has) too.
func (s *fileStore) lazyLocked() (*noggin.Document, []byte, *codec.Source, string) {
	after := journalLastAfter(s.fsy, s.name+historySuffix)
	n, sum, ok := lengthAndCRC32(after)
	if !ok || n == 0 {
		return nil, nil, nil, ""
	}
	raw, mapped, err := s.read(true)
	if err != nil || !mapped {
		return nil, nil, nil, ""
	}
	// The read and the CRC go over the file in one pass; what the read made
	// of it is used only if the CRC is the journal's.
	if int64(len(raw)) == n {
		var got uint32
		doc, src, err := codec.Decode(raw, codec.Options{Mapped: true, Lazy: true, Changed: s.changedError(), CRC32: &got})
		if err == nil && got == sum {
			// No CheckKeys: this build checked the keys before it wrote them.
			return doc, raw, src, after
		}
	}
	mmap.Unmap(raw)
	return nil, nil, nil, ""
}

// decodeAll decodes every item of doc that a lazy read left undecoded,
// for a write that encodes them all.
func decodeAll(doc *noggin.Document) error {
	for _, it := range doc.Items {
		if err := it.Decode(); err != nil {
			return err
		}
	}
	return nil
}

// changedError is what a show returns when an item it reads lazily is no
// longer in the file (rewritten in place by a tool that ignores the lock).
func (s *fileStore) changedError() error {
	return s.readError("the file changed while it was read; try again")
}

// journalLastAfter is the after of the last line of the journal name ("" if
// there is none, or it cannot be read): only the journal's end is read.
func journalLastAfter(fsy fsys, name string) string {
	f, err := fsy.Open(name)
	if err != nil {
		return ""
	}
	defer f.Close()
	size, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		return ""
	}
	tail, _, err := readTail(f, size, make([]byte, journalChunk))
	if err != nil {
		return ""
	}
	return lastAfter(tail)
}
