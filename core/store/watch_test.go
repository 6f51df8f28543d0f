package store

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/noggin-go/noggin/core/noggin"
)

// summary renders a change list compactly for comparisons.
func summary(ch []noggin.Change) []string {
	var out []string
	for _, c := range ch {
		switch c.Kind {
		case noggin.ChangeActiveChanged:
			out = append(out, "active:"+c.FromKey+">"+c.ToKey)
		default:
			out = append(out, string(c.Kind)+":"+c.Key)
		}
	}
	return out
}

// next receives one event or fails after a generous deadline (only reached
// when the test fails).
func next(t *testing.T, ch <-chan noggin.Event) noggin.Event {
	t.Helper()
	select {
	case ev, ok := <-ch:
		if !ok {
			t.Fatal("channel closed")
		}
		return ev
	case <-time.After(20 * time.Second):
		t.Fatal("no event")
	}
	return noggin.Event{}
}

func TestWatchFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.yaml")
	o := Options{PollInterval: 5 * time.Millisecond}
	s := mustOpen(t, p, o)
	ctx, cancel := context.WithCancel(context.Background())
	w1, w2 := s.Watch(ctx), s.Watch(ctx)

	// Own writes: events are queued before Update returns.
	mustAdd(t, s, "k1")
	mustAdd(t, s, "k2")
	// A write that changes nothing observable fires nothing.
	if _, err := s.Update(context.Background(), planOf(func(*noggin.Document) ([]noggin.Op, error) {
		return []noggin.Op{{Type: noggin.OpSetActive}}, nil
	})); err != nil {
		t.Fatal(err)
	}
	_, err := s.Update(context.Background(), planOf(func(*noggin.Document) ([]noggin.Op, error) {
		return []noggin.Op{{Type: noggin.OpSetActive, Key: "k1"}}, nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	// An external write by another handle (another process, as far as s
	// knows), picked up by polling.
	mustAdd(t, mustOpen(t, p, Options{}), "k3")

	// Events a watcher has not taken yet are merged: the changes arrive in
	// order, in one event or several.
	want := []string{"added:k1", "added:k2", "active:>k1", "added:k3"}
	for _, w := range []<-chan noggin.Event{w1, w2} {
		var got []string
		for len(got) < len(want) {
			ev := next(t, w)
			if ev.Err != nil {
				t.Fatalf("error event %v after %v", ev.Err, got)
			}
			got = append(got, summary(ev.Changes)...)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("changes %v, want %v", got, want)
		}
	}
	// An external write that breaks the file (atomically, as a careful
	// editor would): one error event, the cached document is kept.
	tmp := p + ".editor"
	if err := os.WriteFile(tmp, []byte("items: [\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, p); err != nil {
		t.Fatal(err)
	}
	for _, w := range []<-chan noggin.Event{w1, w2} {
		ev := next(t, w)
		if errCode(ev.Err) != noggin.CodeInvalidDocument || len(ev.Changes) != 0 {
			t.Fatalf("want an error event, got %+v", ev)
		}
	}
	cancel()
	for _, w := range []<-chan noggin.Event{w1, w2} {
		for range w { // drains, then closed
		}
	}
	// Unsubscribed: polling stopped.
	fs := s.(*fileStore)
	waitFor(t, func() bool { fs.hub.mu.Lock(); defer fs.hub.mu.Unlock(); return fs.stopPoll == nil })
}

// TestWatchLateSubscriberAndOrder: a subscriber that does not read while
// 30 writes pass holds one pending event, not 30 documents: it gets the
// event it was already handed (the first write), then one event with the
// other 29 changes in order and the last document, and nothing more.
func TestWatchLateSubscriberAndOrder(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.yaml")
	s := mustOpen(t, p, Options{PollInterval: time.Hour})
	mustAdd(t, s, "k0") // before anyone watches: not an event
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := s.Watch(ctx)
	const n = 30
	var want []string
	for i := 1; i <= n; i++ {
		mustAdd(t, s, "k"+strconv.Itoa(i))
		want = append(want, "added:k"+strconv.Itoa(i))
	}
	s.(*fileStore).hub.queuedAtMost(t, 1)
	var got []string
	var last *noggin.Document
	for len(got) < n {
		ev := next(t, w)
		got = append(got, summary(ev.Changes)...)
		last = ev.Doc
	}
	if !reflect.DeepEqual(got, want) || len(last.Items) != n+1 {
		t.Fatalf("changes %v with %d items, want %v with %d", got, len(last.Items), want, n+1)
	}
	select {
	case ev := <-w:
		t.Fatalf("extra event %+v", ev)
	case <-time.After(50 * time.Millisecond):
	}
}

// TestWatchSlowAndFastSubscribers: a subscriber that reads every event
// and one that reads none until the end each get every change once, in
// order (the events they are handed share their change lists until a
// merge copies one).
func TestWatchSlowAndFastSubscribers(t *testing.T) {
	var h hub
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	slow, fast := h.watch(ctx), h.watch(ctx)
	change := func(k string) noggin.Event {
		ch := make([]noggin.Change, 1, 8) // room to append in place: a merge must not
		ch[0] = noggin.Change{Kind: noggin.ChangeAdded, Key: k}
		return noggin.Event{Changes: ch, Doc: &noggin.Document{}}
	}
	var fastGot []string
	for i := range 5 {
		h.publish(change("k" + strconv.Itoa(i)))
		fastGot = append(fastGot, summary(next(t, fast).Changes)...)
	}
	var slowGot []string
	for len(slowGot) < 5 {
		slowGot = append(slowGot, summary(next(t, slow).Changes)...)
	}
	want := []string{"added:k0", "added:k1", "added:k2", "added:k3", "added:k4"}
	if !reflect.DeepEqual(fastGot, want) || !reflect.DeepEqual(slowGot, want) {
		t.Fatalf("fast %v, slow %v, want %v each", fastGot, slowGot, want)
	}
}

// TestWatchStalledThroughFailures: a subscriber that does not read while
// reloads fail and succeed in turn holds at most a change event and a
// failed reload: it gets every change once, in order, and the last
// failure, which no success followed.
func TestWatchStalledThroughFailures(t *testing.T) {
	var h hub
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := h.watch(ctx)
	var want []string
	for i := range 50 {
		k := "k" + strconv.Itoa(i)
		h.publish(noggin.Event{Changes: []noggin.Change{{Kind: noggin.ChangeAdded, Key: k}}, Doc: &noggin.Document{}})
		want = append(want, "added:"+k)
		h.publish(noggin.Event{Err: noggin.Errorf(noggin.CodeInvalidDocument, "broken %d", i)})
	}
	h.queuedAtMost(t, 2)
	var got []string
	var lastErr error
	for lastErr == nil || len(got) < len(want) {
		ev := next(t, w)
		got = append(got, summary(ev.Changes)...)
		lastErr = ev.Err
	}
	if !reflect.DeepEqual(got, want) || !strings.Contains(lastErr.Error(), "broken 49") {
		t.Fatalf("changes %v, last error %v; want %v and broken 49", got, lastErr, want)
	}
}

// queuedAtMost fails unless the hub's one subscriber has at most n events
// queued.
func (h *hub) queuedAtMost(t *testing.T, n int) {
	t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.subs) != 1 {
		t.Fatalf("%d subscribers, want 1", len(h.subs))
	}
	for s := range h.subs {
		s.mu.Lock()
		queued := len(s.queue)
		s.mu.Unlock()
		if queued > n {
			t.Fatalf("%d events queued for a subscriber that does not read, want at most %d", queued, n)
		}
	}
}

func TestWatchSeesChangeAbsorbedByLoad(t *testing.T) {
	// An external change noticed by Load (not the poll) is still an event.
	p := filepath.Join(t.TempDir(), "x.yaml")
	s := mustOpen(t, p, Options{PollInterval: time.Hour})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := s.Watch(ctx)
	mustAdd(t, mustOpen(t, p, Options{}), "k1")
	if _, err := s.Load(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := summary(next(t, w).Changes); !reflect.DeepEqual(got, []string{"added:k1"}) {
		t.Fatalf("event = %v", got)
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for range 2000 {
		if cond() {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("condition not reached")
}

func TestSubscribeIsAtomic(t *testing.T) {
	for _, kind := range []string{"file", "memory"} {
		t.Run(kind, func(t *testing.T) {
			loc := filepath.Join(t.TempDir(), "x.yaml")
			if kind == "memory" {
				loc = "memory://" + strings.ReplaceAll(t.TempDir(), "/", "_") // unique per run
			}
			s := mustOpen(t, loc, Options{Memory: true, PollInterval: time.Hour})
			const n = 40
			done := make(chan error, 1)
			go func() {
				for i := range n {
					if err := addItem(s, "k"+strconv.Itoa(i)); err != nil {
						done <- err
						return
					}
				}
				done <- nil
			}()
			time.Sleep(time.Millisecond)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			doc, ch, err := Subscribe(ctx, s)
			if err != nil {
				t.Fatal(err)
			}
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			// The writes after the document, each once, in order (the ones
			// not taken yet merged into one event).
			have := len(doc.Items)
			for have < n {
				ev := next(t, ch)
				var want []string
				for i := have; i < have+len(ev.Changes); i++ {
					want = append(want, "added:k"+strconv.Itoa(i))
				}
				if got := summary(ev.Changes); len(got) == 0 || !reflect.DeepEqual(got, want) || len(ev.Doc.Items) != have+len(got) {
					t.Fatalf("event %v with %d items, want %v", got, len(ev.Doc.Items), want)
				}
				have += len(ev.Changes)
			}
		})
	}
}

// TestWatchNotified: with polling out of the picture (an hour), a write by
// another process reaches watchers through the kernel's notification, in a
// plain directory and inside a root.
func TestWatchNotified(t *testing.T) {
	for _, rooted := range []bool{false, true} {
		dir := t.TempDir()
		o := Options{PollInterval: time.Hour}
		loc := filepath.Join(dir, "n.yaml")
		if rooted {
			o.Root, loc = dir, "n.yaml"
		}
		s := mustOpen(t, loc, o)
		ctx, cancel := context.WithCancel(context.Background())
		w := s.Watch(ctx)
		mustAdd(t, mustOpen(t, filepath.Join(dir, "n.yaml"), Options{}), "k1")
		if ev := next(t, w); ev.Err != nil || !reflect.DeepEqual(summary(ev.Changes), []string{"added:k1"}) {
			t.Fatalf("rooted %v: event = %v (err %v)", rooted, summary(ev.Changes), ev.Err)
		}
		cancel()
		for range w {
		}
	}
}
