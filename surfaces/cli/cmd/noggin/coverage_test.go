package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func readScripts(t *testing.T) string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "script", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	var b strings.Builder
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
	}
	return b.String()
}

// TestEdgeCasesCovered checks that every CLI case of docs/cli.md
// (1–204; 12 and 77 are engine/RPC only) has a `case <n>` in the scripts.
func TestEdgeCasesCovered(t *testing.T) {
	all := readScripts(t)
	seen := map[int]bool{}
	for _, m := range regexp.MustCompile(`(?m)^case ([0-9]+)\b`).FindAllStringSubmatch(all, -1) {
		n, _ := strconv.Atoi(m[1])
		seen[n] = true
	}
	for n := 1; n <= 204; n++ {
		if n == 12 || n == 77 {
			continue
		}
		if !seen[n] {
			t.Errorf("edge case %d has no script case", n)
		}
	}
}

// TestErrorCodesCovered checks that every error code the CLI can produce
// (docs/envelope.md) appears in at least one golden error envelope. The
// original's "usage" (copy with fewer than two locations) is gone: copy
// answers source-required or dest-required on every surface instead.
func TestErrorCodesCovered(t *testing.T) {
	all := readScripts(t)
	codes := []string{
		"noggin-error", "no-active-item", "no-provider", "path-not-found", "path-required",
		"cycle", "placement-missing", "title-required", "text-required", "nothing-to-edit",
		"option-misused", "goto-unsupported", "goto-unresolved", "has-descendants",
		"open-descendants", "invalid-note", "invalid-document", "unsupported-schema",
		"lock-timeout", "io", "source-required", "dest-required", "pop-no-path",
	}
	for _, c := range codes {
		if !strings.Contains(all, `"code": "`+c+`"`) {
			t.Errorf("error code %s is not covered by any script", c)
		}
	}
}

// TestBashCompletion sources `noggin completion bash` in bash and completes
// a few command lines.
func TestBashCompletion(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	script := `source <(noggin completion bash)
COMP_WORDS=(noggin sh); COMP_CWORD=1; _noggin_complete; echo "${COMPREPLY[*]}"
COMP_WORDS=(noggin show --with-d); COMP_CWORD=2; _noggin_complete; echo "${COMPREPLY[*]}"
COMP_WORDS=(noggin --json p); COMP_CWORD=2; _noggin_complete; echo "${COMPREPLY[*]}"
COMP_WORDS=(noggin completion f); COMP_CWORD=2; _noggin_complete; echo "${COMPREPLY[*]}"
`
	cmd := exec.Command(bash, "--norc", "--noprofile", "-c", script)
	cmd.Env = []string{"PATH=" + filepath.Dir(binary) + ":/usr/bin:/bin", "HOME=" + t.TempDir()}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("bash: %v\n%s", err, out)
	}
	want := "show\n--with-descendants\npush pop providers\nfish\n"
	if string(out) != want {
		t.Errorf("completions:\n%s\nwant:\n%s", out, want)
	}
}
