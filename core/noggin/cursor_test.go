package noggin

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestValidAgent(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
	}{
		{"alice", true},
		{"claude-code-3f2a", true},
		{"a.b_c-9", true},
		{"9lives", true},
		{"", false},
		{"-lead", false},
		{".hidden", false},
		{"two words", false},
		{"tab\tname", false},
		{"colon:name", false},
		{"ünïcode", false},
		{"a/b", false},
		{"nul\x00", false},
		{strings.Repeat("x", MaxAgent), true},
		{strings.Repeat("x", MaxAgent+1), false},
	}
	for _, tt := range tests {
		if got := ValidAgent(tt.name); got != tt.ok {
			t.Errorf("ValidAgent(%q) = %v, want %v", tt.name, got, tt.ok)
		}
	}
}

func TestAgentName(t *testing.T) {
	tests := []struct{ client, want string }{
		{"claude-code", "claude-code-3f2a"},
		{"Claude Desktop", "claude-desktop-3f2a"},
		{"@modelcontextprotocol/inspector", "modelcontextprotocol-inspector-3f2a"},
		{"", "agent-3f2a"},
		{"💥", "agent-3f2a"},
		{"--x--", "x-3f2a"},
		{"abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz", "abcdefghijklmnopqrstuvwxyzabcdefghijklmn-3f2a"},
	}
	for _, tt := range tests {
		got := AgentName(tt.client, "3f2a")
		if got != tt.want || !ValidAgent(got) {
			t.Errorf("AgentName(%q) = %q (valid %v), want %q", tt.client, got, ValidAgent(got), tt.want)
		}
	}
}

// TestCursors: two agents on one document each keep their own cursor;
// the shared active item stays; a delete falls the cursors inside it
// back to its parent; undo takes a cursor move back.
func TestCursors(t *testing.T) {
	ctx := context.Background()
	e := fixedEngine()
	m := newMem(tree(F1)) // root1 active, alpha, beta > beta-kid, root2
	alice, bob := Through(m, "alice"), Through(m, "bob")
	step := func(name string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	cursor := func(agent string) string {
		k, ok := cursorOf(m.doc, agent)
		if !ok {
			return "(none)"
		}
		return k
	}
	v, err := e.Push(ctx, alice, PushOpts{Title: "lock"})
	step("alice push", err)
	if v.Cursor != "alice" || v.ActivePath != "/1/3" {
		t.Fatalf("alice's push view: cursor %q active %q", v.Cursor, v.ActivePath)
	}
	lock := v.ActiveKey
	_, err = e.Goto(ctx, bob, GotoOpts{Path: "@k3"}) // beta
	step("bob goto", err)
	_, err = e.Note(ctx, alice, NoteOpts{Text: "found it"})
	step("alice note", err)
	if it := m.doc.Items[len(m.doc.Items)-1]; it.Key != lock || len(it.Notes) != 1 {
		t.Fatalf("alice's note did not land on her item: %+v", it)
	}
	if m.doc.Active != "k1" {
		t.Fatalf("the shared active item moved to %q", m.doc.Active)
	}
	if cursor("alice") != lock || cursor("bob") != "k3" {
		t.Fatalf("cursors alice %q bob %q", cursor("alice"), cursor("bob"))
	}
	// Shared: a delete of beta by someone without a name moves bob's cursor to root1.
	_, err = e.Delete(ctx, m, DeleteOpts{Path: "/1/2", Recursive: true})
	step("delete beta", err)
	if cursor("bob") != "k1" || cursor("alice") != lock {
		t.Fatalf("after the delete: alice %q bob %q", cursor("alice"), cursor("bob"))
	}
	// Bob deletes alice's item and the shared one falls back too.
	_, err = e.Goto(ctx, m, GotoOpts{Path: "@" + lock})
	step("shared goto", err)
	_, err = e.Delete(ctx, bob, DeleteOpts{Path: "@" + lock})
	step("bob deletes lock", err)
	if m.doc.Active != "k1" || cursor("alice") != "k1" {
		t.Fatalf("after bob's delete: shared %q alice %q", m.doc.Active, cursor("alice"))
	}
	// A cursor whose item another tool removed reads as no active item.
	m.doc = &Document{Items: m.doc.Items, Active: m.doc.Active, Extra: []Field{{Name: CursorsField, Value: Map{{Name: "carol", Value: "k-gone"}}}}}
	if _, err := e.Pop(ctx, Through(m, "carol"), PopOpts{}); err == nil {
		t.Fatal("pop on a cursor whose item is gone: no error")
	}
	r, err := e.Agents(ctx, m, AgentsOpts{})
	step("agents", err)
	if len(r.Agents) != 1 || r.Agents[0] != (AgentCursor{Agent: "carol", Key: "k-gone"}) {
		t.Fatalf("agents: %+v", r.Agents)
	}
	r, err = e.Agents(ctx, m, AgentsOpts{Forget: "carol"})
	step("forget", err)
	if len(r.Agents) != 0 || r.Forgotten != "carol" || len(m.doc.Extra) != 0 {
		t.Fatalf("forget: %+v, extra %v", r, m.doc.Extra)
	}
	_, err = e.Agents(ctx, m, AgentsOpts{Forget: "carol"})
	wantErr(t, err, CodeUnknownAgent, 1, "no agent 'carol' has a cursor in this noggin", F("agent", "carol"))
}

// TestCursorInverse: the history's inverse of a cursor op restores the
// document exactly, an absent cursor map included.
func TestCursorInverse(t *testing.T) {
	doc := tree(F1)
	for _, ops := range [][]Op{
		{{Type: OpCursor, Cursor: "a", Key: "k2"}},
		{{Type: OpCursor, Cursor: "a", Key: "k2"}, {Type: OpCursor, Cursor: "b"}, {Type: OpCursor, Cursor: "a", Key: "k3"}},
		{{Type: OpCursor, Cursor: "a", Unset: true}},
	} {
		out, err := Apply(doc, ops)
		if err != nil {
			t.Fatal(err)
		}
		inv, _, err := invert(doc, ops)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Apply(out, inv)
		if err != nil {
			t.Fatal(err)
		}
		if len(back.Extra) != 0 || back.Active != doc.Active {
			t.Fatalf("%v: undone to %+v", ops, back.Extra)
		}
	}
}

// TestCursorsOfAnotherTool: a cursor the file names in a way noggin never
// writes (another tool's entry) does not stop a delete, and a dangling
// key with escapes is shown safely.
func TestCursorsOfAnotherTool(t *testing.T) {
	doc := tree(F1)
	doc.Extra = []Field{{Name: CursorsField, Value: Map{{Name: "not a name", Value: "k2"}, {Name: "eve", Value: "k-\x1b[31mgone"}}}}
	m := newMem(doc)
	if _, err := fixedEngine().Delete(context.Background(), m, DeleteOpts{Path: "/1/1"}); err != nil {
		t.Fatalf("delete under another tool's cursor: %v", err)
	}
	r, err := fixedEngine().Agents(context.Background(), m, AgentsOpts{})
	if err != nil {
		t.Fatal(err)
	}
	h := &Human{B: new(bytes.Buffer)}
	r.Human(h)
	if strings.Contains(h.B.String(), "\x1b") {
		t.Fatalf("an escape reached the terminal: %q", h.B.String())
	}
}
