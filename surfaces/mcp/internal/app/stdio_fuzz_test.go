package app

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"
)

// FuzzStdio feeds arbitrary bytes to the stdio loop between an initialize
// and a final valid request: the server never panics or exits with an
// error, writes only JSON-RPC lines, answers the final request, and writes
// no file outside its root.
func FuzzStdio(f *testing.F) {
	for _, s := range []string{
		"not json\n", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"noggin_push","arguments":{"noggin":"n.yaml","title":"x"}}}` + "\n",
		"[1,2]\n{}\n", `{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"noggin_note","arguments":{"noggin":"../x.yaml","text":"t"}}}` + "\n",
		"\x00\xff\n", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}` + "\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		root := t.TempDir()
		outside := t.TempDir()
		in := `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"0"}}}` + "\n" +
			`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
			strings.ReplaceAll(string(b), "$OUT", outside) + "\n" +
			`{"jsonrpc":"2.0","id":"last","method":"tools/call","params":{"name":"noggin_providers"}}` + "\n"
		var out, stderr bytes.Buffer
		code := Main(context.Background(), Env{Args: []string{"--root", root}, Getenv: testGetenv,
			Stdin: io.NopCloser(strings.NewReader(in)), Stdout: nopWriteCloser{&out}, Stderr: &stderr})
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
		answered := false
		for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
			var msg struct {
				ID json.RawMessage `json:"id"`
			}
			if err := json.Unmarshal([]byte(line), &msg); err != nil {
				t.Fatalf("stdout line is not JSON: %q", line)
			}
			answered = answered || string(msg.ID) == `"last"`
		}
		if !answered {
			t.Fatalf("the final request got no answer:\n%s", out.String())
		}
		if ents, _ := os.ReadDir(outside); len(ents) > 0 {
			t.Fatalf("a file was written outside the root: %v", ents)
		}
	})
}
