package server

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// parityStep is one step run on both surfaces: an MCP tool call and the
// CLI argv that asks the engine for the same thing.
type parityStep struct {
	tool string
	args map[string]any // "noggin" is added unless the tool takes none
	argv []string       // after "noggin --noggin n.yaml --json"
}

// parityScript touches every tool, successes and engine errors alike.
var parityScript = []parityStep{
	{"noggin_providers", nil, []string{"providers"}},
	{"noggin_show", nil, []string{"show"}},
	{"noggin_push", map[string]any{"title": "root1"}, []string{"push", "root1"}},
	{"noggin_push", map[string]any{"title": "  child  "}, []string{"push", "  child  "}},
	{"noggin_add", map[string]any{"title": "later"}, []string{"add", "later"}},
	{"noggin_add", map[string]any{"title": "sibling", "after": "/1"}, []string{"add", "sibling", "--after", "/1"}},
	{"noggin_add", map[string]any{"title": "todo", "into": "/1", "goto": true}, []string{"add", "todo", "--into", "/1", "--goto"}},
	{"noggin_add", map[string]any{"title": "x", "goto": "/9"}, []string{"add", "x", "--goto=/9"}},
	{"noggin_goto", map[string]any{"path": "/1/1"}, []string{"goto", "/1/1"}},
	{"noggin_goto", map[string]any{"path": "/7"}, []string{"goto", "/7"}},
	{"noggin_note", map[string]any{"text": "found it: <a&b> ✓"}, []string{"note", "found it: <a&b> ✓"}},
	{"noggin_note", map[string]any{"path": "/2", "text": "on the sibling"}, []string{"note", "/2", "on the sibling"}},
	{"noggin_show", nil, []string{"show"}},
	{"noggin_show", map[string]any{"path": "/1", "withAll": true}, []string{"show", "/1", "--with-all"}},
	{"noggin_show", map[string]any{"path": "/1", "noChildren": true}, []string{"show", "/1", "--no-children"}},
	{"noggin_show", map[string]any{"withSiblings": true}, []string{"show", "--with-siblings"}},
	{"noggin_edit", map[string]any{"path": "/1/2", "title": "renamed"}, []string{"edit", "/1/2", "--title", "renamed"}},
	{"noggin_edit", map[string]any{"path": "/1/2", "state": "done"}, []string{"edit", "/1/2", "--done"}},
	{"noggin_edit", map[string]any{"path": "/1/2", "state": "open", "force": true}, []string{"edit", "/1/2", "--open", "--force"}},
	{"noggin_edit", map[string]any{"path": "/1/2", "state": "open", "goto": "."}, []string{"edit", "/1/2", "--open", "--goto", "."}},
	{"noggin_move", map[string]any{"path": "/1/2", "before": "/1/1"}, []string{"move", "/1/2", "--before", "/1/1"}},
	{"noggin_move", map[string]any{"path": "/1", "into": "/1/1"}, []string{"move", "/1", "--into", "/1/1"}},
	{"noggin_done", map[string]any{"path": "/1"}, []string{"done", "/1"}},
	{"noggin_done", nil, []string{"done"}},
	{"noggin_pop", nil, []string{"pop"}},
	{"noggin_pop", map[string]any{"closeAll": true}, []string{"pop", "--close-all"}},
	{"noggin_pop", nil, []string{"pop"}},
	{"noggin_delete", map[string]any{"path": "/1"}, []string{"delete", "/1"}},
	{"noggin_where", nil, []string{"where"}},
	{"noggin_copy", map[string]any{"from": "n.yaml", "to": "copy.yaml"}, []string{"copy", "n.yaml", "copy.yaml"}},
	{"noggin_delete", map[string]any{"path": "/1", "recursive": true}, []string{"delete", "/1", "--recursive"}},
	{"noggin_goto", map[string]any{"path": "/1"}, []string{"goto", "/1"}},
	{"noggin_delete", map[string]any{"path": "."}, []string{"delete", "."}},
	{"noggin_copy", map[string]any{"from": "copy.yaml", "to": "n.yaml"}, []string{"copy", "copy.yaml", "n.yaml"}},
	{"noggin_show", map[string]any{"withAll": true}, []string{"show", "--with-all"}},
	{"noggin_show", map[string]any{"path": "/3", "withAll": true}, []string{"show", "/3", "--with-all"}},
}

// TestCLIParity spawns the built noggin-mcp over stdio with the SDK's
// command transport, runs the script, and checks that every envelope is
// byte for byte the CLI's --json envelope of the same step (each surface
// on its own fresh noggin, same clock and key sequence), and that the
// resulting files are identical.
func TestCLIParity(t *testing.T) {
	needMCPBinary(t)
	if cliBuildErr != nil {
		t.Skipf("CLI does not build yet: %v", cliBuildErr)
	}
	mcpDir, cliDir := t.TempDir(), t.TempDir()
	cs := spawn(t, mcpDir, envList())
	tools := map[string]bool{}
	for i, s := range parityScript {
		tools[s.tool] = true
		args := map[string]any{}
		for k, v := range s.args {
			args[k] = v
		}
		if s.tool != "noggin_copy" && s.tool != "noggin_providers" {
			args["noggin"] = "n.yaml"
		}
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: s.tool, Arguments: args})
		if err != nil {
			t.Fatalf("step %d %s: %v", i, s.tool, err)
		}
		got := checkResult(t, s.tool, res)
		t.Logf("step %d %s: isError=%v %.90s", i, s.tool, got.IsError, strings.ReplaceAll(got.Text[min(len(got.Text), 60):], "\n", " "))

		want, exit := runCLI(t, cliDir, s.argv)
		if got.Text+"\n" != want {
			t.Errorf("step %d %s %v: MCP and CLI differ\n--- MCP\n%s\n--- CLI (exit %d)\n%s", i, s.tool, s.argv, got.Text, exit, want)
		}
		if (exit != 0) != got.IsError {
			t.Errorf("step %d: CLI exit %d, MCP isError %v", i, exit, got.IsError)
		}
		if got.IsError && !strings.Contains(got.Text, `"exitCode": `+strconv.Itoa(exit)) {
			t.Errorf("step %d: CLI exit %d differs from the envelope's exitCode", i, exit)
		}
	}
	if len(tools) != len(toolDefs) {
		t.Errorf("script covers %d tools, want all %d", len(tools), len(toolDefs))
	}
	for _, f := range []string{"n.yaml", "copy.yaml"} {
		a, errA := os.ReadFile(filepath.Join(mcpDir, f))
		b, errB := os.ReadFile(filepath.Join(cliDir, f))
		if errA != nil || errB != nil {
			t.Fatalf("%s: %v %v", f, errA, errB)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs:\n--- MCP\n%s\n--- CLI\n%s", f, a, b)
		}
	}
}

// runCLI runs the CLI binary with --json and returns the envelope text (stdout on
// success, stderr on failure) and the exit code.
func runCLI(t *testing.T, dir string, argv []string) (string, int) {
	t.Helper()
	args := append([]string{"--noggin", "n.yaml", "--json"}, argv...)
	cmd := exec.Command(cliBin, args...)
	cmd.Dir = dir
	cmd.Env = envList()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return stdout.String(), 0
	case errors.As(err, &ee):
		return stderr.String(), ee.ExitCode()
	default:
		t.Fatalf("noggin %v: %v", args, err)
		return "", 0
	}
}
