package request_test

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/request"
	"github.com/noggin-go/noggin/core/store"
)

// TestRequestIDAnsweredOnce: a write with a request id is recorded with
// its answer; a retry with the id — through another runner and store, as
// after a restart — gets the same bytes and writes nothing.
func TestRequestIDAnsweredOnce(t *testing.T) {
	for _, tc := range []struct {
		name string
		req  request.Request
	}{
		{"push", request.Request{Verb: "push", Title: s("retry me")}},
		{"note", request.Request{Verb: "note", Text: s("noted once")}},
		{"done", request.Request{Verb: "done", Path: s("/1/1")}},
		{"move", request.Request{Verb: "move", Path: s("/1/2"), Before: s("/1/1")}},
		{"delete", request.Request{Verb: "delete", Path: s("/1/2")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := writeFixture(t, fixture)
			req := tc.req
			req.ID = "id-" + strings.ReplaceAll(tc.name, " ", "-")
			first := run(t, testRunner(t), file, req)
			after := read(t, file)
			history := read(t, file+".history")
			for range 2 {
				again := run(t, testRunner(t), file, req)
				if !bytes.Equal(again.Envelope.Encode(), first.Envelope.Encode()) {
					t.Fatalf("retry answered\n%s\nfirst answer\n%s", again.Envelope.Encode(), first.Envelope.Encode())
				}
			}
			if !bytes.Equal(read(t, file), after) || !bytes.Equal(read(t, file+".history"), history) {
				t.Fatalf("the retry wrote")
			}
			var e struct{ Request, Reply string }
			if err := json.Unmarshal(bytes.TrimSpace(history), &e); err != nil || e.Request != req.ID || e.Reply != string(first.Envelope.Text()) {
				t.Errorf("journal entry: request %q reply %q, %v", e.Request, e.Reply, err)
			}
			// Without the id, the same request writes again.
			req.ID = ""
			if run(t, testRunner(t), file, req); tc.name == "push" && bytes.Equal(read(t, file), after) {
				t.Errorf("a request without id did not write")
			}
		})
	}
}

// TestRequestIDPhantom: a journal entry whose write died before it
// replaced the noggin does not answer a retry: the retry writes, and its
// entry takes the phantom's place.
func TestRequestIDPhantom(t *testing.T) {
	file := writeFixture(t, fixture)
	req := request.Request{Verb: "push", Title: s("once"), ID: "abc"}
	mustRun(t, testRunner(t), file, request.Request{Verb: "note", Text: s("before")})
	before := read(t, file)
	hist := read(t, file+".history")
	mustRun(t, testRunner(t), file, req)
	// The crash: the noggin back as it was, the entry (with its id) kept.
	if err := os.WriteFile(file, before, 0o644); err != nil {
		t.Fatal(err)
	}
	again := mustRun(t, testRunner(t), file, req)
	if bytes.Equal(read(t, file), before) {
		t.Fatalf("the retry of a write that never happened did not write")
	}
	lines := bytes.Split(bytes.TrimSpace(read(t, file+".history")), []byte("\n"))
	if n := len(bytes.Split(bytes.TrimSpace(hist), []byte("\n"))); len(lines) != n+1 {
		t.Fatalf("history has %d entries, want %d (the phantom replaced)", len(lines), n+1)
	}
	var e struct {
		Seq   int
		Reply string
	}
	if err := json.Unmarshal(lines[len(lines)-1], &e); err != nil || e.Seq != len(lines) || e.Reply != string(again.Envelope.Text()) {
		t.Errorf("last entry seq %d, reply %q: %v", e.Seq, e.Reply, err)
	}
	// Undo takes back the retried push, not the phantom.
	mustRun(t, testRunner(t), file, request.Request{Verb: "undo"})
	if !bytes.Equal(read(t, file), before) {
		t.Errorf("undo did not restore the file")
	}
}

// TestRequestIDUndoAfterPhantom: undo skips a phantom last entry.
func TestRequestIDUndoAfterPhantom(t *testing.T) {
	file := writeFixture(t, fixture)
	mustRun(t, testRunner(t), file, request.Request{Verb: "note", Text: s("one")})
	one := read(t, file)
	mustRun(t, testRunner(t), file, request.Request{Verb: "note", Text: s("two"), ID: "x1"})
	if err := os.WriteFile(file, one, 0o644); err != nil { // died before its rename
		t.Fatal(err)
	}
	res := mustRun(t, testRunner(t), file, request.Request{Verb: "undo"})
	if u, ok := res.Envelope.Data.(*noggin.UndoResult); !ok || u.Entry.Seq != 1 {
		t.Fatalf("undo took back %+v, want #1", res.Envelope.Data)
	}
}

