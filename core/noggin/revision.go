package noggin

import (
	"context"
	"sync"
)

// A revision is an opaque token derived from a noggin's content (a file's:
// the digest of its bytes), so that any write by any tool — the original
// included, which knows nothing of it — makes a new one, and the same
// content has the same one. Every document a store hands out names its
// own (Revision).

// SetRevision records how to name doc's revision: rev (called at most
// once, when asked) is the store's digest of the content doc was read from
// or written as, "" when it cannot tell. Stores call it before they hand
// doc out.
func (doc *Document) SetRevision(rev func() string) {
	doc.memo.rev.Store(sync.OnceValue(rev))
}

// Revision is the revision of the noggin doc was read from or written to
// ("" when its store named none).
func (doc *Document) Revision() string {
	if doc == nil {
		return ""
	}
	if doc.base != nil {
		doc = doc.base
	}
	if rev, _ := doc.memo.rev.Load().(func() string); rev != nil {
		return rev()
	}
	return ""
}

// Expecting returns s whose writes write nothing and fail with
// stale-revision unless the noggin, under the write's lock, is still at
// revision rev. s itself for rev "".
func Expecting(s Store, rev string) Store {
	if rev == "" {
		return s
	}
	return expectStore{Store: s, rev: rev}
}

type expectStore struct {
	Store
	rev string
}

func (e expectStore) Update(ctx context.Context, w Write) (*Document, error) {
	plan := w.Plan
	w.Plan = func(d *Document, h *History) ([]Op, error) {
		// "": the store cannot tell here (a first pass outside the lock
		// on a document that changed meanwhile); the pass under the lock
		// decides.
		if cur := h.DigestLike(e.rev); cur != "" && cur != e.rev {
			return nil, NewError(CodeStaleRevision, F("expected", e.rev), F("revision", cur))
		}
		return plan(d, h)
	}
	return e.Store.Update(ctx, w)
}
