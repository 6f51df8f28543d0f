package noggin

import (
	"bytes"
	"testing"
)

func node(key, path, title string, done bool, notes []Note, children ...*Node) *Node {
	return &Node{Key: key, Path: path, Title: title, Done: done, Notes: notes, Children: children, Expanded: children != nil}
}

func TestHumanView(t *testing.T) {
	closed := []Note{{Timestamp: "2026-01-01T00:00:00.000Z", Text: "closed"}}
	v := &View{ActiveKey: "k4", ActivePath: "/1/3", TargetKey: "k4", Items: []*Node{
		node("k1", "/1", "ship the redesign", false, nil,
			node("k2", "/1/1", "write the spec", true, closed),
			node("k3", "/1/2", "wire up tests", false, nil),
			node("k4", "/1/3", "investigate", true, closed, []*Node{}...)),
	}}
	want := "/1 ship the redesign\n" +
		"  /1/1 ✅ write the spec ✏️\n" +
		"  /1/2 wire up tests\n" +
		"  /1/3 📍✅ investigate ✏️\n"
	var b bytes.Buffer
	v.writeTree(&b, false)
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestHumanViewEdgeCases(t *testing.T) {
	tests := []struct {
		name string
		v    *View
		want string
	}{
		{"nil", nil, "(no item)\n"},
		{"empty", &View{}, "(no item)\n"},
		{"empty title", &View{ActiveKey: "a", Items: []*Node{node("a", "/1", "", false, nil)}}, "/1 📍 \n"},
		{"no path", &View{Items: []*Node{node("a", "", "x", false, nil)}}, "? x\n"},
		{"no active key never marks", &View{Items: []*Node{node("", "/1", "x", false, nil)}}, "/1 x\n"},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		tt.v.writeTree(&b, false)
		if b.String() != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, b.String(), tt.want)
		}
	}
}

func TestHumanNotes(t *testing.T) {
	notes := []Note{{Timestamp: "2026-01-01T00:00:00.000Z", Text: "hello"}, {Timestamp: "2026-01-01T00:00:00.000Z", Text: "multi\nline"}}
	v := &View{ActiveKey: "b", TargetKey: "c", Items: []*Node{
		node("r", "/1", "root1", false, nil,
			node("a", "/1/1", "alpha", false, nil),
			node("b", "/1/2", "beta", false, nil),
			node("c", "/1/3", "gamma", false, notes, node("d", "/1/3/1", "kid", false, nil))),
	}}
	want := "/1 root1\n  /1/1 alpha\n  /1/2 📍 beta\n  /1/3 gamma ✏️\n    /1/3/1 kid\n" +
		"    notes:\n      - 2026-01-01T00:00:00.000Z\n        hello\n      - 2026-01-01T00:00:00.000Z\n        multi\n        line\n"
	var b bytes.Buffer
	v.Human(&Human{B: &b, Verb: "show", WithNotes: true})
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}

	// no notes; a null timestamp and an empty line
	v2 := &View{TargetKey: "x", Items: []*Node{node("x", "/1", "r", false, nil)}}
	b.Reset()
	v2.Human(&Human{B: &b, Verb: "show", WithNotes: true})
	if got, want := b.String(), "/1 r\n  notes: (none)\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	v2.Items[0].Notes = []Note{{Text: "x\n\ny"}, {Timestamp: "t", Text: ""}}
	b.Reset()
	v2.Human(&Human{B: &b, Verb: "show", WithNotes: true})
	if got, want := b.String(), "/1 r ✏️\n  notes:\n    - (no timestamp)\n      x\n      \n      y\n    - t\n      \n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	b.Reset()
	(*View)(nil).Human(&Human{B: &b, Verb: "show", WithNotes: true})
	if got, want := b.String(), "(no active item; pass a path)\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestHumanDeleteCopyProviders(t *testing.T) {
	var b bytes.Buffer
	view := &View{ActiveKey: "a", TargetKey: "a", Items: []*Node{node("a", "/1", "A", false, nil)}}
	(&DeleteResult{Deleted: DeletedItem{Path: "/1/1"}, DescendantCount: 1, View: view}).Human(&Human{B: &b, TreeEmpty: func() bool { return false }})
	(&DeleteResult{Deleted: DeletedItem{Path: "/1"}}).Human(&Human{B: &b, TreeEmpty: func() bool { return true }})
	(&DeleteResult{Deleted: DeletedItem{Path: "/2"}}).Human(&Human{B: &b, TreeEmpty: func() bool { return false }})
	(&CopyResult{Copied: 3}).Human(&Human{B: &b, From: "src.yaml", To: "dst.yaml"})
	Providers{{Scheme: "file"}}.Human(&Human{B: &b})
	Providers(nil).Human(&Human{B: &b})
	Providers{{Scheme: "file"}, {Scheme: "vscode-todo"}}.Human(&Human{B: &b})
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
