package request_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/request"
	"github.com/noggin-go/noggin/core/store"
)

func testRunner(t testing.TB) *request.Runner {
	t.Helper()
	eng, err := noggin.EngineFromEnv(func(k string) string {
		return map[string]string{"NOGGIN_CLOCK": "2026-01-02T03:04:05.678Z", "NOGGIN_KEYS": "sequential"}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	return &request.Runner{Engine: eng, Opener: store.Opener{}}
}

// fixture is a noggin with /1 root (active) and its children /1/1, /1/2.
const fixture = `schemaVersion: 1
active: r
items:
  - {key: r, parentKey: null, title: root, done: false, createdAt: null, notes: []}
  - {key: a, parentKey: r, title: alpha, done: false, createdAt: null, notes: []}
  - {key: b, parentKey: r, title: beta, done: false, createdAt: null, notes: []}
`

func writeFixture(t testing.TB, body string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "n.yaml")
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// outcome is "ok" or the error code, plus the message for errors.
func outcome(res request.Result) (string, string) {
	if res.Envelope.OK() {
		return "ok", ""
	}
	return res.Envelope.Err.Code, res.Envelope.Message()
}

func s(v string) request.Arg { return request.String(v) }

var on = request.Flag(true)

// TestRun is the table of argument rules, one row per rule, all on the
// request form the CLI and the typed RPCs fill in.
func TestRun(t *testing.T) {
	cases := []struct {
		name string
		req  request.Request
		code string
		// title, if set, is the title of the new or edited item.
		title string
		msg   string
	}{
		{name: "push words joined", req: request.Request{Verb: "push", Positionals: []string{"a", "b"}}, code: "ok", title: "a b"},
		{name: "push --title wins", req: request.Request{Verb: "push", Title: s("t"), Positionals: []string{"w"}}, code: "ok", title: "t"},
		{name: "push empty --title falls back to words", req: request.Request{Verb: "push", Title: s(""), Positionals: []string{"w"}}, code: "ok", title: "w"},
		{name: "push BOM trimmed", req: request.Request{Verb: "push", Title: s("\ufeffbom")}, code: "ok", title: "bom"},
		{name: "push U+0085 kept", req: request.Request{Verb: "push", Title: s("\u0085")}, code: "ok", title: "\u0085"},
		{name: "push U+200B kept", req: request.Request{Verb: "push", Title: s("\u200b")}, code: "ok", title: "\u200b"},
		{name: "push U+3000 only", req: request.Request{Verb: "push", Title: s("\u3000")}, code: "title-required", msg: "push: title required (CLI: --title or words)"},
		{name: "push no title", req: request.Request{Verb: "push"}, code: "title-required"},
		{name: "add padded", req: request.Request{Verb: "add", Title: s("  padded  child  ")}, code: "ok", title: "padded  child"},
		{name: "add empty anchor is none", req: request.Request{Verb: "add", Title: s("x"), Into: s("")}, code: "ok", title: "x"},
		{name: "add two placements", req: request.Request{Verb: "add", Title: s("x"), Before: s("/1/1"), After: s("/1/2")}, code: "noggin-error",
			msg: "add: choose at most one of before, after and into (CLI: --before, --after, --into)"},
		{name: "add kind and anchor", req: request.Request{Verb: "add", Title: s("x"), PlacementKind: s("sideways"), Anchor: s("/1")}, code: "placement-invalid"},
		{name: "add goto falsy", req: request.Request{Verb: "add", Title: s("x"), Goto: request.Arg{Given: true, Value: false}}, code: "goto-path-required"},
		{name: "move none", req: request.Request{Verb: "move", Path: s("/1/1")}, code: "placement-missing"},
		{name: "move two paths", req: request.Request{Verb: "move", Positionals: []string{"/1/1", "/1/2"}, Into: s("/1")}, code: "noggin-error",
			msg: "move: accepts at most one path"},
		{name: "goto blank", req: request.Request{Verb: "goto", Path: s(" \u3000")}, code: "path-required", msg: "goto: path required"},
		{name: "goto trimmed", req: request.Request{Verb: "goto", Positionals: []string{" /1/2 "}}, code: "ok"},
		{name: "done goto", req: request.Request{Verb: "done", Goto: on}, code: "goto-unsupported"},
		{name: "pop positional", req: request.Request{Verb: "pop", Positionals: []string{"/1"}}, code: "pop-no-path"},
		{name: "pop empty path given", req: request.Request{Verb: "pop", Path: s("")}, code: "pop-no-path"},
		{name: "pop goto", req: request.Request{Verb: "pop", Goto: s(".")}, code: "goto-unsupported"},
		{name: "edit done and open", req: request.Request{Verb: "edit", Done: on, Open: on}, code: "noggin-error"},
		{name: "edit nothing", req: request.Request{Verb: "edit", Title: s("\u3000")}, code: "nothing-to-edit"},
		{name: "edit bad state with title", req: request.Request{Verb: "edit", State: s("closed"), Title: s("y")}, code: "noggin-error",
			msg: `edit: state must be "done" or "open"`},
		{name: "edit bad state alone", req: request.Request{Verb: "edit", State: s("closed")}, code: "nothing-to-edit"},
		{name: "edit rename trims", req: request.Request{Verb: "edit", Path: s("/1/1"), Title: s("\ufeff renamed ")}, code: "ok", title: "renamed"},
		{name: "show conflict", req: request.Request{Verb: "show", NoChildren: on, WithAll: on}, code: "noggin-error",
			msg: "show: withDescendants (or withAll) and noChildren exclude each other (CLI: --with-descendants, --with-all, --no-children)"},
		{name: "note path word", req: request.Request{Verb: "note", Positionals: []string{"/1/2", "hello", "there"}}, code: "ok"},
		{name: "note blank", req: request.Request{Verb: "note", Text: s("\u3000\t")}, code: "text-required"},
		{name: "delete goto first", req: request.Request{Verb: "delete", Goto: on}, code: "goto-unsupported"},
		{name: "delete blank", req: request.Request{Verb: "delete", Path: s("  ")}, code: "path-required"},
		{name: "delete two", req: request.Request{Verb: "delete", Positionals: []string{"/1/1", "/1/2"}}, code: "noggin-error"},
		{name: "copy none", req: request.Request{Verb: "copy"}, code: "source-required"},
		{name: "copy one", req: request.Request{Verb: "copy", Positionals: []string{"x.yaml"}}, code: "dest-required"},
		{name: "copy non-string", req: request.Request{Verb: "copy", From: request.Arg{Given: true, Value: 1.0}, To: s("y.yaml")}, code: "source-required"},
		{name: "unknown verb", req: request.Request{Verb: "frobnicate"}, code: "noggin-error"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			file := writeFixture(t, fixture)
			req := c.req
			if req.Verb != "copy" {
				req.Location = s(file)
			}
			res := testRunner(t).Run(context.Background(), &req)
			code, msg := outcome(res)
			if code != c.code || c.msg != "" && msg != c.msg {
				t.Fatalf("got %s %q, want %s %q", code, msg, c.code, c.msg)
			}
			if c.title != "" {
				v, ok := res.Envelope.Data.(*noggin.View)
				if !ok {
					t.Fatalf("data %T", res.Envelope.Data)
				}
				if got := findTitle(v.Items, v.TargetKey); got != c.title {
					t.Errorf("title %q, want %q", got, c.title)
				}
			}
			if code != "ok" {
				if data, _ := os.ReadFile(file); string(data) != fixture {
					t.Errorf("a failed request changed the file:\n%s", data)
				}
			}
		})
	}
}

func findTitle(ns []*noggin.Node, key string) string {
	for _, n := range ns {
		if n.Key == key {
			return n.Title
		}
		if t := findTitle(n.Children, key); t != "" {
			return t
		}
	}
	return ""
}

// TestChecksBeforeOpen: checks that need no noggin come before the open, so
// a broken file is reported only after them; the others come after it.
func TestChecksBeforeOpen(t *testing.T) {
	file := writeFixture(t, "items: [")
	for _, c := range []struct {
		req  request.Request
		code string
	}{
		{request.Request{Verb: "push"}, "title-required"},
		{request.Request{Verb: "goto"}, "path-required"},
		{request.Request{Verb: "pop", Goto: on}, "goto-unsupported"},
		{request.Request{Verb: "note"}, "invalid-document"},
		{request.Request{Verb: "move"}, "invalid-document"},
		{request.Request{Verb: "show", NoChildren: on, WithDescendants: on}, "invalid-document"},
	} {
		req := c.req
		req.Location = s(file)
		if code, msg := outcome(testRunner(t).Run(context.Background(), &req)); code != c.code {
			t.Errorf("%s: got %s %q, want %s", req.Verb, code, msg, c.code)
		}
	}
}

// TestLocation: a blank location falls back to the default when there is
// one and is no-location otherwise; it is trimmed as JavaScript trims.
func TestLocation(t *testing.T) {
	file := writeFixture(t, fixture)
	r := testRunner(t)
	for _, loc := range []request.Arg{{}, s(""), s(" \u3000"), {Given: true, Value: 1.0}, {Given: true, Value: nil}} {
		if code, _ := outcome(r.Run(context.Background(), &request.Request{Verb: "where", Location: loc})); code != "no-location" {
			t.Errorf("location %+v: %s, want no-location", loc, code)
		}
	}
	res := r.Run(context.Background(), &request.Request{Verb: "where", Location: s("\ufeff" + file + " ")})
	if got, _ := res.Envelope.Data.(noggin.Location); string(got) != file {
		t.Errorf("where = %q, want %q", got, file)
	}
	r.DefaultLocation = func() string { return file }
	if res := r.Run(context.Background(), &request.Request{Verb: "where", Location: s(" ")}); res.Envelope.Data != noggin.Location(file) {
		t.Errorf("default: %v", res.Envelope.Data)
	}
}

// TestRunJSON: tool calls decode the MCP arguments; unknown arguments and
// non-object arguments are errors; JavaScript string forms apply.
func TestRunJSON(t *testing.T) {
	file := writeFixture(t, fixture)
	loc, _ := json.Marshal(file)
	for _, c := range []struct {
		tool, args, code, msg string
	}{
		{"noggin_push", `{"noggin": ` + string(loc) + `, "tittle": "x", "b": 1}`, "unknown-argument",
			"push: unknown argument 'b'; it takes: noggin, title, ifRevision, window, maxBytes, format"},
		{"noggin_providers", `{"x": 1}`, "unknown-argument", "providers: unknown argument 'x'; it takes: format"},
		{"noggin_pop", `{"noggin": ` + string(loc) + `, "path": "/1"}`, "pop-no-path", ""},
		{"noggin_show", `{"noggin": ` + string(loc) + `, "goto": "/1"}`, "unknown-argument", ""},
		{"noggin_push", `[1]`, "noggin-error", "push: arguments must be a JSON object"},
		{"noggin_push", `null`, "title-required", ""},
		{"noggin_bogus", `{}`, "noggin-error", "unknown verb 'noggin_bogus' (the verbs: " + strings.Join(request.Verbs, ", ") + "; try 'help')"},
		{"push", `{}`, "noggin-error", "unknown verb 'push' (the verbs: " + strings.Join(request.Verbs, ", ") + "; try 'help')"},
		{"noggin_push", `{"noggin": ` + string(loc) + `, "title": 0}`, "invalid-argument", "push: argument 'title' must be a string, not integer"},
		{"noggin_push", `{"noggin": ` + string(loc) + `, "title": ["a", "b"]}`, "invalid-argument", "push: argument 'title' must be a string, not array"},
		{"noggin_push", `{"noggin": ` + string(loc) + `, "title": {"x": 1}}`, "invalid-argument", "push: argument 'title' must be a string, not object"},
		{"noggin_show", `{"noggin": ` + string(loc) + `, "withAll": "yes"}`, "invalid-argument", "show: argument 'withAll' must be a boolean, not string"},
		{"noggin_log", `{"noggin": ` + string(loc) + `, "limit": true}`, "invalid-argument", "log: argument 'limit' must be a number or string, not boolean"},
		{"noggin_log", `{"noggin": ` + string(loc) + `, "limit": 2.5}`, "invalid-limit", ""},
		{"noggin_add", `{"noggin": ` + string(loc) + `, "title": "x", "goto": 1}`, "invalid-argument", "add: argument 'goto' must be a string or boolean, not integer"},
		{"noggin_push", `{"noggin": ` + string(loc) + `, "title": "x", "noggin2": null}`, "unknown-argument", ""},
		{"noggin_add", `{"noggin": ` + string(loc) + `, "title": "x", "goto": null}`, "goto-path-required", ""},
		{"noggin_add", `{"noggin": ` + string(loc) + `, "title": "x", "before": ""}`, "ok", ""},
	} {
		code, msg := outcome(testRunner(t).RunJSON(context.Background(), c.tool, json.RawMessage(c.args)))
		if code != c.code || c.msg != "" && msg != c.msg {
			t.Errorf("%s %s: got %s %q, want %s %q", c.tool, c.args, code, msg, c.code, c.msg)
		}
	}
	// RunCall: show takes goto.
	if code, msg := outcome(testRunner(t).RunCall(context.Background(), "show", map[string]any{"noggin": file, "goto": "/1/1"})); code != "ok" {
		t.Errorf("RunCall show goto: %s %s", code, msg)
	}
	if data, _ := os.ReadFile(file); !strings.Contains(string(data), "active: a") {
		t.Errorf("show goto did not move the cursor:\n%s", data)
	}
}

// TestParamsHaveFields: every structured argument reaches a request field
// (a call with only that argument never fails as unknown).
func TestParamsHaveFields(t *testing.T) {
	for _, v := range request.Verbs {
		for _, p := range request.Params(v) {
			res := testRunner(t).RunCall(context.Background(), v, map[string]any{p.Name: nil})
			if res.Envelope.Err != nil && res.Envelope.Err.Code == noggin.CodeUnknownArgument {
				t.Errorf("%s %s: %s", v, p.Name, res.Envelope.Message())
			}
		}
	}
}

// TestNeverPanics: a panic in the engine is an internal-error envelope.
func TestNeverPanics(t *testing.T) {
	r := testRunner(t)
	r.Engine.Keys = panicKeys{}
	var told bool
	r.Panicked = func(any, []byte) { told = true }
	file := filepath.Join(t.TempDir(), "n.yaml")
	res := r.Run(context.Background(), &request.Request{Verb: "push", Location: s(file), Title: s("x")})
	if code, msg := outcome(res); code != "noggin-error" || !strings.HasPrefix(msg, "internal error: ") || !told {
		t.Errorf("got %s %q told=%v", code, msg, told)
	}
}

type panicKeys struct{}

func (panicKeys) NewKeys(*noggin.Document, time.Time, int) []string { panic("no keys") }
