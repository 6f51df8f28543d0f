package store

import (
	"context"
	"sync"

	"github.com/noggin-go/noggin/core/noggin"
)

// hub fans events out to subscribers. Each subscriber has a queue, so
// publishing never blocks a writer, and a goroutine that feeds its channel
// in order. An event published while the subscriber has not taken the last
// one is merged into it (see merge): a subscriber that stops reading holds
// one pending document, not one per write. publish is called with the
// store's state lock held, which fixes one global event order.
type hub struct {
	mu   sync.Mutex
	subs map[*subscriber]struct{}
	// first and last run (under mu) when the first subscriber arrives and
	// when the last one leaves (start/stop polling).
	first, last func()
}

type subscriber struct {
	mu     sync.Mutex
	queue  []noggin.Event
	signal chan struct{}
	// owned: the last queued event's Changes were built by merge, for this
	// subscriber alone, and may be appended to in place.
	owned bool
}

// merge queues ev, or folds it into what the subscriber has not taken
// yet, which stays at most a change event and a failed reload: a change
// goes into the pending change event (the later document, the changes of
// both in order, as a reload that catches several writes at once reports
// them); a failed reload still pending is replaced by a later one, and
// dropped by a later change (which the store diffs against the last
// document it read, the one before the failure). Called with s.mu held.
func (s *subscriber) merge(ev noggin.Event) {
	n := len(s.queue)
	if n > 0 && s.queue[n-1].Err != nil {
		s.queue[n-1] = noggin.Event{}
		s.queue, n = s.queue[:n-1], n-1
	}
	if ev.Err != nil || n == 0 {
		s.queue = append(s.queue, ev)
		if n == 0 {
			s.owned = false
		}
		return
	}
	last := &s.queue[n-1]
	if !s.owned { // shared with the other subscribers: copy before appending
		last.Changes = append(make([]noggin.Change, 0, 2*(len(last.Changes)+len(ev.Changes))), last.Changes...)
		s.owned = true
	}
	last.Changes = append(last.Changes, ev.Changes...)
	last.Doc = ev.Doc
}

// active reports whether anyone is subscribed.
func (h *hub) active() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs) > 0
}

// publish queues ev for every current subscriber.
func (h *hub) publish(ev noggin.Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.subs {
		s.mu.Lock()
		s.merge(ev)
		s.mu.Unlock()
		select {
		case s.signal <- struct{}{}:
		default:
		}
	}
}

// watch subscribes until ctx is done; the returned channel is then closed.
func (h *hub) watch(ctx context.Context) <-chan noggin.Event {
	s := &subscriber{signal: make(chan struct{}, 1)}
	h.mu.Lock()
	if h.subs == nil {
		h.subs = map[*subscriber]struct{}{}
	}
	h.subs[s] = struct{}{}
	if len(h.subs) == 1 && h.first != nil {
		h.first()
	}
	h.mu.Unlock()

	out := make(chan noggin.Event)
	go func() {
		defer close(out)
		defer func() {
			h.mu.Lock()
			delete(h.subs, s)
			if len(h.subs) == 0 && h.last != nil {
				h.last()
			}
			h.mu.Unlock()
		}()
		for {
			s.mu.Lock()
			var ev noggin.Event
			have := len(s.queue) > 0
			if have {
				ev = s.queue[0]
				s.queue[0] = noggin.Event{}
				s.queue = s.queue[1:]
			}
			s.mu.Unlock()
			if !have {
				select {
				case <-s.signal:
					continue
				case <-ctx.Done():
					return
				}
			}
			select {
			case out <- ev:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}

// SnapshotWatcher is a store that can hand out its document and a
// subscription to the changes after it atomically (Subscribe uses it).
type SnapshotWatcher interface {
	SnapshotWatch(ctx context.Context) (*noggin.Document, <-chan noggin.Event, error)
}

// Hub fans a store's change events out to its watchers, for stores kept
// outside this package: each watcher has a queue (see hub), so Publish
// never blocks a writer. Publish under the store's own lock to fix one
// event order. The zero Hub is ready to use.
type Hub struct{ h hub }

// Publish queues ev for every current watcher.
func (h *Hub) Publish(ev noggin.Event) { h.h.publish(ev) }

// Watch subscribes until ctx is done; the returned channel is then closed.
func (h *Hub) Watch(ctx context.Context) <-chan noggin.Event { return h.h.watch(ctx) }

// Active reports whether anyone watches.
func (h *Hub) Active() bool { return h.h.active() }

// Subscribe returns the current document of s together with a subscription
// to every change after it: no change is both in the document and an
// event, and none is missed (for the stores of this package; other Store
// implementations get Watch followed by Load). The channel is closed when
// ctx is done. On error there is no subscription.
func Subscribe(ctx context.Context, s noggin.Store) (*noggin.Document, <-chan noggin.Event, error) {
	if sw, ok := s.(SnapshotWatcher); ok {
		return sw.SnapshotWatch(ctx)
	}
	ctx, cancel := context.WithCancel(ctx)
	ch := s.Watch(ctx)
	doc, err := s.Load(ctx)
	if err != nil {
		cancel()
		return nil, nil, err
	}
	context.AfterFunc(ctx, cancel)
	return doc, ch, nil
}

// SnapshotWatch implements SnapshotWatcher.
func (s *fileStore) SnapshotWatch(ctx context.Context) (*noggin.Document, <-chan noggin.Event, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	doc, err := s.refreshLocked(true)
	if err != nil {
		return nil, nil, err
	}
	// Events are published under s.mu, so none can fall between the two.
	return doc, s.hub.watch(ctx), nil
}

// SnapshotWatch implements SnapshotWatcher.
func (m *memStore) SnapshotWatch(ctx context.Context) (*noggin.Document, <-chan noggin.Event, error) {
	m.state.mu.Lock()
	defer m.state.mu.Unlock()
	return m.state.doc, m.state.hub.watch(ctx), nil
}
