package request_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/request"
)

// historyFixture has notes, a done item, a grandchild and unknown fields
// (top level and on an item), so that an exact undo has work to do.
const historyFixture = `schemaVersion: 1
active: b
owner: team
items:
  - {key: r, parentKey: null, title: root, done: false, createdAt: null, notes: [{timestamp: "2026-01-01T00:00:00.000Z", text: first}]}
  - {key: a, parentKey: r, title: alpha, done: true, createdAt: null, notes: []}
  - {key: c, parentKey: b, title: gamma, done: false, createdAt: null, notes: [], tag: {x: 1}}
  - {key: b, parentKey: r, title: beta, done: false, createdAt: null, notes: []}
  - {key: s, parentKey: null, title: second, done: false, createdAt: null, notes: []}
`

func run(t *testing.T, r *request.Runner, file string, req request.Request) request.Result {
	t.Helper()
	req.Location = s(file)
	return r.Run(context.Background(), &req)
}

func mustRun(t *testing.T, r *request.Runner, file string, req request.Request) request.Result {
	t.Helper()
	res := run(t, r, file, req)
	if !res.Envelope.OK() {
		t.Fatalf("%s: %s", req.Verb, res.Envelope.Encode())
	}
	return res
}

func read(t *testing.T, file string) []byte {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestUndoEveryWrite: undo after each of the eleven writing verbs gives back
// the file's exact bytes, and redo the bytes the verb wrote.
func TestUndoEveryWrite(t *testing.T) {
	other := writeFixture(t, "schemaVersion: 1\nactive: null\nitems:\n  - {key: o, parentKey: null, title: other, done: false, createdAt: null, notes: []}\n")
	cases := map[string]request.Request{
		"push":   {Verb: "push", Title: s("new")},
		"add":    {Verb: "add", Title: s("new"), Before: s("/1/1")},
		"move":   {Verb: "move", Path: s("/1/2"), Into: s("/2")},
		"goto":   {Verb: "goto", Path: s("/1/1")},
		"done":   {Verb: "done", Path: s("/1"), CloseAll: on},
		"pop":    {Verb: "pop", Force: on},
		"edit":   {Verb: "edit", Path: s("/1/2/1"), Title: s("renamed"), State: s("done")},
		"show":   {Verb: "show", Path: s("/2"), Goto: on},
		"note":   {Verb: "note", Path: s("/1"), Text: s("second note")},
		"delete": {Verb: "delete", Path: s("/1"), Recursive: on},
		"copy":   {Verb: "copy", From: s(other)},
	}
	for verb, req := range cases {
		t.Run(verb, func(t *testing.T) {
			r := testRunner(t)
			file := writeFixture(t, historyFixture)
			// A first write, so that the file is in noggin's own layout.
			mustRun(t, r, file, request.Request{Verb: "note", Text: s("start")})
			before := read(t, file)
			if verb == "copy" {
				req.To = s(file)
			}
			mustRun(t, r, file, req)
			after := read(t, file)
			if bytes.Equal(before, after) {
				t.Fatal("the verb wrote nothing")
			}
			res := mustRun(t, r, file, request.Request{Verb: "undo"})
			if got := read(t, file); !bytes.Equal(got, before) {
				t.Fatalf("after undo the file is\n%s\nwant\n%s", got, before)
			}
			if e := res.Envelope.Data.(*noggin.UndoResult).Entry; e.Verb != verb {
				t.Errorf("undo took back %q", e.Verb)
			}
			mustRun(t, r, file, request.Request{Verb: "redo"})
			if got := read(t, file); !bytes.Equal(got, after) {
				t.Fatalf("after redo the file is\n%s\nwant\n%s", got, after)
			}
		})
	}
}

// TestUndoChain: undo twice takes back two writes, redo re-applies the last
// undo, a new write ends what redo can do, and log lists it all.
func TestUndoChain(t *testing.T) {
	r := testRunner(t)
	file := filepath.Join(t.TempDir(), "n.yaml")
	var states [][]byte
	for _, title := range []string{"one", "two", "three"} {
		mustRun(t, r, file, request.Request{Verb: "push", Title: s(title)})
		states = append(states, read(t, file))
	}
	mustRun(t, r, file, request.Request{Verb: "undo"})
	mustRun(t, r, file, request.Request{Verb: "undo"})
	if !bytes.Equal(read(t, file), states[0]) {
		t.Fatal("two undos did not go back two writes")
	}
	mustRun(t, r, file, request.Request{Verb: "redo"})
	if !bytes.Equal(read(t, file), states[1]) {
		t.Fatal("redo did not re-apply the last undo")
	}
	mustRun(t, r, file, request.Request{Verb: "note", Text: s("fresh")})
	if code, msg := outcome(run(t, r, file, request.Request{Verb: "redo"})); code != noggin.CodeNothingToRedo {
		t.Errorf("redo after a write: %s %s", code, msg)
	}
	res := mustRun(t, r, file, request.Request{Verb: "log", Limit: request.String("3")})
	got := string(res.Envelope.Encode())
	for _, want := range []string{`"seq": 7`, `"verb": "note"`, `"summary": "noted \"two\""`,
		`"seq": 6`, `"verb": "redo"`, `"redoes": 5`, `"summary": "added \"two\"; activated \"two\""`,
		`"seq": 5`, `"undoes": 2`, `"summary": "activated \"one\"; removed \"two\""`} {
		if !strings.Contains(got, want) {
			t.Errorf("log lacks %s:\n%s", want, got)
		}
	}
	if strings.Contains(got, `"seq": 4`) {
		t.Errorf("log --limit 3 listed more:\n%s", got)
	}
	for i := 0; i < 3; i++ {
		mustRun(t, r, file, request.Request{Verb: "undo"})
	}
	if code, msg := outcome(run(t, r, file, request.Request{Verb: "undo"})); code != noggin.CodeNothingToUndo ||
		msg != "undo: nothing to undo: every write in the history is already undone" {
		t.Errorf("undo past the start: %s %s", code, msg)
	}
	if len(read(t, file)) != 0 && !strings.Contains(string(read(t, file)), "items: []") {
		t.Errorf("everything undone, yet the file is\n%s", read(t, file))
	}
}

// TestUndoConflict: a write by another tool (no history) makes undo refuse
// and change nothing.
func TestUndoConflict(t *testing.T) {
	r := testRunner(t)
	file := writeFixture(t, fixture)
	mustRun(t, r, file, request.Request{Verb: "push", Title: s("mine")})
	foreign := strings.Replace(string(read(t, file)), "title: mine", "title: theirs", 1)
	if err := os.WriteFile(file, []byte(foreign), 0o644); err != nil {
		t.Fatal(err)
	}
	res := run(t, r, file, request.Request{Verb: "undo"})
	if code, msg := outcome(res); code != noggin.CodeUndoConflict || res.Envelope.ExitCode() != 1 ||
		!strings.HasPrefix(msg, "undo: the noggin changed since #1 (push at 2026-01-02T03:04:05.678Z) outside noggin's history") {
		t.Errorf("undo after a foreign write: %s %s", code, msg)
	}
	if string(read(t, file)) != foreign {
		t.Error("undo-conflict changed the file")
	}
}

// TestHistoryDamage: a missing, truncated or corrupt journal never blocks a
// write; log counts what it cannot read, undo says what it cannot do.
func TestHistoryDamage(t *testing.T) {
	r := testRunner(t)
	file := writeFixture(t, fixture)
	if code, msg := outcome(run(t, r, file, request.Request{Verb: "undo"})); code != noggin.CodeNothingToUndo ||
		!strings.Contains(msg, "no history yet") {
		t.Errorf("undo without history: %s %s", code, msg)
	}
	if got := string(mustRun(t, r, file, request.Request{Verb: "log"}).Envelope.Encode()); !strings.Contains(got, `"missing": true`) {
		t.Errorf("log without history:\n%s", got)
	}
	mustRun(t, r, file, request.Request{Verb: "push", Title: s("one")})
	j := read(t, file+".history")
	// Garbage, then a torn last line (as a crash mid-append leaves it).
	damaged := append([]byte("not json\n{\"v\":1,"), j[:len(j)/2]...)
	if err := os.WriteFile(file+".history", damaged, 0o644); err != nil {
		t.Fatal(err)
	}
	mustRun(t, r, file, request.Request{Verb: "push", Title: s("two")})
	got := string(mustRun(t, r, file, request.Request{Verb: "log"}).Envelope.Encode())
	if !strings.Contains(got, `"unreadable": 2`) || !strings.Contains(got, `"seq": 1,`) {
		t.Errorf("log of a damaged journal:\n%s", got)
	}
	res := mustRun(t, r, file, request.Request{Verb: "undo"})
	if e := res.Envelope.Data.(*noggin.UndoResult).Entry; e.Summary() != `added "two"; activated "two"` {
		t.Errorf("undo took back %+v", e)
	}
	// A journal that cannot be read at all: the write still works.
	if err := os.Remove(file + ".history"); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(file+".history", 0o755); err != nil {
		t.Fatal(err)
	}
	mustRun(t, r, file, request.Request{Verb: "push", Title: s("three")})
	if code, msg := outcome(run(t, r, file, request.Request{Verb: "log"})); code != noggin.CodeHistoryUnavailable {
		t.Errorf("log of an unreadable journal: %s %s", code, msg)
	}
}

// TestHistoryBounded: the journal keeps the last MaxHistory entries.
func TestHistoryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 1,150 times")
	}
	r := testRunner(t)
	file := filepath.Join(t.TempDir(), "n.yaml")
	mustRun(t, r, file, request.Request{Verb: "push", Title: s("x")})
	for i := 0; i < noggin.MaxHistory+compactSlackForTest+50; i++ {
		mustRun(t, r, file, request.Request{Verb: "goto", Path: s("/1")})
		mustRun(t, r, file, request.Request{Verb: "note", Text: s("n")})
	}
	lines := bytes.Count(read(t, file+".history"), []byte{'\n'})
	if lines > noggin.MaxHistory+compactSlackForTest || lines < noggin.MaxHistory {
		t.Errorf("journal holds %d lines", lines)
	}
	res := mustRun(t, r, file, request.Request{Verb: "log", Limit: request.String("5000")})
	if n := len(res.Envelope.Data.(*noggin.LogResult).Entries); n != noggin.MaxHistory {
		t.Errorf("log lists %d entries", n)
	}
}

// compactSlackForTest mirrors the store's slack past MaxHistory.
const compactSlackForTest = 100
