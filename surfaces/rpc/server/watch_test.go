package server_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/noggin-go/noggin/core/codec"
	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/sampledoc"
	"github.com/noggin-go/noggin/core/store"
	"github.com/noggin-go/noggin/surfaces/rpc/client"
	nogginv1 "github.com/noggin-go/noggin/surfaces/rpc/gen/noggin/v1"
	"github.com/noggin-go/noggin/surfaces/rpc/gen/noggin/v1/nogginv1connect"

	"connectrpc.com/connect"
)

// TestHelperWriter is not a test: it is the "other process" of TestWatch,
// run as a subprocess, which pushes an item into a noggin file directly.
func TestHelperWriter(t *testing.T) {
	file := os.Getenv("NOGGIN_RPC_HELPER_FILE")
	if file == "" {
		t.Skip("helper process only")
	}
	st, err := store.Open(context.Background(), file, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := testEngine(t).Push(context.Background(), st, noggin.PushOpts{Title: os.Getenv("NOGGIN_RPC_HELPER_TITLE")}); err != nil {
		t.Fatal(err)
	}
}

func writeFromOtherProcess(t *testing.T, file, title string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperWriter$", "-test.count=1")
	cmd.Env = append(os.Environ(), "NOGGIN_RPC_HELPER_FILE="+file, "NOGGIN_RPC_HELPER_TITLE="+title)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("helper process: %v\n%s", err, out)
	}
}

type nextResult struct {
	ev  noggin.Event
	err error
}

// next returns the next event of w, failing after a generous deadline.
func next(t *testing.T, w *client.Watcher) noggin.Event {
	t.Helper()
	ch := make(chan nextResult, 1)
	go func() {
		ev, err := w.Next()
		ch <- nextResult{ev, err}
	}()
	select {
	case r := <-ch:
		if r.err != nil {
			t.Fatalf("watch: %v", r.err)
		}
		return r.ev
	case <-time.After(15 * time.Second):
		t.Fatal("watch: no event")
	}
	return noggin.Event{}
}

