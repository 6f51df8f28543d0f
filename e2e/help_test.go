package e2e

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"

	"github.com/noggin-go/noggin/core/request"
)

// TestEveryHelp: every command of the three binaries answers --help (and
// help COMMAND where the binary has commands) on standard output, exit 0,
// with a text that names the command — never a raw flag list or an error.
func TestEveryHelp(t *testing.T) {
	type call struct {
		bin  string
		args []string
		want string
	}
	var calls []call
	for _, v := range append(append([]string{}, request.Verbs...), "login", "logout") {
		calls = append(calls,
			call{CLI, []string{v, "--help"}, "noggin " + v + " - "},
			call{CLI, []string{"help", v}, "noggin " + v + " - "})
	}
	calls = append(calls, call{CLI, []string{"--help"}, "noggin — "}, call{CLI, []string{"help"}, "noggin — "})
	for _, c := range []string{"serve", "ui", "import", "export"} {
		calls = append(calls,
			call{RPC, []string{c, "--help"}, "noggin-rpc " + c},
			call{RPC, []string{"help", c}, "noggin-rpc " + c})
	}
	calls = append(calls, call{RPC, []string{"--help"}, "Usage:"}, call{RPC, []string{"help"}, "Usage:"},
		call{MCP, []string{"--help"}, "usage: noggin-mcp"}, call{MCP, []string{"help"}, "usage: noggin-mcp"})
	for _, c := range calls {
		t.Run(c.bin+" "+strings.Join(c.args, " "), func(t *testing.T) {
			cmd := exec.Command(needBinary(t, c.bin), c.args...)
			cmd.Env = append(processEnv(true), "HOME="+t.TempDir())
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil || stderr.Len() > 0 || !strings.Contains(stdout.String(), c.want) {
				t.Errorf("%v; stderr %q; stdout lacks %q:\n%s", err, stderr.String(), c.want, stdout.String())
			}
		})
	}
}
