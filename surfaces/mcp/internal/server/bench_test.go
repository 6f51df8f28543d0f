package server

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/noggin-go/noggin/core/sampledoc"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/noggin-go/noggin/core/codec"
)

// BenchmarkStdio measures warm tool calls against the built binary over
// stdio (the SDK's command transport): noggin_show and noggin_note on 1k
// and 10k-item noggins. Reported: calls/s, p50-ms, p99-ms.
func BenchmarkStdio(b *testing.B) {
	needMCPBinary(b)
	for _, n := range []int{1000, 10000} {
		dir := b.TempDir()
		file := filepath.Join(dir, "n.yaml")
		if err := os.WriteFile(file, codec.EncodeYAML(sampledoc.Doc(n, 1)), 0o644); err != nil {
			b.Fatal(err)
		}
		for _, c := range []struct {
			tool string
			args map[string]any
		}{
			{"noggin_show", map[string]any{"noggin": file}},
			{"noggin_note", map[string]any{"noggin": file, "text": "benchmark note"}},
		} {
			b.Run(fmt.Sprintf("%s/%dk", c.tool, n/1000), func(b *testing.B) {
				cs := spawn(b, dir, os.Environ())
				ctx := context.Background()
				one := func() {
					res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
					if err != nil || res.IsError {
						b.Fatalf("%s: %v %v", c.tool, err, res)
					}
				}
				for range 5 { // warm the cache (and the OS page cache)
					one()
				}
				lat := make([]time.Duration, 0, b.N)
				b.ResetTimer()
				start := time.Now()
				for b.Loop() {
					t0 := time.Now()
					one()
					lat = append(lat, time.Since(t0))
				}
				total := time.Since(start)
				b.StopTimer()
				slices.Sort(lat)
				pct := func(p float64) float64 {
					i := int(float64(len(lat)-1) * p)
					return float64(lat[i].Microseconds()) / 1000
				}
				b.ReportMetric(float64(len(lat))/total.Seconds(), "calls/s")
				b.ReportMetric(pct(0.50), "p50-ms")
				b.ReportMetric(pct(0.99), "p99-ms")
			})
		}
	}
}

// BenchmarkHandler measures the server-side cost of one call (no
// transport): the cached noggin, the engine and the envelope encoder.
func BenchmarkHandler(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		dir := b.TempDir()
		file := filepath.Join(dir, "n.yaml")
		if err := os.WriteFile(file, codec.EncodeYAML(sampledoc.Doc(n, 1)), 0o644); err != nil {
			b.Fatal(err)
		}
		h := NewHandler(Config{Engine: testEngine(b)})
		for _, c := range []struct {
			tool string
			args string
		}{
			{"noggin_show", fmt.Sprintf(`{"noggin": %q}`, file)},
			{"noggin_note", fmt.Sprintf(`{"noggin": %q, "text": "benchmark note"}`, file)},
		} {
			b.Run(fmt.Sprintf("%s/%dk", c.tool, n/1000), func(b *testing.B) {
				for b.Loop() {
					if env := h.Call(context.Background(), c.tool, []byte(c.args)); !env.OK() {
						b.Fatal(env.Message())
					}
				}
			})
		}
	}
}
