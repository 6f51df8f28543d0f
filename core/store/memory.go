package store

import (
	"context"
	"runtime"
	"slices"
	"sync"
	"weak"

	"github.com/noggin-go/noggin/core/internal/codec"
	"github.com/noggin-go/noggin/core/noggin"
)

// memState is one in-memory noggin, shared by every handle opened on the
// same memory://label in this process.
type memState struct {
	wmu turn       // serialises Update
	mu  sync.Mutex // guards doc
	doc *noggin.Document
	hub hub
	// journal is the history, digest the digest of doc once worked out
	// (both guarded by mu).
	journal []noggin.Entry
	digest  string
}

// memStore is a handle on a memState. The registry holds states weakly, so
// a state lives as long as some handle does.
type memStore struct {
	location string
	state    *memState
}

var memRegistry = struct {
	sync.Mutex
	m map[string]weak.Pointer[memState]
}{m: map[string]weak.Pointer[memState]{}}

// openMemory returns a handle on the shared state of label.
func openMemory(label string) *memStore {
	memRegistry.Lock()
	defer memRegistry.Unlock()
	if wp, ok := memRegistry.m[label]; ok {
		if st := wp.Value(); st != nil {
			return &memStore{location: "memory://" + label, state: st}
		}
	}
	st := &memState{doc: noggin.NewDocument(), wmu: newTurn()}
	wp := weak.Make(st)
	memRegistry.m[label] = wp
	runtime.AddCleanup(st, func(label string) {
		memRegistry.Lock()
		defer memRegistry.Unlock()
		if cur, ok := memRegistry.m[label]; ok && cur == wp {
			delete(memRegistry.m, label)
		}
	}, label)
	return &memStore{location: "memory://" + label, state: st}
}

// NewMemory returns an independent in-memory noggin (not shared through
// the registry) starting from initial (nil = empty). location is what
// Describe returns.
func NewMemory(location string, initial *noggin.Document) noggin.Store {
	if initial == nil {
		initial = noggin.NewDocument()
	}
	return &memStore{location: location, state: &memState{doc: initial, wmu: newTurn()}}
}

func (m *memStore) Describe() string { return m.location }

func (m *memStore) Load(ctx context.Context) (*noggin.Document, error) {
	if err := noggin.Cancelled(ctx); err != nil {
		return nil, err
	}
	m.state.mu.Lock()
	defer m.state.mu.Unlock()
	return m.state.doc, nil
}

func (m *memStore) Update(ctx context.Context, w noggin.Write) (*noggin.Document, error) {
	doc, err := m.Load(ctx)
	if err != nil {
		return nil, err
	}
	h := m.history(ctx, doc)
	ops, err := w.Plan(doc, h)
	if err != nil {
		return nil, err
	}
	if len(ops) == 0 {
		return doc, nil
	}
	st := m.state
	if err := st.wmu.take(ctx); err != nil {
		return nil, err
	}
	defer st.wmu.give()
	fresh, err := m.Load(ctx)
	if err != nil {
		return nil, err
	}
	if fresh != doc {
		h = m.history(ctx, fresh)
		if ops, err = w.Plan(fresh, h); err != nil {
			return nil, err
		}
		if len(ops) == 0 {
			return fresh, nil
		}
	}
	next, err := noggin.Apply(fresh, ops)
	if err != nil {
		return nil, err
	}
	before := h.Digest() // before taking mu: the digest may need it
	st.mu.Lock()
	defer st.mu.Unlock()
	st.digest = ""
	if e, err := noggin.NewEntry(w, h, fresh, ops); err == nil {
		e.Before, e.After = before, memDigest(next)
		st.digest = e.After
		e.Seq = 1
		if n := len(st.journal); n > 0 {
			e.Seq = st.journal[n-1].Seq + 1
		}
		st.journal = append(st.journal, e)
		if len(st.journal) > noggin.MaxHistory {
			st.journal = slices.Clone(st.journal[len(st.journal)-noggin.MaxHistory:])
		}
	}
	st.doc = next
	if st.hub.active() {
		if ev, ok := noggin.WatchEvent(fresh, next); ok {
			st.hub.publish(ev)
		}
	}
	return next, nil
}

// history is the memory noggin's history as of doc.
func (m *memStore) history(ctx context.Context, doc *noggin.Document) *noggin.History {
	return noggin.NewHistory(func() (noggin.Journal, error) { return m.History(ctx) },
		func(like string) string {
			st := m.state
			st.mu.Lock()
			defer st.mu.Unlock()
			if st.doc == doc && st.digest != "" && sameScheme(st.digest, like) {
				return st.digest // written by the last Update
			}
			return digestLike(codec.EncodeJSON(doc), like, nil)
		})
}

// History returns the entries of the memory noggin's writes.
func (m *memStore) History(ctx context.Context) (noggin.Journal, error) {
	if err := noggin.Cancelled(ctx); err != nil {
		return noggin.Journal{}, err
	}
	m.state.mu.Lock()
	defer m.state.mu.Unlock()
	return noggin.Journal{Entries: slices.Clone(m.state.journal), Missing: len(m.state.journal) == 0}, nil
}

// memDigest is the digest of a memory noggin: of its JSON encoding.
func memDigest(doc *noggin.Document) string { return digestOf(codec.EncodeJSON(doc)) }

func (m *memStore) Watch(ctx context.Context) <-chan noggin.Event { return m.state.hub.watch(ctx) }
