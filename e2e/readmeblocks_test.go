package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestReadmeBlocks: every sh block of the README and the surface READMEs
// runs in a test, or says why not. A block marked
//
//	<!-- runs: WHERE -->
//
// (on the line before its fence) is run by the test or make target WHERE;
// one marked <!-- not run: WHY --> is not run; any other block runs here,
// as one bash script (set -e), in a fresh home with the built binaries
// first on PATH, and must succeed.
func TestReadmeBlocks(t *testing.T) {
	marker := regexp.MustCompile(`^<!-- (runs|not run): (.+) -->$`)
	ran := 0
	for _, file := range []string{"../README.md", "../surfaces/cli/README.md", "../surfaces/mcp/README.md", "../surfaces/rpc/README.md"} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(b), "\n")
		for i := 0; i < len(lines); i++ {
			if lines[i] != "```sh" {
				continue
			}
			start := i + 1
			for i++; i < len(lines) && lines[i] != "```"; i++ {
			}
			block := strings.Join(lines[start:i], "\n")
			name := filepath.Base(filepath.Dir(file)) + "/" + filepath.Base(file) + ":" + strconv.Itoa(start)
			if start >= 2 {
				if m := marker.FindStringSubmatch(lines[start-2]); m != nil {
					if strings.TrimSpace(m[2]) == "" {
						t.Errorf("%s: the marker says nothing", name)
					}
					continue
				}
			}
			ran++
			t.Run(name, func(t *testing.T) { runBlock(t, block) })
		}
	}
	if ran == 0 {
		t.Error("no block ran")
	}
}

// runBlock runs block in a fresh home with the binaries on PATH.
func runBlock(t *testing.T, block string) {
	t.Helper()
	home := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c := exec.CommandContext(ctx, "bash", "-c", "set -euo pipefail\n"+block)
	c.Dir = home
	path := filepath.Dir(needBinary(t, CLI)) + ":" + filepath.Dir(needBinary(t, MCP)) + ":" + filepath.Dir(needBinary(t, RPC)) + ":" + os.Getenv("PATH")
	c.Env = append(processEnv(true), "HOME="+home, "PATH="+path)
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("%v:\n%s\n--- block:\n%s", err, out, block)
	}
}
