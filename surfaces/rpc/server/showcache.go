package server

import (
	"context"
	"sync"

	"github.com/noggin-go/noggin/core/noggin"
	nogginv1 "github.com/noggin-go/noggin/surfaces/rpc/gen/noggin/v1"
	"github.com/noggin-go/noggin/surfaces/rpc/internal/convert"
)

// showCache memoises read-only Show results (and the snapshot message) per
// noggin. A view is a pure
// function of the document and the show options, and a store returns the
// same *Document until the noggin changes (documents are never mutated in
// place), so a result is reused while the store hands out the same
// document pointer. Cached messages are only marshalled, never modified.
type showCache struct {
	mu      sync.Mutex
	entries map[noggin.Store]*showEntry
}

type showEntry struct {
	doc      *noggin.Document
	views    map[showKey]*nogginv1.View
	snapshot *nogginv1.Document // the converted doc, once asked for
}

type showKey struct {
	path                                      string
	noChildren, withSiblings, withDescendants bool
}

// maxShowViews bounds the cached views per noggin.
const maxShowViews = 64

func (c *showCache) get(st noggin.Store, doc *noggin.Document, k showKey) (*nogginv1.View, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entries[st]
	if e == nil || e.doc != doc {
		return nil, false
	}
	v, ok := e.views[k]
	return v, ok
}

func (c *showCache) put(st noggin.Store, doc *noggin.Document, k showKey, v *nogginv1.View) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil {
		c.entries = map[noggin.Store]*showEntry{}
	}
	e := c.entries[st]
	if e == nil || e.doc != doc {
		e = &showEntry{doc: doc, views: map[showKey]*nogginv1.View{}}
		c.entries[st] = e
	}
	if len(e.views) >= maxShowViews {
		clear(e.views)
	}
	e.views[k] = v
}

// document returns the snapshot message of doc, converting it once per
// document (Snapshot calls and every watcher of one event share it).
func (c *showCache) document(ctx context.Context, st noggin.Store, doc *noggin.Document) *nogginv1.Document {
	c.mu.Lock()
	var cached *nogginv1.Document
	if e := c.entries[st]; e != nil && e.doc == doc {
		cached = e.snapshot // read under the lock: another call may set it
	}
	c.mu.Unlock()
	if cached != nil {
		return cached
	}
	p := convert.DocumentToProto(doc)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil {
		c.entries = map[noggin.Store]*showEntry{}
	}
	e := c.entries[st]
	if e == nil || e.doc != doc {
		// Only move the entry forward: a lagging watcher's older document
		// must not evict the current one.
		cur, err := st.Load(ctx)
		if err != nil || cur != doc {
			return p
		}
		e = &showEntry{doc: doc, views: map[showKey]*nogginv1.View{}}
		c.entries[st] = e
	}
	e.snapshot = p
	return p
}
