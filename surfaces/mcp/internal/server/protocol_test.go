package server

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/noggin-go/noggin/core/buildinfo"
	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/store"
)

// OriginalToolsListBytes is the original v0.9.0's tools/list response on
// the wire (13 tools), measured with its MCP server.
const OriginalToolsListBytes = 7992

// TestToolsList compares tools/list with testdata/tools.json and checks
// the order, required lists and property order of docs/mcp.md.
func TestToolsList(t *testing.T) {
	// Capture the server's wire bytes: the client decodes schemas into
	// maps, which would lose the property order.
	var wire syncBuffer
	h := NewHandler(Config{Engine: testEngine(t)})
	st, ct := mcp.NewInMemoryTransports()
	ss, err := h.Server().Connect(context.Background(), &mcp.LoggingTransport{Transport: st, Writer: &wire}, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "0"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cs.Close(); ss.Wait() }()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	// The logging transport logs a message just after sending it: wait
	// for the line.
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(wire.String(), `"tools":[`) && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	var rawTools []json.RawMessage
	for _, line := range strings.Split(wire.String(), "\n") {
		msg, ok := strings.CutPrefix(line, "write: ")
		if !ok || !strings.Contains(msg, `"tools":[`) {
			continue
		}
		// An agent pays for the tool list before its first call: no more
		// than the original's for its 13 tools (docs/mcp.md).
		if len(msg) > OriginalToolsListBytes {
			t.Errorf("tools/list is %d bytes on the wire, over the original's %d", len(msg), OriginalToolsListBytes)
		}
		t.Logf("tools/list: %d bytes (the original's: %d)", len(msg), OriginalToolsListBytes)
		var resp struct {
			Result struct {
				Tools []json.RawMessage `json:"tools"`
			} `json:"result"`
		}
		if err := json.Unmarshal([]byte(msg), &resp); err != nil {
			t.Fatal(err)
		}
		rawTools = resp.Result.Tools
	}
	var pretty bytes.Buffer
	pretty.WriteString("[\n")
	for i, rt := range rawTools {
		if i > 0 {
			pretty.WriteString(",\n")
		}
		if err := json.Indent(&pretty, rt, "", "  "); err != nil {
			t.Fatal(err)
		}
	}
	pretty.WriteString("\n]\n")
	golden(t, "tools.json", pretty.Bytes())

	want := []struct {
		name     string
		required []string
		props    []string
	}{
		{"noggin_show", []string{"noggin"}, []string{"noggin", "path", "noChildren", "withSiblings", "withDescendants", "withAll", "window", "maxBytes", "format"}},
		{"noggin_push", []string{"noggin", "title"}, []string{"noggin", "title", "ifRevision"}},
		{"noggin_add", []string{"noggin", "title"}, []string{"noggin", "title", "before", "after", "into", "goto", "ifRevision"}},
		{"noggin_goto", []string{"noggin", "path"}, []string{"noggin", "path", "ifRevision"}},
		{"noggin_done", []string{"noggin"}, []string{"noggin", "path", "force", "closeAll", "ifRevision"}},
		{"noggin_pop", []string{"noggin"}, []string{"noggin", "force", "closeAll", "ifRevision"}},
		{"noggin_edit", []string{"noggin"}, []string{"noggin", "path", "state", "title", "force", "closeAll", "goto", "ifRevision"}},
		{"noggin_note", []string{"noggin", "text"}, []string{"noggin", "path", "text", "goto", "ifRevision"}},
		{"noggin_move", []string{"noggin"}, []string{"noggin", "path", "before", "after", "into", "goto", "ifRevision"}},
		{"noggin_delete", []string{"noggin", "path"}, []string{"noggin", "path", "recursive", "ifRevision"}},
		{"noggin_where", []string{"noggin"}, []string{"noggin"}},
		{"noggin_copy", []string{"from", "to"}, []string{"from", "to"}},
		{"noggin_find", []string{"noggin", "query"}, []string{"noggin", "query", "open", "done", "under", "limit", "by"}},
		{"noggin_log", []string{"noggin"}, []string{"noggin", "limit", "by"}},
		{"noggin_changes", []string{"noggin", "since"}, []string{"noggin", "since", "limit"}},
		{"noggin_agents", []string{"noggin"}, []string{"noggin", "forget", "ifRevision"}},
		{"noggin_undo", []string{"noggin"}, []string{"noggin", "ifRevision"}},
		{"noggin_redo", []string{"noggin"}, []string{"noggin", "ifRevision"}},
		{"noggin_providers", nil, []string{}},
	}
	if len(res.Tools) != len(want) {
		t.Fatalf("%d tools, want %d", len(res.Tools), len(want))
	}
	for i, w := range want {
		tool := res.Tools[i]
		if tool.Name != w.name {
			t.Errorf("tool %d = %s, want %s", i, tool.Name, w.name)
			continue
		}
		var s struct {
			Type     string          `json:"type"`
			Required []string        `json:"required"`
			Props    json.RawMessage `json:"properties"`
		}
		var wt struct {
			InputSchema json.RawMessage `json:"inputSchema"`
		}
		if i >= len(rawTools) {
			t.Fatalf("only %d tools on the wire", len(rawTools))
		}
		if err := json.Unmarshal(rawTools[i], &wt); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(wt.InputSchema, &s); err != nil {
			t.Fatal(err)
		}
		if s.Type != "object" || !slices.Equal(s.Required, w.required) {
			t.Errorf("%s: type %q required %q, want object %q", w.name, s.Type, s.Required, w.required)
		}
		if got := objectKeys(t, s.Props); !slices.Equal(got, w.props) {
			t.Errorf("%s: properties %q, want %q", w.name, got, w.props)
		}
		if tool.OutputSchema != nil {
			t.Errorf("%s: an output schema (each result is its text once)", w.name)
		}
		// The hints as a client reads them: absent ones hold the spec's
		// defaults (readOnly false, destructive true, idempotent false).
		a := tool.Annotations
		if a == nil {
			a = &mcp.ToolAnnotations{}
		}
		ro := w.name == "noggin_show" || w.name == "noggin_where" || w.name == "noggin_providers" ||
			w.name == "noggin_find" || w.name == "noggin_log" || w.name == "noggin_changes"
		if a.ReadOnlyHint != ro {
			t.Errorf("%s: readOnlyHint %v", w.name, a.ReadOnlyHint)
		}
		destructive := map[string]bool{"noggin_delete": true, "noggin_done": true, "noggin_pop": true, "noggin_move": true, "noggin_edit": true,
			"noggin_undo": true, "noggin_redo": true, "noggin_agents": true}[w.name]
		if got := a.DestructiveHint == nil || *a.DestructiveHint; !ro && got != destructive {
			t.Errorf("%s: destructiveHint %v, want %v", w.name, got, destructive)
		}
		if idem := w.name == "noggin_edit"; !ro && a.IdempotentHint != idem {
			t.Errorf("%s: idempotentHint %v, want %v", w.name, a.IdempotentHint, idem)
		}
	}
}

