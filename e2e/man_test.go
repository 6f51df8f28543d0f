package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestManPages: make man's script writes a page for each binary from its
// help text, which groff renders without a warning, with the help's words.
func TestManPages(t *testing.T) {
	bins := t.TempDir()
	for _, s := range []string{CLI, MCP, RPC} {
		if err := os.Symlink(needBinary(t, s), filepath.Join(bins, filepath.Base(needBinary(t, s)))); err != nil {
			t.Fatal(err)
		}
	}
	out := t.TempDir()
	if b, err := exec.Command("bash", "../scripts/man.sh", bins, out).CombinedOutput(); err != nil {
		t.Fatalf("man.sh: %v %s", err, b)
	}
	groff, err := exec.LookPath("groff")
	if err != nil {
		t.Skip("no groff")
	}
	for name, words := range map[string]string{"noggin": "noggin login", "noggin-mcp": "--token-file", "noggin-rpc": "completion bash|zsh|fish"} {
		// -k: UTF-8 input, as man reads it; -P-cbou: plain text.
		cmd := exec.Command(groff, "-k", "-man", "-Tutf8", "-P-cbou", "-ww", filepath.Join(out, "man1", name+".1"))
		var stderr strings.Builder
		cmd.Stderr = &stderr
		page, err := cmd.Output()
		text := strings.ReplaceAll(string(page), "\u2010", "-") // groff's hyphen
		if err != nil || stderr.Len() > 0 || !strings.Contains(text, "NAME") || !strings.Contains(text, words) {
			t.Errorf("%s.1: %v %s\n%s", name, err, stderr.String(), text)
		}
	}
}
