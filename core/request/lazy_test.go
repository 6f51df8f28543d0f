package request_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/noggin-go/noggin/core/codec"
	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/request"
	"github.com/noggin-go/noggin/core/sampledoc"
	"github.com/noggin-go/noggin/core/store"
)

// wholeOpener opens one-shot stores that cannot read lazily: the verbs
// then run on whole documents.
type wholeOpener struct{ store.Opener }

func (o wholeOpener) Open(ctx context.Context, location string) (noggin.Store, error) {
	st, err := o.Opener.Open(ctx, location)
	return struct{ noggin.Store }{st}, err
}

// TestLazyVerbsAsWhole: verbs run as the CLI runs them, one one-shot store
// per call, on a generated noggin this build wrote, read lazily (only the
// items a verb reads are decoded, the others copied) and whole: the same
// envelopes, files and journals, call after call, with hostile titles and
// notes written along the way.
func TestLazyVerbsAsWhole(t *testing.T) {
	for _, seed := range []int64{1, 2, 3} {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { lazyAsWhole(t, seed, 80) })
	}
}

func lazyAsWhole(t *testing.T, seed int64, calls int) {
	t.Helper()
	dir := t.TempDir()
	lazyPath, wholePath := filepath.Join(dir, "lazy.yaml"), filepath.Join(dir, "whole.yaml")
	if err := os.WriteFile(lazyPath, codec.EncodeYAML(sampledoc.Doc(400, seed)), 0o644); err != nil {
		t.Fatal(err)
	}
	lazy, whole := testRunner(t), testRunner(t)
	lazy.Opener = store.Opener{Options: store.Options{MapFiles: true}}
	whole.Opener = wholeOpener{store.Opener{Options: store.Options{MapFiles: true}}}
	// The first write makes the file one this build wrote, with a journal.
	runEnv(t, lazy, &request.Request{Verb: "push", Location: request.String(lazyPath), Title: request.String("start")})
	for _, suffix := range []string{"", ".history"} {
		data, err := os.ReadFile(lazyPath + suffix)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(wholePath+suffix, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := rand.New(rand.NewSource(seed))
	paths := func() string {
		p := ""
		for range 1 + r.Intn(3) {
			p += fmt.Sprintf("/%d", 1+r.Intn(4))
		}
		return []string{p, ".", "..", "-", "+", "1", "/1"}[r.Intn(7)]
	}
	for i := range calls {
		req := lazyRequest(r, paths)
		req.Location = request.String(lazyPath)
		got := runEnv(t, lazy, req)
		req.Location = request.String(wholePath)
		want := runEnv(t, whole, req)
		got = bytes.ReplaceAll(got, []byte("lazy.yaml"), []byte("whole.yaml"))
		if !bytes.Equal(got, want) {
			t.Fatalf("call %d %s %v: lazily\n%s\nwhole\n%s", i, req.Verb, req.Positionals, got, want)
		}
		for _, suffix := range []string{"", ".history"} {
			a, _ := os.ReadFile(lazyPath + suffix)
			b, _ := os.ReadFile(wholePath + suffix)
			if !bytes.Equal(a, b) {
				t.Fatalf("call %d %s %v: the files%s differ", i, req.Verb, req.Positionals, suffix)
			}
		}
	}
}

// hostileText is text an agent may write: control characters, escapes,
// every kind of space, YAML's words and indicators, lines that look like
// the file's own entries, and long values.
var hostileText = []string{
	"plain words", "null", "true", "~", "0x1A", "1e3", "- key: x", "\n  - key: i-1", "a: b #c",
	"'quoted'", "\"dq\"", "\ufeffbom", "next\u0085line", "tab\there", "\x1b[31mred\x1b[0m", "nul\x00",
	"line\n  - key: fake\n    parentKey: null", "\u00a0\u2003\u3000", "trailing ", " leading",
	strings.Repeat("long ", 400), "|\n  block", ">- folded", "* alias", "&anchor", "!tag", "{flow: map}", "[1, 2]",
}

// lazyRequest is a random call of a verb that reads lazily.
func lazyRequest(r *rand.Rand, path func() string) *request.Request {
	yes := request.Arg{Given: true, Value: true}
	text := func() string { return hostileText[r.Intn(len(hostileText))] }
	switch r.Intn(12) {
	case 0:
		return &request.Request{Verb: "push", Title: request.String(text())}
	case 1:
		return &request.Request{Verb: "add", Title: request.String(text()), Into: request.String(path())}
	case 2:
		return &request.Request{Verb: "note", Path: request.String(path()), Text: request.String(text())}
	case 3:
		return &request.Request{Verb: "done", Positionals: []string{path()}, Force: yes}
	case 4:
		return &request.Request{Verb: "done", Positionals: []string{path()}, CloseAll: yes}
	case 5:
		return &request.Request{Verb: "pop", Force: yes}
	case 6:
		return &request.Request{Verb: "edit", Positionals: []string{path()}, Title: request.String(text())}
	case 7:
		return &request.Request{Verb: "goto", Positionals: []string{path()}}
	case 8:
		return &request.Request{Verb: "move", Positionals: []string{path()}, Before: request.String(path())}
	case 9:
		return &request.Request{Verb: "delete", Positionals: []string{path()}, Recursive: yes}
	case 10:
		return &request.Request{Verb: "show", Positionals: []string{path()}, WithSiblings: yes}
	}
	return &request.Request{Verb: "edit", Positionals: []string{path()}, State: request.String("open")}
}

// runEnv runs req and returns its envelope's bytes.
func runEnv(t *testing.T, r *request.Runner, req *request.Request) []byte {
	t.Helper()
	return r.Run(context.Background(), req).Envelope.Encode()
}
