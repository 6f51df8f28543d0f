package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
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

// The plugin's launcher is one script, plugins/noggin/noggin-mcp.sh: exec
// noggin-mcp when it is on PATH; otherwise print the hint on stderr,
// answer every request with it as the error (both clients show a failed
// handshake's error; neither shows stderr) and exit 127 when the client
// hangs up. Claude Code runs the file through ${CLAUDE_PLUGIN_ROOT}
// (.mcp.json); Codex expands no plugin-root variable in a command
// (openai/codex#35762), so its .codex-mcp.json runs the script's text with
// sh -c, a copy this test keeps equal to the file (-update writes it).

const launcherPath = pluginDir + "/noggin-mcp.sh"

// codexServer is the noggin server of .codex-mcp.json, as it should be.
func codexServer(script string) map[string]any {
	return map[string]any{"command": "sh", "args": []any{"-c", script},
		"env_vars": []any{"NOGGIN_SERVER", "NOGGIN_TOKEN", "NOGGIN_ALLOW_HTTP", "XDG_CONFIG_HOME"}}
}

// TestPluginLauncher: both clients start the script, and without
// noggin-mcp on PATH it says how to install it, on stderr and as the error
// of each request, then exits 127.
func TestPluginLauncher(t *testing.T) {
	script := string(must(os.ReadFile(launcherPath)))
	if fi := must(os.Stat(launcherPath)); fi.Mode()&0o111 == 0 {
		t.Errorf("%s is not executable", launcherPath)
	}
	claude := readJSON(t, filepath.Join(pluginDir, ".mcp.json"))["mcpServers"].(map[string]any)["noggin"].(map[string]any)
	if got := str(claude, "command"); got != "${CLAUDE_PLUGIN_ROOT}/noggin-mcp.sh" || claude["args"] != nil {
		t.Errorf(".mcp.json: command %q args %v, want the script through ${CLAUDE_PLUGIN_ROOT}", got, claude["args"])
	}
	path := filepath.Join(pluginDir, ".codex-mcp.json")
	want := map[string]any{"mcpServers": map[string]any{"noggin": codexServer(script)}}
	if got := readJSON(t, path); !bytes.Equal(must(json.Marshal(got)), must(json.Marshal(want))) {
		if !*update {
			t.Fatalf("%s does not run %s (go test -run TestPluginLauncher -update)", path, launcherPath)
		}
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(want); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, how := range []struct {
		name string
		args []string
	}{{"the file (Claude Code)", []string{launcherPath}}, {"its text (Codex)", []string{"-c", script}}} {
		t.Run(how.name, func(t *testing.T) { checkHint(t, exec.Command("sh", how.args...)) })
	}
}

// checkHint runs c without noggin-mcp on PATH as a client would.
func checkHint(t *testing.T, c *exec.Cmd) {
	t.Helper()
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