// syncBuffer is a bytes.Buffer safe for concurrent writers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// objectKeys returns the keys of a JSON object in document order.
func objectKeys(t *testing.T, raw json.RawMessage) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	keys := []string{}
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

// TestInitialize checks serverInfo, capabilities and instructions.
func TestInitialize(t *testing.T) {
	cs := newSession(t, store.Options{})
	ir := cs.InitializeResult()
	if ir.ServerInfo.Name != "noggin-mcp" || ir.ServerInfo.Version != buildinfo.Get().Version {
		t.Errorf("serverInfo = %+v", ir.ServerInfo)
	}
	caps, _ := json.Marshal(ir.Capabilities)
	if string(caps) != `{"tools":{}}` {
		t.Errorf("capabilities = %s, want {\"tools\":{}}", caps)
	}
	if !strings.Contains(ir.Instructions, "noggin_push") {
		t.Errorf("instructions missing: %q", ir.Instructions)
	}
}

// TestNogginRequired: every tool that takes a noggin answers no-location
// for a missing, blank or null location (its other arguments valid); a
// location of another type is invalid-argument (TestRunJSON).
func TestNogginRequired(t *testing.T) {
	cs := newSession(t, store.Options{})
	valid := map[string]string{"noggin_push": `"title": "x"`, "noggin_add": `"title": "x"`,
		"noggin_goto": `"path": "/1"`, "noggin_note": `"text": "t"`, "noggin_delete": `"path": "/1"`, "noggin_find": `"query": "q"`}
	for _, tool := range toolDefs {
		if tool.Name == "noggin_copy" || tool.Name == "noggin_providers" {
			continue
		}
		for _, loc := range []string{``, `"noggin": ""`, `"noggin": " \t"`, `"noggin": null`} {
			args := "{" + strings.Trim(loc+", "+valid[tool.Name], ", ") + "}"
			r := call(t, cs, tool.Name, json.RawMessage(args))
			want := `{
  "status": "error",
  "envelopeVersion": 3,
  "verb": "` + VerbOf(tool.Name) + `",
  "error": {
    "code": "no-location",
    "message": "` + VerbOf(tool.Name) + `: location required",
    "exitCode": 2
  }
}`
			if r.Text != want || !r.IsError {
				t.Errorf("%s %s:\n%s\nwant\n%s", tool.Name, args, r.Text, want)
			}
		}
	}
}

