package store

import (
	"context"
	"runtime"
	"sync"
	"weak"

	"github.com/noggin-go/noggin/core/noggin"
)

// memState is one in-memory noggin, shared by every handle opened on the
// same memory://label in this process.
type memState struct {
	wmu turn       // serialises Update
	mu  sync.Mutex // guards doc
	doc *noggin.Document
	hub hub
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

func (m *memStore) Update(ctx context.Context, plan func(doc *noggin.Document) ([]noggin.Op, error)) (*noggin.Document, error) {
	doc, err := m.Load(ctx)
	if err != nil {
		return nil, err
	}
	ops, err := plan(doc)
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
		if ops, err = plan(fresh); err != nil {
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
	st.mu.Lock()
	defer st.mu.Unlock()
	st.doc = next
	if st.hub.active() {
		if ch := noggin.Diff(fresh, next); len(ch) > 0 {
			st.hub.publish(noggin.Event{Changes: ch, Doc: next})
		}
	}
	return next, nil
}

func (m *memStore) Watch(ctx context.Context) <-chan noggin.Event { return m.state.hub.watch(ctx) }
