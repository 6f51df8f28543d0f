package server_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/noggin-go/noggin/core/envelope"
	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/store"
	"github.com/noggin-go/noggin/surfaces/rpc/client"
	"github.com/noggin-go/noggin/surfaces/rpc/internal/convert"
)

// step is one verb call, described once and run both over RPC and directly
// on the engine (as the CLI does: a fresh open per call).
type step struct {
	verb string
	opts any
}

type (
	whereStep     struct{}
	providersStep struct{}
	copySelfStep  struct{}
	// copyToStep copies the script's noggin into another one.
	copyToStep struct{ dest string }
	// undoStep is undo, or redo.
	undoStep struct{ redo bool }
)

func ptr[T any](v T) *T { return &v }

func gotoSelf() noggin.Goto               { return noggin.Goto{Present: true, Self: true} }
func gotoPath(p string) noggin.Goto       { return noggin.Goto{Present: true, Path: p} }
func place(k, a string) *noggin.Placement { return &noggin.Placement{Kind: k, Anchor: a} }

// script exercises every verb and many failures.
var script = []step{
	{"providers", providersStep{}},
	{"where", whereStep{}},
	{"show", noggin.ShowOpts{}},
	{"show", noggin.ShowOpts{Goto: gotoPath("/1")}},
	{"pop", noggin.PopOpts{}},
	{"push", noggin.PushOpts{Title: "ship"}},
	{"push", noggin.PushOpts{Title: "spec"}},
	{"add", noggin.AddOpts{Title: "tests", Placement: place("after", "/1/1")}},
	{"add", noggin.AddOpts{Title: "docs", Placement: place("into", "/1"), Goto: gotoSelf()}},
	{"note", noggin.NoteOpts{Path: "/1/1", Text: "  hello  "}},
	{"note", noggin.NoteOpts{Text: "on docs", Goto: gotoPath("..")}},
	{"show", noggin.ShowOpts{Path: "/1", WithDescendants: true}},
	{"show", noggin.ShowOpts{Path: "/1/1", NoChildren: true}},
	{"show", noggin.ShowOpts{Path: "/1/2", WithSiblings: true}},
	{"show", noggin.ShowOpts{Path: "/1/3", Goto: gotoSelf()}},
	{"show", noggin.ShowOpts{Goto: gotoPath("..")}},
	{"move", noggin.MoveOpts{Path: "/1/3", Placement: place("before", "/1/1")}},
	{"move", noggin.MoveOpts{Path: "/1", Placement: place("into", "/1/1")}},
	{"move", noggin.MoveOpts{Path: "/1/1"}},
	{"move", noggin.MoveOpts{Path: "/1/2", Placement: place("sideways", "/1")}},
	{"edit", noggin.EditOpts{Path: "/1/2", Title: ptr("  renamed ")}},
	{"edit", noggin.EditOpts{Path: "/1/2"}},
	{"edit", noggin.EditOpts{Path: "/1/2", Force: true, Title: ptr("x")}},
	{"edit", noggin.EditOpts{Path: "/1/1", Done: ptr(true), Goto: gotoSelf()}},
	{"edit", noggin.EditOpts{Path: "/1/1", Done: ptr(false)}},
	{"done", noggin.DoneOpts{Path: "/1"}},
	{"done", noggin.DoneOpts{Path: "/1", Goto: gotoSelf()}},
	{"done", noggin.DoneOpts{Path: "/1", CloseAll: true}},
	{"goto", noggin.GotoOpts{Path: "/1/2"}},
	{"goto", noggin.GotoOpts{}},
	{"goto", noggin.GotoOpts{Path: "/9/9"}},
	{"pop", noggin.PopOpts{HasPath: true}},
	{"pop", noggin.PopOpts{Goto: gotoSelf()}},
	{"pop", noggin.PopOpts{}},
	{"note", noggin.NoteOpts{Text: "   "}},
	{"note", noggin.NoteOpts{Text: "x", Goto: noggin.Goto{Present: true}}},
	{"note", noggin.NoteOpts{Path: "/1", Text: "x", Goto: gotoPath("/7")}},
	{"delete", noggin.DeleteOpts{Path: "/1"}},
	{"delete", noggin.DeleteOpts{}},
	{"delete", noggin.DeleteOpts{Path: "/1", Goto: gotoSelf()}},
	{"copy", copySelfStep{}},
	{"copy", copyToStep{"work/b.yaml"}},
	{"copy", copyToStep{"work/b.yaml"}},
	{"find", noggin.FindOpts{Query: "RENAMED"}},
	{"find", noggin.FindOpts{Query: "on", Under: "/1", Limit: 1}},
	{"find", noggin.FindOpts{Query: " "}},
	{"find", noggin.FindOpts{Query: "x", Open: true, Done: true}},
	{"log", noggin.LogOpts{Limit: 3}},
	{"undo", undoStep{}},
	{"undo", undoStep{}},
	{"redo", undoStep{redo: true}},
	{"log", noggin.LogOpts{}},
	{"delete", noggin.DeleteOpts{Path: "/1", Recursive: true}},
	{"undo", undoStep{}},
	{"redo", undoStep{redo: true}},
	{"redo", undoStep{redo: true}},
	{"push", noggin.PushOpts{Title: "émoji 🚀 <&> \"q\""}},
	{"delete", noggin.DeleteOpts{Path: "/2/1"}},
	{"delete", noggin.DeleteOpts{Path: "/2"}},
	{"show", noggin.ShowOpts{Path: "/1", WithDescendants: true, WithSiblings: true}},
}

