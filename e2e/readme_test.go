package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/noggin-go/noggin/core/request"
)

// readmeBlock returns the command lines of the first sh block after the
// README heading named heading (comments and blank lines dropped).
func readmeBlock(t *testing.T, heading string) []string {
	t.Helper()
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "\n## "+heading+"\n")
	if !ok {
		t.Fatalf("README has no section %q", heading)
	}
	_, rest, _ = strings.Cut(rest, "```sh\n")
	block, _, _ := strings.Cut(rest, "```")
	var lines []string
	for _, l := range strings.Split(block, "\n") {
		if cmd, _, _ := strings.Cut(l, "#"); strings.TrimSpace(cmd) != "" {
			lines = append(lines, strings.TrimSpace(cmd))
		}
	}
	return lines
}

// TestReadmeMinute: "A minute of noggin" runs as typed, in order, on a
// fresh noggin: every command exits 0 (the watch is stopped after its
// first frame).
func TestReadmeMinute(t *testing.T) {
	bin := needBinary(t, CLI)
	dir := t.TempDir()
	lines := readmeBlock(t, "A minute of noggin")
	if len(lines) < 10 {
		t.Fatalf("%d commands", len(lines))
	}
	for _, line := range lines {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		watch := strings.Contains(line, "--watch")
		if watch {
			ctx, cancel = context.WithTimeout(context.Background(), 2*time.Second)
		}
		c := exec.CommandContext(ctx, "bash", "-c", line)
		c.Dir = dir
		c.Env = append(processEnv(true), "HOME="+dir, "NOGGIN="+filepath.Join(dir, "n.yaml"), "PATH="+filepath.Dir(bin)+":"+os.Getenv("PATH"))
		out, err := c.CombinedOutput()
		cancel()
		if watch && ctx.Err() != nil && strings.Contains(string(out), "watching") {
			continue
		}
		if err != nil {
			t.Errorf("%s: %v\n%s", line, err, out)
		}
	}
}

// TestMCPReadmeListsEveryTool: the MCP README's tool table has a row for
// every verb core runs.
func TestMCPReadmeListsEveryTool(t *testing.T) {
	b, err := os.ReadFile("../surfaces/mcp/README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range request.Verbs {
		if !strings.Contains(string(b), "| `"+request.ToolName(v)+"` |") {
			t.Errorf("surfaces/mcp/README.md has no row for %s", request.ToolName(v))
		}
	}
}