// TestWatch: watchers over all three protocols see every change of a
// scripted sequence exactly once and in order, including a change written
// by another process.
func TestWatch(t *testing.T) {
	ts := startServer(t, "")
	const loc = "w.yaml"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := ts.client(t, "connect")
	// Create the file first so the other process and the server share it.
	if _, err := c.Push(ctx, loc, noggin.PushOpts{Title: "root"}); err != nil {
		t.Fatal(err)
	}
	var watchers []*client.Watcher
	for _, p := range protocols {
		w, err := ts.client(t, p.name).Watch(ctx, loc)
		if err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
		defer w.Close()
		if len(w.Initial.Items) != 1 {
			t.Fatalf("%s: initial document %+v", p.name, w.Initial)
		}
		watchers = append(watchers, w)
	}
	prev, err := c.Snapshot(ctx, loc)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(ts.root, loc)
	steps := []struct {
		name  string
		run   func() error
		quiet bool // writes nothing observable: no event
	}{
		{"push", func() error { _, err := c.Push(ctx, loc, noggin.PushOpts{Title: "a"}); return err }, false},
		{"add", func() error {
			_, err := c.Add(ctx, loc, noggin.AddOpts{Title: "b", Placement: place("before", "/1/1")})
			return err
		}, false},
		{"goto same", func() error { _, err := c.Goto(ctx, loc, noggin.GotoOpts{Path: "."}); return err }, true},
		{"note", func() error { _, err := c.Note(ctx, loc, noggin.NoteOpts{Text: "n"}); return err }, false},
		{"other process", func() error { writeFromOtherProcess(t, file, "external"); return nil }, false},
		{"failing verb", func() error {
			_, err := c.Delete(ctx, loc, noggin.DeleteOpts{Path: "/1"})
			if err == nil {
				t.Fatal("delete /1 should fail")
			}
			return nil
		}, true},
		{"done", func() error { _, err := c.Done(ctx, loc, noggin.DoneOpts{Path: "/1/1"}); return err }, false},
		{"move", func() error {
			_, err := c.Move(ctx, loc, noggin.MoveOpts{Path: "/1/2", Placement: place("before", "/1/1")})
			return err
		}, false},
		{"edit", func() error { _, err := c.Edit(ctx, loc, noggin.EditOpts{Path: "/1", Title: ptr("ROOT")}); return err }, false},
		{"delete", func() error { _, err := c.Delete(ctx, loc, noggin.DeleteOpts{Path: "/1", Recursive: true}); return err }, false},
		{"final push", func() error { _, err := c.Push(ctx, loc, noggin.PushOpts{Title: "last"}); return err }, false},
	}
	for _, s := range steps {
		if err := s.run(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if s.quiet {
			continue
		}
		var ev noggin.Event
		if s.name == "other process" {
			// Wait for the poll to notice the external write.
			ev = next(t, watchers[0])
		}
		cur, err := c.Snapshot(ctx, loc)
		if err != nil {
			t.Fatal(err)
		}
		want := noggin.Diff(prev, cur)
		if len(want) == 0 {
			t.Fatalf("%s: script step changes nothing", s.name)
		}
		for i, w := range watchers {
			if i > 0 || s.name != "other process" {
				ev = next(t, w)
			}
			if ev.Err != nil {
				t.Fatalf("%s: watcher %d: error event %v", s.name, i, ev.Err)
			}
			if !reflect.DeepEqual(ev.Changes, want) {
				t.Fatalf("%s: watcher %d: changes\n got %+v\nwant %+v", s.name, i, ev.Changes, want)
			}
			// The client rebuilds the document from the changes: the same
			// tree (the flat order of items under different parents aside).
			if left := noggin.Diff(ev.Doc, cur); len(left) > 0 || !slices.Equal(ev.Doc.Cursors(), cur.Cursors()) {
				t.Fatalf("%s: watcher %d: document differs by %+v", s.name, i, left)
			}
		}
		prev = cur
	}
}

// TestWatchUnsubscribeFreesResources: a subscriber that goes away ends its
// stream on the server, and writes go on.
func TestWatchUnsubscribeFreesResources(t *testing.T) {
	ts := startServer(t, "")
	c := ts.client(t, "connect")
	const loc = "u.yaml"
	for _, p := range protocols {
		ctx, cancel := context.WithCancel(context.Background())
		w, err := ts.client(t, p.name).Watch(ctx, loc)
		if err != nil {
			t.Fatal(err)
		}
		if n := ts.srv.Watchers(); n != 1 {
			t.Fatalf("%s: %d watchers, want 1", p.name, n)
		}
		if p.name == "grpc" {
			_ = w.Close()
		}
		cancel()
		waitFor(t, func() bool { return ts.srv.Watchers() == 0 })
		if _, err := c.Push(context.Background(), loc, noggin.PushOpts{Title: p.name}); err != nil {
			t.Fatal(err)
		}
	}
	// Server shutdown ends open streams (unavailable: the client would
	// subscribe again, for as long as its context lets it).
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	w, err := c.Watch(ctx, loc)
	if err != nil {
		t.Fatal(err)
	}
	ts.srv.Close()
	if _, err := w.Next(); err == nil {
		t.Fatal("stream should end at server close")
	}
	waitFor(t, func() bool { return ts.srv.Watchers() == 0 })
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestWatchErrorEvent: a file that becomes unparsable is reported on the
// stream as an error, and the stream goes on.
func TestWatchErrorEvent(t *testing.T) {
	ts := startServer(t, "")
	c := ts.client(t, "grpc")
	const loc = "e.yaml"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if _, err := c.Push(ctx, loc, noggin.PushOpts{Title: "x"}); err != nil {
		t.Fatal(err)
	}
	w, err := c.Watch(ctx, loc)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	file := filepath.Join(ts.root, loc)
	good, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, file, "schemaVersion: 1\nitems: [\n")
	ev := next(t, w)
	var ne *noggin.Error
	if !errors.As(ev.Err, &ne) || ne.Code != noggin.CodeInvalidDocument || ne.Get("path") != loc {
		t.Fatalf("want an invalid-document error event naming %s, got %+v", loc, ev)
	}
	writeFile(t, file, string(good)+"  - key: extra\n    parentKey: null\n    title: extra\n    notes: []\n")
	ev = next(t, w)
	if ev.Err != nil || len(ev.Changes) != 1 || ev.Changes[0].Kind != noggin.ChangeAdded || ev.Changes[0].Key != "extra" {
		t.Fatalf("want added extra, got %+v", ev)
	}
}

// TestWatchIncremental: an incremental stream sends the document once,
// then each write as its changes, the items they touch and the revision
// (no document); a write of more than maxPatch changes sends the document.
func TestWatchIncremental(t *testing.T) {
	ts := startServer(t, "")
	c := ts.client(t, "connect")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const loc = "inc.yaml"
	if _, err := c.Push(ctx, loc, noggin.PushOpts{Title: "root"}); err != nil {
		t.Fatal(err)
	}
	raw := nogginv1connect.NewNogginServiceClient(http.DefaultClient, ts.url)
	recv := watchStream(ctx, t, raw, &nogginv1.WatchRequest{Location: loc, Incremental: true})
	if m := recv(); !m.GetInitial() || len(m.GetDocument().GetItems()) != 1 || m.GetRevision() == "" {
		t.Fatalf("initial message: %v", m)
	}
	if _, err := c.Note(ctx, loc, noggin.NoteOpts{Text: "n"}); err != nil {
		t.Fatal(err)
	}
	m := recv()
	if m.GetDocument() != nil || len(m.GetItems()) != 1 || m.GetItems()[0].GetNotes()[0].GetText() != "n" || len(m.GetChanges()) != 1 {
		t.Fatalf("a note: %v", m)
	}
	if w, err := raw.Where(ctx, connect.NewRequest(&nogginv1.WhereRequest{Location: loc})); err != nil || m.GetRevision() != w.Header().Get("Noggin-Revision") {
		t.Fatalf("revision %q, the noggin's %v (%v)", m.GetRevision(), w, err)
	}
	var ops []string
	for i := range 70 {
		ops = append(ops, fmt.Sprint("kid ", i))
	}
	for _, title := range ops {
		if _, err := c.Add(ctx, loc, noggin.AddOpts{Title: title, Placement: place("into", "/1")}); err != nil {
			t.Fatal(err)
		}
	}
	// Then one write that shifts all 70 children: the document again.
	if _, err := c.Add(ctx, loc, noggin.AddOpts{Title: "first", Placement: place("before", "/1/1")}); err != nil {
		t.Fatal(err)
	}
	for {
		m := recv()
		if n := len(m.GetChanges()); n > 64 {
			if m.GetDocument() == nil || len(m.GetItems()) != 0 {
				t.Fatalf("%d changes without the document", n)
			}
			break
		}
		if m.GetDocument() != nil {
			t.Fatalf("%d changes with the document", len(m.GetChanges()))
		}
	}
}

// TestWatchWindow: a Watch in parts sends the shape and the window, then
// every part, and only then a change made meanwhile.
func TestWatchWindow(t *testing.T) {
	ts := startServer(t, "")
	c := ts.client(t, "connect")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const loc = "win.yaml"
	const total = 5000 // more than one part (4,096 items)
	doc := sampledoc.Doc(total, 1)
	if err := os.WriteFile(filepath.Join(ts.root, loc), codec.EncodeYAML(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	raw := nogginv1connect.NewNogginServiceClient(http.DefaultClient, ts.url)
	recv := watchStream(ctx, t, raw, &nogginv1.WatchRequest{Location: loc, Incremental: true, Window: 20})
	first := recv()
	if !first.GetInitial() || len(first.GetShape().GetParents()) != total || len(first.GetDocument().GetItems()) != 40 || first.GetDocument().GetActive() != doc.Active {
		t.Fatalf("first message: initial %v, %d parents, %d items", first.GetInitial(), len(first.GetShape().GetParents()), len(first.GetDocument().GetItems()))
	}
	if _, err := c.Note(ctx, loc, noggin.NoteOpts{Text: "meanwhile"}); err != nil {
		t.Fatal(err)
	}
	seen := 0
	for {
		m := recv()
		if m.GetPart() == nil {
			t.Fatalf("a message before the last part: %v", m)
		}
		seen += len(m.GetPart().GetItems())
		if m.GetPart().GetLast() {
			break
		}
	}
	if seen != total {
		t.Fatalf("the parts held %d items of %d", seen, total)
	}
	if m := recv(); len(m.GetItems()) != 1 || m.GetItems()[0].GetNotes()[len(m.GetItems()[0].GetNotes())-1].GetText() != "meanwhile" {
		t.Fatalf("the change after the parts: %v", m)
	}
}

// watchStream opens a Watch (closed when the test ends) and returns its
// next message each call.
func watchStream(ctx context.Context, t *testing.T, raw nogginv1connect.NogginServiceClient, req *nogginv1.WatchRequest) func() *nogginv1.WatchResponse {
	t.Helper()
	stream, err := raw.Watch(ctx, connect.NewRequest(req))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = stream.Close() })
	return func() *nogginv1.WatchResponse {
		t.Helper()
		if !stream.Receive() {
			t.Fatalf("stream ended: %v", stream.Err())
		}
		return stream.Msg()
	}
}

// TestWatchWindowWhole: a window that holds every item (here an empty
// noggin, then a small one) is the whole document: no parts follow, and
// the next message is the next write's.
func TestWatchWindowWhole(t *testing.T) {
	ts := startServer(t, "")
	c := ts.client(t, "connect")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	raw := nogginv1connect.NewNogginServiceClient(http.DefaultClient, ts.url)
	for _, loc := range []string{"empty.yaml", "small.yaml"} {
		if loc == "small.yaml" {
			if _, err := c.Push(ctx, loc, noggin.PushOpts{Title: "root"}); err != nil {
				t.Fatal(err)
			}
		} else if err := os.WriteFile(filepath.Join(ts.root, loc), []byte("schemaVersion: 1\nactive: null\nitems: []\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		recv := watchStream(ctx, t, raw, &nogginv1.WatchRequest{Location: loc, Incremental: true, Window: 20})
		first := recv()
		n := len(first.GetShape().GetParents())
		if !first.GetInitial() || first.GetShape() == nil || len(first.GetDocument().GetItems()) != n {
			t.Fatalf("%s: first message %v", loc, first)
		}
		if _, err := c.Push(ctx, loc, noggin.PushOpts{Title: "next"}); err != nil {
			t.Fatal(err)
		}
		if m := recv(); m.GetPart() != nil || len(m.GetItems()) == 0 {
			t.Fatalf("%s: after the whole window: %v", loc, m)
		}
	}
}
