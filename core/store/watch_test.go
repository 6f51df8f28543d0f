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

	want := [][]string{{"added:k1"}, {"added:k2"}, {"active:>k1"}, {"added:k3"}}
	for _, w := range []<-chan noggin.Event{w1, w2} {
		for i, wantEv := range want {
			ev := next(t, w)
			if ev.Err != nil || !reflect.DeepEqual(summary(ev.Changes), wantEv) {
				t.Fatalf("event %d = %v (err %v), want %v", i, summary(ev.Changes), ev.Err, wantEv)
			}
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

func TestWatchLateSubscriberAndOrder(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.yaml")
	s := mustOpen(t, p, Options{PollInterval: time.Hour})
	mustAdd(t, s, "k0") // before anyone watches: not an event
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := s.Watch(ctx)
	const n = 30
	for i := 1; i <= n; i++ {
		mustAdd(t, s, "k"+strconv.Itoa(i))
	}
	for i := 1; i <= n; i++ {
		ev := next(t, w)
		if got := summary(ev.Changes); !reflect.DeepEqual(got, []string{"added:k" + strconv.Itoa(i)}) || len(ev.Doc.Items) != i+1 {
			t.Fatalf("event %d = %v", i, got)
		}
	}
	select {
	case ev := <-w:
		t.Fatalf("extra event %+v", ev)
	default:
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
			have := len(doc.Items)
			for have < n {
				ev := next(t, ch)
				if want := []string{"added:k" + strconv.Itoa(have)}; !reflect.DeepEqual(summary(ev.Changes), want) {
					t.Fatalf("event %v, want %v", summary(ev.Changes), want)
				}
				have++
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
