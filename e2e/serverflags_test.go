package e2e

import (
	"os/exec"
	"strings"
	"testing"
)

// TestServerFlagErrors: noggin-rpc and noggin-mcp say a bad flag as noggin
// does (the flag as typed, where to look, exit 2), and their completion
// scripts load in bash.
func TestServerFlagErrors(t *testing.T) {
	rpc, mcp := needBinary(t, RPC), needBinary(t, MCP)
	for _, c := range []struct {
		bin  string
		args []string
		want string
	}{
		{rpc, []string{"serve", "--bogus"}, "noggin-rpc: serve: unknown flag: --bogus (see noggin-rpc help)\n"},
		{rpc, []string{"serve", "-bogus"}, "noggin-rpc: serve: unknown flag: -bogus (see noggin-rpc help)\n"},
		{rpc, []string{"serve", "--addr"}, "noggin-rpc: serve: flag --addr requires a value (see noggin-rpc help)\n"},
		{rpc, []string{"export", "--bogus"}, "noggin-rpc: export: unknown flag: --bogus (see noggin-rpc help)\n"},
		{mcp, []string{"--bogus"}, "noggin-mcp: unknown flag: --bogus (see noggin-mcp --help)\n"},
		{mcp, []string{"--bo\x1b[2Jgus"}, "noggin-mcp: unknown flag: --bo\\x1b[2Jgus (see noggin-mcp --help)\n"}, // no escape reaches the terminal
		{mcp, []string{"--http"}, "noggin-mcp: flag --http requires a value (see noggin-mcp --help)\n"},
	} {
		cmd := exec.Command(c.bin, c.args...)
		cmd.Env = processEnv(true)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || stderr.String() != c.want {
			t.Errorf("%v: %v, stderr %q, want exit 2 and %q", c.args, err, stderr.String(), c.want)
		}
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	for _, bin := range []string{rpc, mcp} {
		name := bin[strings.LastIndexByte(bin, '/')+1:]
		out, err := exec.Command(bash, "--norc", "-c", `source <("$0" completion bash) && complete -p "$1"`, bin, name).CombinedOutput()
		if err != nil || !strings.Contains(string(out), "complete -F _"+strings.ReplaceAll(name, "-", "_")+" "+name) {
			t.Errorf("%s completion bash: %v %s", name, err, out)
		}
	}
}
