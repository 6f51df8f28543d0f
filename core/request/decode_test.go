package request_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/noggin-go/noggin/core/request"
)

// TestDecodeRoundTrip: every golden envelope of core and of the e2e corpus
// decodes into its verb's result type (the type the verb answers with when
// it runs locally), which encodes to the same bytes again; every verb has
// such an envelope.
func TestDecodeRoundTrip(t *testing.T) {
	var envs [][]byte
	files, _ := filepath.Glob("../testdata/golden/*/*.json")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		envs = append(envs, b)
	}
	scenarios, _ := filepath.Glob("../../e2e/testdata/scenarios/*.txtar")
	for _, f := range scenarios {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, part := range strings.Split(string(b), "\n-- ") {
			if _, body, ok := strings.Cut(part, " --\n"); ok && strings.HasPrefix(body, "{\n  \"status\"") {
				envs = append(envs, []byte(body))
			}
		}
	}
	if len(envs) < 500 {
		t.Fatalf("only %d envelopes found", len(envs))
	}
	local := localResultTypes(t)
	seen := map[string]bool{}
	for _, b := range envs {
		env, err := request.DecodeEnvelope(b)
		if err != nil {
			t.Fatalf("%v:\n%s", err, b)
		}
		if env.OK() {
			seen[env.Verb] = true
			if got, want := reflect.TypeOf(env.Data), local[env.Verb]; !slices.Contains(want, got) {
				t.Fatalf("%s: decoded data is %v, the verb answers %v:\n%s", env.Verb, got, want, b)
			}
		}
		b = append(bytes.TrimRight(b, "\n"), '\n')
		if got := env.Encode(); !bytes.Equal(got, b) {
			t.Fatalf("round trip differs:\nwant %s\ngot  %s", b, got)
		}
	}
	for _, v := range request.Verbs {
		if !seen[v] {
			t.Errorf("no success envelope of %s in the corpus", v)
		}
	}
	t.Logf("%d envelopes round-tripped", len(envs))
}

func TestDecodeRefuses(t *testing.T) {
	for _, b := range []string{``, `[]`, `{"status": "ok"}`, `{"status": "ok", "envelopeVersion": 2, "verb": "show", "data": null}`,
		`{"status": "error", "envelopeVersion": 3, "verb": "show", "error": {}}`, `{"status": "ok", "envelopeVersion": 3, "verb": "show", "data": null} x`,
		`{"status": "maybe", "envelopeVersion": 3, "verb": "show"}`} {
		if _, err := request.DecodeEnvelope([]byte(b)); err == nil {
			t.Errorf("Decode(%q) accepted", b)
		}
	}
}

// localResultTypes runs every verb once on a file and returns the type of
// its data.
func localResultTypes(t *testing.T) map[string][]reflect.Type {
	t.Helper()
	dir := t.TempDir()
	file, other := filepath.Join(dir, "n.yaml"), filepath.Join(dir, "o.yaml")
	r := testRunner(t)
	s := request.String
	steps := []*request.Request{
		{Verb: "push", Title: s("a")}, {Verb: "add", Title: s("b")}, {Verb: "note", Text: s("n")},
		{Verb: "edit", Path: s("/1/1"), Title: s("c")}, {Verb: "move", Path: s("/1/1"), Into: s("/1")},
		{Verb: "goto", Path: s("/1")}, {Verb: "show"}, {Verb: "where"}, {Verb: "find", Query: s("a")},
		{Verb: "push", Title: s("d")}, {Verb: "done"}, {Verb: "push", Title: s("e")}, {Verb: "pop"},
		{Verb: "delete", Path: s("/1/1")}, {Verb: "log"}, {Verb: "undo"}, {Verb: "redo"}, {Verb: "providers"},
		{Verb: "push", Title: s("f"), Agent: s("ann")}, {Verb: "agents", Forget: s("ann")},
		{Verb: "where", Agent: s("ann")}, {Verb: "changes"},
		{Verb: "copy", From: s(file), To: s(other)},
	}
	types := map[string][]reflect.Type{}
	first := "" // the revision of the first answer: changes lists every write since
	for _, req := range steps {
		if req.Verb != "copy" && req.Verb != "providers" {
			req.Location = s(file)
		}
		if req.Verb == "changes" {
			req.Since = s(first)
		}
		res := r.Run(context.Background(), req)
		if first == "" {
			first = res.Envelope.Revision
		}
		if !res.Envelope.OK() {
			t.Fatalf("%s: %s", req.Verb, res.Envelope.Encode())
		}
		types[req.Verb] = append(types[req.Verb], reflect.TypeOf(res.Envelope.Data))
	}
	for _, v := range request.Verbs {
		if types[v] == nil {
			t.Fatalf("verb %s did not run", v)
		}
	}
	return types
}

// TestDecodeKeepsLoneSurrogates: an envelope whose text holds a lone
// surrogate escape (the original's files can) decodes to the same text a
// local run holds (WTF-8), which encodes to the same bytes again.
func TestDecodeKeepsLoneSurrogates(t *testing.T) {
	b := []byte("{\n  \"status\": \"ok\",\n  \"envelopeVersion\": 3,\n  \"verb\": \"where\",\n  \"data\": \"a\\ud800b\\udc00\"\n}\n")
	env, err := request.DecodeEnvelope(b)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprint(env.Data), "a\xed\xa0\x80b\xed\xb0\x80"; got != want {
		t.Errorf("data %q, want %q (WTF-8)", got, want)
	}
	if got := env.Encode(); !bytes.Equal(got, b) {
		t.Errorf("round trip:\n%s\nwant\n%s", got, b)
	}
}