func runRPC(ctx context.Context, c *client.Client, loc string, s step) (noggin.Result, error) {
	switch o := s.opts.(type) {
	case providersStep:
		return c.Providers(ctx)
	case whereStep:
		return c.Where(ctx, loc)
	case copySelfStep:
		return c.Copy(ctx, loc, loc)
	case copyToStep:
		return c.Copy(ctx, loc, o.dest)
	case noggin.ShowOpts:
		return c.Show(ctx, loc, o)
	case noggin.PushOpts:
		return c.Push(ctx, loc, o)
	case noggin.AddOpts:
		return c.Add(ctx, loc, o)
	case noggin.MoveOpts:
		return c.Move(ctx, loc, o)
	case noggin.GotoOpts:
		return c.Goto(ctx, loc, o)
	case noggin.DoneOpts:
		return c.Done(ctx, loc, o)
	case noggin.PopOpts:
		return c.Pop(ctx, loc, o)
	case noggin.EditOpts:
		return c.Edit(ctx, loc, o)
	case noggin.NoteOpts:
		return c.Note(ctx, loc, o)
	case noggin.DeleteOpts:
		return c.Delete(ctx, loc, o)
	case noggin.FindOpts:
		return c.Find(ctx, loc, o)
	case noggin.LogOpts:
		return c.Log(ctx, loc, o)
	case undoStep:
		return c.Undo(ctx, loc, o.redo)
	}
	panic("unknown step")
}

func runDirect(eng *noggin.Engine, root, loc string, s step) (noggin.Result, error) {
	opts := store.Options{Root: root}
	if _, ok := s.opts.(providersStep); ok {
		return noggin.Providers(store.Providers(opts)), nil
	}
	st, err := store.Open(context.Background(), loc, opts)
	if err != nil {
		return nil, err
	}
	switch o := s.opts.(type) {
	case whereStep:
		return noggin.Location(st.Describe()), nil
	case copySelfStep:
		return eng.Copy(context.Background(), st, st)
	case copyToStep:
		dst, err := store.Open(context.Background(), o.dest, opts)
		if err != nil {
			return nil, err
		}
		return eng.Copy(context.Background(), st, dst)
	case noggin.ShowOpts:
		return eng.Show(context.Background(), st, o)
	case noggin.PushOpts:
		return eng.Push(context.Background(), st, o)
	case noggin.AddOpts:
		return eng.Add(context.Background(), st, o)
	case noggin.MoveOpts:
		return eng.Move(context.Background(), st, o)
	case noggin.GotoOpts:
		return eng.Goto(context.Background(), st, o)
	case noggin.DoneOpts:
		return eng.Done(context.Background(), st, o)
	case noggin.PopOpts:
		return eng.Pop(context.Background(), st, o)
	case noggin.EditOpts:
		return eng.Edit(context.Background(), st, o)
	case noggin.NoteOpts:
		return eng.Note(context.Background(), st, o)
	case noggin.DeleteOpts:
		return eng.Delete(context.Background(), st, o)
	case noggin.FindOpts:
		return eng.Find(context.Background(), st, o)
	case noggin.LogOpts:
		return eng.Log(context.Background(), st, o)
	case undoStep:
		return eng.Undo(context.Background(), st, o.redo)
	}
	panic("unknown step")
}