// TestOpenBeforeArgumentChecks: an invalid file is reported before the
// checks that need the noggin, also when the noggin is already cached
// (checks that need none — push's title, goto's and delete's path — come
// first, as on the CLI).
func TestOpenBeforeArgumentChecks(t *testing.T) {
	dir := t.TempDir()
	file := writeFixture(t, dir, "n.yaml", "F1")
	cs := newSession(t, store.Options{})
	if r := call(t, cs, "noggin_show", map[string]any{"noggin": file}); r.IsError {
		t.Fatalf("show: %s", r.Text)
	}
	if err := os.WriteFile(file, []byte(fixtures["BAD"].raw), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tool := range []string{"noggin_note", "noggin_edit", "noggin_move", "noggin_where"} {
		r := call(t, cs, tool, map[string]any{"noggin": file})
		if !strings.Contains(r.Text, `"code": "invalid-document"`) {
			t.Errorf("%s: want invalid-document first, got\n%s", tool, r.Text)
		}
	}
}

// TestExternalChangeSeen: a cached noggin notices a change made by another
// process (here: a file rewrite) on the very next call, reads included.
func TestExternalChangeSeen(t *testing.T) {
	dir := t.TempDir()
	file := writeFixture(t, dir, "n.yaml", "F3")
	cs := newSession(t, store.Options{})
	first := call(t, cs, "noggin_show", map[string]any{"noggin": file})
	writeFixture(t, dir, "n.yaml", "F5")
	second := call(t, cs, "noggin_show", map[string]any{"noggin": file})
	if first.Text == second.Text || !strings.Contains(second.Text, `"title": "kid"`) {
		t.Errorf("external change not seen:\n%s", second.Text)
	}
}

// TestFailedOpenNotCached: a failed open is retried on the next call.
func TestFailedOpenNotCached(t *testing.T) {
	dir := t.TempDir()
	file := writeFixture(t, dir, "n.yaml", "BAD")
	cs := newSession(t, store.Options{})
	if r := call(t, cs, "noggin_show", map[string]any{"noggin": file}); !r.IsError {
		t.Fatalf("want an error: %s", r.Text)
	}
	writeFixture(t, dir, "n.yaml", "F3")
	if r := call(t, cs, "noggin_show", map[string]any{"noggin": file}); r.IsError {
		t.Fatalf("second open failed: %s", r.Text)
	}
}

// TestUnknownToolIsResult: the SDK would answer a JSON-RPC error; we
// answer an isError tool result (206).
func TestUnknownToolIsResult(t *testing.T) {
	cs := newSession(t, store.Options{})
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "noggin_bogus"})
	if err != nil {
		t.Fatalf("JSON-RPC error: %v", err)
	}
	r := checkResult(t, "noggin_bogus", res)
	if !r.IsError || !strings.Contains(r.Text, `"message": "unknown verb 'noggin_bogus' (the verbs: push,`) || !strings.Contains(r.Text, `"verb": "bogus"`) {
		t.Errorf("got %s", r.Text)
	}
}

// TestRelativeLocation: relative locations resolve against the server's
// working directory; here the root directory with --root.
func TestRelativeLocationInRoot(t *testing.T) {
	dir := t.TempDir()
	cs := newSession(t, store.Options{Root: dir})
	r := call(t, cs, "noggin_push", map[string]any{"noggin": "sub/n.yaml", "title": "x"})
	if r.IsError {
		t.Fatalf("push: %s", r.Text)
	}
	mustExist(t, filepath.Join(dir, "sub", "n.yaml"))
}

// TestPanicBecomesEnvelope: an unexpected panic inside a call is an error
// envelope (noggin-error, exit 1), not a crashed server.
func TestPanicBecomesEnvelope(t *testing.T) {
	eng := testEngine(t)
	eng.Keys = panicKeys{}
	cs := connect(t, NewHandler(Config{Engine: eng}))
	file := filepath.Join(t.TempDir(), "n.yaml")
	r := call(t, cs, "noggin_push", map[string]any{"noggin": file, "title": "x"})
	if !r.IsError || !strings.Contains(r.Text, `"code": "noggin-error"`) || !strings.Contains(r.Text, "internal error: ") {
		t.Errorf("got %s", r.Text)
	}
	if r := call(t, cs, "noggin_providers", nil); r.IsError {
		t.Errorf("server unusable after a panic: %s", r.Text)
	}
}

type panicKeys struct{}

func (panicKeys) NewKeys(*noggin.Document, time.Time, int) []string { panic("no keys today") }
