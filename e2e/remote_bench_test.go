package e2e

import (
	"context"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// BenchmarkRemote compares a verb on a remote noggin with the same verb on
// a local file: whole CLI processes (show --json, push) and warm
// noggin-mcp calls (noggin_show, noggin_note), on a 10-item noggin.
// Run it with go test ./e2e -run '^$' -bench Remote -benchtime 100x.
func BenchmarkRemote(b *testing.B) {
	root := b.TempDir()
	bin := suite.bins[RPC]
	srv, err := StartRPCServer(bin, root, append(processEnv(false), "HOME="+root, "NOGGIN_RPC_TOKEN="+remoteToken))
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Stop()
	local := filepath.Join(root, "bench.yaml")
	locs := map[string]string{"local": local, "remote": "http://" + srv.Addr + "/bench.yaml"}
	env := append(processEnv(false), "HOME="+root, "NOGGIN_TOKEN="+remoteToken)
	for i := 0; i < 10; i++ {
		c := exec.Command(suite.bins[CLI], "--noggin", local, "add", "item "+strconv.Itoa(i))
		c.Env = env
		if out, err := c.CombinedOutput(); err != nil {
			b.Fatal(err, string(out))
		}
	}
	for _, where := range []string{"local", "remote"} {
		for _, verb := range [][]string{{"show", "--json"}, {"push", "bench"}} {
			b.Run("cli/"+verb[0]+"/"+where, func(b *testing.B) {
				for b.Loop() {
					c := exec.Command(suite.bins[CLI], append([]string{"--noggin", locs[where]}, verb...)...)
					c.Env = env
					if out, err := c.CombinedOutput(); err != nil {
						b.Fatal(err, string(out))
					}
					if verb[0] == "push" {
						b.StopTimer()
						c := exec.Command(suite.bins[CLI], "--noggin", locs[where], "pop")
						c.Env = env
						_ = c.Run()
						b.StartTimer()
					}
				}
			})
		}
	}
	ctx := context.Background()
	m, err := StartMCP(ctx, suite.bins[MCP], root, env)
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	for _, where := range []string{"local", "remote"} {
		for _, call := range []struct {
			tool string
			args map[string]any
		}{{"noggin_show", map[string]any{}}, {"noggin_note", map[string]any{"text": "bench"}}} {
			b.Run("mcp/"+call.tool+"/"+where, func(b *testing.B) {
				args := map[string]any{"noggin": locs[where]}
				for k, v := range call.args {
					args[k] = v
				}
				for b.Loop() {
					if _, err := m.Call(ctx, call.tool, args); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
