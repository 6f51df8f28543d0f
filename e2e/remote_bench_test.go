package e2e

import (
	"context"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"
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
	env := append(append(processEnv(false), "HOME="+root), tokenEnv(srv.Addr)...)
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
				var p p50
				for b.Loop() {
					c := exec.Command(suite.bins[CLI], append([]string{"--noggin", locs[where]}, verb...)...)
					c.Env = env
					start := time.Now()
					out, err := c.CombinedOutput()
					p.add(time.Since(start))
					if err != nil {
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
				p.report(b)
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
				var p p50
				for b.Loop() {
					start := time.Now()
					if _, err := m.Call(ctx, call.tool, args); err != nil {
						b.Fatal(err)
					}
					p.add(time.Since(start))
				}
				p.report(b)
			})
		}
	}
}

// p50 collects the times of a benchmark's calls and reports their median.
type p50 []time.Duration

func (p *p50) add(d time.Duration) { *p = append(*p, d) }

func (p p50) report(b *testing.B) {
	b.Helper()
	if len(p) == 0 {
		return
	}
	slices.Sort(p)
	b.ReportMetric(float64(p[len(p)/2])/1e6, "p50-ms")
}