func TestValidID(t *testing.T) {
	for id, want := range map[string]bool{
		"0123456789abcdef0123456789abcdef": true, "a.b-c_d:e": true, "": false,
		strings.Repeat("a", 129): false, "a\"b": false, "a b": false, "é": false, "a\\u0000": false,
	} {
		if got := request.ValidID(id); got != want {
			t.Errorf("ValidID(%q) = %v", id, got)
		}
	}
}

// TestLoneSurrogates: a lone surrogate in an MCP argument or a remote
// request is kept: written as the original writes it ("\uD800"), shown in
// JSON as JSON.stringify shows it ("\ud800").
func TestLoneSurrogates(t *testing.T) {
	file := writeFixture(t, fixture)
	r := testRunner(t)
	args, _ := json.Marshal(map[string]string{"noggin": file, "title": "x"})
	args = bytes.Replace(args, []byte(`"x"`), []byte(`"a\ud800b\udc00\ud83d\ude00"`), 1)
	res := r.RunJSON(t.Context(), "noggin_push", args)
	if !bytes.Contains(res.Envelope.Encode(), []byte(`"title": "a\ud800b\udc00😀"`)) {
		t.Fatalf("envelope: %s", res.Envelope.Encode())
	}
	if !bytes.Contains(read(t, file), []byte(`title: "a\uD800b\uDC00😀"`)) {
		t.Fatalf("file:\n%s", read(t, file))
	}
	// The wire form of a remote request carries it too.
	req := request.Request{Verb: "push", Title: s("a\xed\xa0\x80b")}
	b, err := req.MarshalJSON()
	if err != nil || !bytes.Contains(b, []byte(`a\ud800b`)) {
		t.Fatalf("wire form %s, %v", b, err)
	}
	var back request.Request
	if err := back.UnmarshalJSON(b); err != nil || back.Title.Value != "a\xed\xa0\x80b" {
		t.Fatalf("read back %q, %v", back.Title.Value, err)
	}
}

// FuzzValidID: a valid id is short and plain, so that the journal's
// "request":"<id>" needs no escape (store.recorded looks for those bytes).
func FuzzValidID(f *testing.F) {
	for _, s := range []string{"0123456789abcdef", "a.b-c_d:e", "", "a\"b", "a\\b", "é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		if !request.ValidID(id) {
			return
		}
		q, _ := json.Marshal(id)
		if len(id) == 0 || len(id) > 128 || string(q) != `"`+id+`"` {
			t.Fatalf("ValidID(%q) but it encodes as %s", id, q)
		}
	})
}

// TestRequestIDIndexSeesOtherWriters: a server keeps the history's request
// ids in memory; a retry of a write another process recorded meanwhile is
// still answered from the history, not applied again.
func TestRequestIDIndexSeesOtherWriters(t *testing.T) {
	file := writeFixture(t, fixture)
	server := testRunner(t)
	server.Opener = store.NewCache(store.Options{})
	other := testRunner(t) // another process: a store of its own
	mustRun(t, server, file, request.Request{Verb: "note", Text: s("one"), ID: "a"})
	mustRun(t, server, file, request.Request{Verb: "note", Text: s("zero"), ID: "z"}) // the server has its index
	first := mustRun(t, other, file, request.Request{Verb: "note", Text: s("two"), ID: "b"})
	after := read(t, file)
	again := mustRun(t, server, file, request.Request{Verb: "note", Text: s("two"), ID: "b"})
	if !bytes.Equal(again.Envelope.Encode(), first.Envelope.Encode()) || !bytes.Equal(read(t, file), after) {
		t.Fatalf("a retry of another process's write was applied again:\n%s", again.Envelope.Encode())
	}
	mustRun(t, server, file, request.Request{Verb: "note", Text: s("three"), ID: "c"})
	if again := mustRun(t, server, file, request.Request{Verb: "note", Text: s("one"), ID: "a"}); strings.Count(string(read(t, file)), "text: one") != 1 {
		t.Fatalf("a retry of this store's own write was applied again:\n%s", again.Envelope.Encode())
	}
}