// TestEveryVerbMatchesEngine runs the script over each protocol and checks
// that every step's envelope bytes equal those of a direct engine call on a
// twin file, and that the files end identical.
func TestEveryVerbMatchesEngine(t *testing.T) {
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			ts := startServer(t, "")
			c := ts.client(t, p.name)
			ctx := ctxT(t)
			directRoot := t.TempDir()
			eng := testEngine(t)
			const loc = "work/a.yaml"
			if err := os.MkdirAll(filepath.Join(directRoot, "work"), 0o755); err != nil {
				t.Fatal(err)
			}
			for i, s := range script {
				got, gerr := runRPC(ctx, c, loc, s)
				want, werr := runDirect(eng, directRoot, loc, s)
				g := envelope.Result(s.verb, got, gerr).Encode()
				w := envelope.Result(s.verb, want, werr).Encode()
				if !bytes.Equal(g, w) {
					t.Fatalf("step %d %s %+v:\nrpc:\n%s\nengine:\n%s", i, s.verb, s.opts, g, w)
				}
				if o, ok := s.opts.(noggin.ShowOpts); ok && !o.Goto.Present {
					// Again: now served from the view cache.
					again, aerr := runRPC(ctx, c, loc, s)
					if a := envelope.Result(s.verb, again, aerr).Encode(); !bytes.Equal(a, w) {
						t.Fatalf("step %d (cached) %s:\nrpc:\n%s\nengine:\n%s", i, s.verb, a, w)
					}
				}
				if gerr != nil {
					if _, ok := gerr.(*noggin.Error); !ok {
						t.Fatalf("step %d: error %T %v is not a *noggin.Error", i, gerr, gerr)
					}
				}
			}
			// Snapshot equals the engine's document.
			snap, err := c.Snapshot(ctx, loc)
			if err != nil {
				t.Fatal(err)
			}
			st, err := store.Open(context.Background(), loc, store.Options{Root: directRoot})
			if err != nil {
				t.Fatal(err)
			}
			doc, _ := st.Load(context.Background())
			if !proto.Equal(convert.DocumentToProto(snap), convert.DocumentToProto(doc)) || !noggin.Equal(snap, doc) {
				t.Fatalf("snapshot differs:\n%v\n%v", convert.DocumentToProto(snap), convert.DocumentToProto(doc))
			}
			for _, name := range []string{loc, "work/b.yaml", loc + ".history"} {
				a, _ := os.ReadFile(filepath.Join(ts.root, name))
				b, _ := os.ReadFile(filepath.Join(directRoot, name))
				if !bytes.Equal(a, b) || len(a) == 0 {
					t.Fatalf("%s differs:\n%s\n---\n%s", name, a, b)
				}
			}
		})
	}
}

// TestShowSeesExternalChange: a cached Show view is not served once another
// process (here: another store instance) changed the file.
func TestShowSeesExternalChange(t *testing.T) {
	ts := startServer(t, "")
	c := ts.client(t, "connect")
	ctx := ctxT(t)
	const loc = "x.yaml"
	if _, err := c.Push(ctx, loc, noggin.PushOpts{Title: "one"}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ { // the second call is a cache hit
		if v, err := c.Show(ctx, loc, noggin.ShowOpts{Path: "/1"}); err != nil || v.Items[0].Title != "one" {
			t.Fatalf("show: %+v %v", v, err)
		}
	}
	other, err := store.Open(context.Background(), filepath.Join(ts.root, loc), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := testEngine(t).Edit(context.Background(), other, noggin.EditOpts{Path: "/1", Title: ptr("two")}); err != nil {
		t.Fatal(err)
	}
	if v, err := c.Show(ctx, loc, noggin.ShowOpts{Path: "/1"}); err != nil || v.Items[0].Title != "two" {
		t.Fatalf("show after external edit: %+v %v", v, err)
	}
	snap, err := c.Snapshot(ctx, loc)
	if err != nil || snap.Items[0].Title != "two" {
		t.Fatalf("snapshot after external edit: %+v %v", snap, err)
	}
}
