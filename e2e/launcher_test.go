package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// pluginHint is what the plugin says when noggin-mcp is not installed:
// install paths that work (the module is not published for go install).
const pluginHint = "noggin-mcp is not on PATH: install it from https://github.com/noggin-go/noggin/releases " +
	"(unpack it, put noggin-mcp on PATH) or from a clone with make install " +
	"(then add $(go env GOPATH)/bin to PATH), and restart the agent."

// octal spells s as printf octal escapes.
func octal(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		fmt.Fprintf(&b, `\%03o`, c)
	}
	return b.String()
}

// launcher is the plugin's MCP start command (sh -c, for Claude Code and
// Codex alike): exec noggin-mcp when it is on PATH; otherwise print the
// hint on stderr, answer every request with it as the error (both clients
// show a failed handshake's error; neither shows stderr) and exit 127 when
// the client hangs up. The name and the hint are octal escapes because
// Claude Code redacts from that error every word of the command line.
func launcher() string {
	return `n=$(printf '` + octal("noggin-mcp") + `'); command -v "$n" >/dev/null 2>&1 && exec "$n"; ` +
		`m=$(printf '` + octal(pluginHint) + `'); printf '%s\n' "$m" >&2; ` +
		`while IFS= read -r l; do i=$(printf '%s' "$l" | sed -nE 's/.*"id" *: *([0-9]+|"[^"]*").*/\1/p'); ` +
		`[ -z "$i" ] || printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32603,"message":"%s"}}\n' "$i" "$m"; done; exit 127`
}

// TestPluginLauncher: .mcp.json starts the server with launcher() (-update
// writes it), and without noggin-mcp on PATH the launcher says how to
// install it, on stderr and as the error of each request, then exits 127.
func TestPluginLauncher(t *testing.T) {
	path := filepath.Join(pluginDir, ".mcp.json")
	mj := readJSON(t, path)
	srv := mj["mcpServers"].(map[string]any)["noggin"].(map[string]any)
	want := []any{"-c", launcher()}
	if got, _ := json.Marshal(srv["args"]); !bytes.Equal(got, must(json.Marshal(want))) {
		if !*update {
			t.Fatalf("%s: args are not the launcher of launcher_test.go (go test -run TestPluginLauncher -update)", path)
		}
		srv["command"], srv["args"] = "sh", want
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(mj); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	c := exec.Command("sh", "-c", launcher())
	c.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + t.TempDir()}
	// Claude Code probes with server/discover, then initializes; a
	// notification has no id and gets no answer.
	c.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":"server-discover-probe-1","method":"server/discover","params":{}}` + "\n" +
		`{"method":"initialize","params":{"protocolVersion":"2025-11-25"},"jsonrpc":"2.0","id":0}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}` + "\n")
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &stdout, &stderr
	err := c.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 127 {
		t.Fatalf("without noggin-mcp: %v, want exit 127", err)
	}
	if stderr.String() != pluginHint+"\n" {
		t.Errorf("stderr %q, want the hint on one line", stderr.String())
	}
	var ids []string
	sc := bufio.NewScanner(&stdout)
	for sc.Scan() {
		var r struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Error   struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("answer %q: %v", sc.Text(), err)
		}
		if r.JSONRPC != "2.0" || r.Error.Code != -32603 || r.Error.Message != pluginHint {
			t.Errorf("answer %s: want a JSON-RPC error with the hint", sc.Text())
		}
		ids = append(ids, string(r.ID))
	}
	if strings.Join(ids, " ") != `"server-discover-probe-1" 0` {
		t.Errorf("answered ids %v, want the probe's and initialize's", ids)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
