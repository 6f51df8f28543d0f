package app

import (
	"bytes"
	"testing"

	"github.com/noggin-go/noggin/core/noggin"
)

func node(key, path, title string, done bool, notes []noggin.Note, children ...*noggin.Node) *noggin.Node {
	return &noggin.Node{Key: key, Path: path, Title: title, Done: done, Notes: notes, Children: children, Expanded: children != nil}
}

func TestRenderView(t *testing.T) {
	closed := []noggin.Note{{Timestamp: "2026-01-01T00:00:00.000Z", Text: "closed"}}
	v := &noggin.View{ActiveKey: "k4", ActivePath: "/1/3", TargetKey: "k4", Items: []*noggin.Node{
		node("k1", "/1", "ship the redesign", false, nil,
			node("k2", "/1/1", "write the spec", true, closed),
			node("k3", "/1/2", "wire up tests", false, nil),
			node("k4", "/1/3", "investigate", true, closed, []*noggin.Node{}...)),
	}}
	want := "/1 ship the redesign\n" +
		"  /1/1 ✅ write the spec ✏️\n" +
		"  /1/2 wire up tests\n" +
		"  /1/3 📍✅ investigate ✏️\n"
	var b bytes.Buffer
	RenderView(&b, v, false)
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestRenderViewEdgeCases(t *testing.T) {
	tests := []struct {
		name string
		v    *noggin.View
		want string
	}{
		{"nil", nil, "(no item)\n"},
		{"empty", &noggin.View{}, "(no item)\n"},
		{"empty title", &noggin.View{ActiveKey: "a", Items: []*noggin.Node{node("a", "/1", "", false, nil)}}, "/1 📍 \n"},
		{"no path", &noggin.View{Items: []*noggin.Node{node("a", "", "x", false, nil)}}, "? x\n"},
		{"no active key never marks", &noggin.View{Items: []*noggin.Node{node("", "/1", "x", false, nil)}}, "/1 x\n"},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		RenderView(&b, tt.v, false)
		if b.String() != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, b.String(), tt.want)
		}
	}
}

func TestRenderNotes(t *testing.T) {
	notes := []noggin.Note{{Timestamp: "2026-01-01T00:00:00.000Z", Text: "hello"}, {Timestamp: "2026-01-01T00:00:00.000Z", Text: "multi\nline"}}
	v := &noggin.View{ActiveKey: "b", TargetKey: "c", Items: []*noggin.Node{
		node("r", "/1", "root1", false, nil,
			node("a", "/1/1", "alpha", false, nil),
			node("b", "/1/2", "beta", false, nil),
			node("c", "/1/3", "gamma", false, notes, node("d", "/1/3/1", "kid", false, nil))),
	}}
	want := "/1 root1\n  /1/1 alpha\n  /1/2 📍 beta\n  /1/3 gamma ✏️\n    /1/3/1 kid\n" +
		"    notes:\n      - 2026-01-01T00:00:00.000Z\n        hello\n      - 2026-01-01T00:00:00.000Z\n        multi\n        line\n"
	var b bytes.Buffer
	RenderShow(&b, v, true)
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}

	// no notes; a null timestamp and an empty line
	v2 := &noggin.View{TargetKey: "x", Items: []*noggin.Node{node("x", "/1", "r", false, nil)}}
	b.Reset()
	RenderShow(&b, v2, true)
	if got, want := b.String(), "/1 r\n  notes: (none)\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	v2.Items[0].Notes = []noggin.Note{{Text: "x\n\ny"}, {Timestamp: "t", Text: ""}}
	b.Reset()
	RenderShow(&b, v2, true)
	if got, want := b.String(), "/1 r ✏️\n  notes:\n    - (no timestamp)\n      x\n      \n      y\n    - t\n      \n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	b.Reset()
	RenderShow(&b, nil, true)
	if got, want := b.String(), "(no active item; pass a path)\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestRenderDeleteCopyProviders(t *testing.T) {
	var b bytes.Buffer
	view := &noggin.View{ActiveKey: "a", TargetKey: "a", Items: []*noggin.Node{node("a", "/1", "A", false, nil)}}
	RenderDelete(&b, &noggin.DeleteResult{Deleted: noggin.DeletedItem{Path: "/1/1"}, DescendantCount: 1, View: view}, false)
	RenderDelete(&b, &noggin.DeleteResult{Deleted: noggin.DeletedItem{Path: "/1"}}, true)
	RenderDelete(&b, &noggin.DeleteResult{Deleted: noggin.DeletedItem{Path: "/2"}}, false)
	RenderCopy(&b, &noggin.CopyResult{Copied: 3}, "src.yaml", "dst.yaml")
	RenderProviders(&b, []noggin.Provider{{Scheme: "file"}})
	RenderProviders(&b, nil)
	RenderProviders(&b, []noggin.Provider{{Scheme: "file"}, {Scheme: "vscode-todo"}})
	want := "deleted /1/1 and 1 descendant(s)\n/1 📍 A\n" +
		"deleted /1\n(tree is now empty)\n" +
		"deleted /2\n(no active item)\n" +
		"copied 3 item(s) from src.yaml to dst.yaml\n" +
		"scheme\n------\nfile  \n" +
		"(no providers registered)\n" +
		"scheme     \n-----------\nfile       \nvscode-todo\n"
	if b.String() != want {
		t.Errorf("got\n%q\nwant\n%q", b.String(), want)
	}
}
