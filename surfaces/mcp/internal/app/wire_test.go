package app

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestStdioWire drives Main over stdio with raw JSON-RPC lines from a pipe
// that ends right after the last request: every request is still
// answered, success results carry no isError key, errors carry
// "isError":true, and nothing but JSON-RPC goes to stdout.
func TestStdioWire(t *testing.T) {
	file := filepath.Join(t.TempDir(), "n.yaml")
	loc, _ := json.Marshal(file)
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"0"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"noggin_push","arguments":{"noggin":` + string(loc) + `,"title":"a"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"noggin_nope","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"noggin_show"}}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"noggin_show","arguments":{"noggin":` + string(loc) + `}}}`,
	}, "\n") + "\n"
	var out, stderr bytes.Buffer
	code := Main(context.Background(), Env{Getenv: testGetenv, Stdin: io.NopCloser(strings.NewReader(in)),
		Stdout: nopWriteCloser{&out}, Stderr: &stderr})
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	results := map[float64]map[string]json.RawMessage{}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var msg struct {
			ID     float64                    `json:"id"`
			Result map[string]json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal([]byte(line), &msg); err != nil {
			t.Fatalf("stdout line is not JSON-RPC: %q", line)
		}
		results[msg.ID] = msg.Result
	}
	if len(results) != 5 {
		t.Fatalf("%d responses, want 5:\n%s", len(results), out.String())
	}
	for id, wantErr := range map[float64]bool{2: false, 3: true, 4: true, 5: false} {
		r := results[id]
		isErr, has := r["isError"]
		switch {
		case wantErr && string(isErr) != "true":
			t.Errorf("id %v: isError = %s, want true", id, isErr)
		case !wantErr && has:
			t.Errorf("id %v: success result has isError %s", id, isErr)
		}
		var content []struct{ Type, Text string }
		if err := json.Unmarshal(r["content"], &content); err != nil || len(content) != 1 || content[0].Type != "text" {
			t.Errorf("id %v: content %s", id, r["content"])
		}
	}
}

// TestProtocolEdges: the JSON-RPC errors the MCP specification asks for.
// A tools/call without a name or with arguments that are not an object is
// -32602 (invalid params); resources and prompts, which the server does not
// declare, are -32601 (method not found).
func TestProtocolEdges(t *testing.T) {
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"0"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"arguments":{}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"noggin_where","arguments":[1]}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"noggin_where","arguments":"x"}}`,
		`{"jsonrpc":"2.0","id":5,"method":"resources/list"}`,
		`{"jsonrpc":"2.0","id":6,"method":"resources/read","params":{"uri":"file:///etc/passwd"}}`,
		`{"jsonrpc":"2.0","id":7,"method":"prompts/list"}`,
		`{"jsonrpc":"2.0","id":8,"method":"prompts/get","params":{"name":"x"}}`,
		`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"noggin_providers","arguments":null}}`,
		`{"jsonrpc":"2.0","id":10,"method":"logging/setLevel","params":{"level":"debug"}}`,
	}, "\n") + "\n"
	var out, stderr bytes.Buffer
	if code := Main(context.Background(), Env{Getenv: testGetenv, Stdin: io.NopCloser(strings.NewReader(in)),
		Stdout: nopWriteCloser{&out}, Stderr: &stderr}); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	got := map[float64]int{}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var msg struct {
			ID    float64 `json:"id"`
			Error *struct {
				Code int `json:"code"`
			} `json:"error"`
		}
		if err := json.Unmarshal([]byte(line), &msg); err != nil {
			t.Fatalf("stdout line is not JSON-RPC: %q", line)
		}
		if msg.Error != nil {
			got[msg.ID] = msg.Error.Code
		} else {
			got[msg.ID] = 0
		}
	}
	want := map[float64]int{1: 0, 2: -32602, 3: -32602, 4: -32602, 5: -32601, 6: -32601, 7: -32601, 8: -32601, 9: 0, 10: -32601}
	for id, code := range want {
		if c, ok := got[id]; !ok || c != code {
			t.Errorf("id %v: error code %d (answered %v), want %d", id, c, ok, code)
		}
	}
}

// TestStdioSurvivesBadInput: a line that is not JSON is -32700, a message
// that is not a JSON-RPC request -32600, a request before initialize
// -32600; the session goes on and answers every later request.
func TestStdioSurvivesBadInput(t *testing.T) {
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"0"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`not json at all`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/list"`,
		`{"id":4,"method":"tools/list"}`,
		`[1, 2]`,
		`{"jsonrpc":"2.0","id":5}`,
		`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"noggin_providers"}}`,
	}, "\n") + "\n"
	var out, stderr bytes.Buffer
	if code := Main(context.Background(), Env{Getenv: testGetenv, Stdin: io.NopCloser(strings.NewReader(in)),
		Stdout: nopWriteCloser{&out}, Stderr: &stderr}); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var codes []string
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var msg struct {
			ID    json.RawMessage `json:"id"`
			Error *struct {
				Code int `json:"code"`
			} `json:"error"`
		}
		if err := json.Unmarshal([]byte(line), &msg); err != nil {
			t.Fatalf("stdout line is not JSON-RPC: %q", line)
		}
		c := 0
		if msg.Error != nil {
			c = msg.Error.Code
		}
		codes = append(codes, string(msg.ID)+":"+strconv.Itoa(c))
	}
	slices.Sort(codes)
	want := []string{"1:-32600", "2:0", "4:-32600", "5:-32600", "6:0", "null:-32600", "null:-32700", "null:-32700"}
	if !slices.Equal(codes, want) {
		t.Errorf("answers %v, want %v\n%s", codes, want, out.String())
	}
}

// TestStdioOverLongLine: a 70 MiB line is answered with -32600 and
// skipped; the request after it is answered as usual, and so is a lone
// surrogate in a tool's arguments (kept, as the original's JSON.parse).
func TestStdioOverLongLine(t *testing.T) {
	file := filepath.Join(t.TempDir(), "n.yaml")
	loc, _ := json.Marshal(file)
	in := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"0"}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"noggin_push","arguments":{"title":"` + strings.Repeat("a", 70<<20) + `"}}}` + "\n" +
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"noggin_push","arguments":{"noggin":` + string(loc) + `,"title":"a\ud800b"}}}` + "\n"
	var out, stderr bytes.Buffer
	if code := Main(context.Background(), Env{Getenv: testGetenv, Stdin: io.NopCloser(strings.NewReader(in)),
		Stdout: nopWriteCloser{&out}, Stderr: &stderr}); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 || !strings.Contains(lines[1], `"code":-32600`) || !strings.Contains(lines[1], "64 MiB") {
		t.Fatalf("answers:\n%.2000s", out.String())
	}
	if !strings.Contains(lines[2], `"id":3`) || !strings.Contains(lines[2], `a\\ud800b`) {
		t.Errorf("the request after the long line: %s", lines[2])
	}
}
