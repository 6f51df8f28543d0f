package main

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"
)

// The report also measures the MCP server's warm noggin_note: one
// noggin-mcp process over stdio, as an agent runs it, answering calls on a
// noggin it has cached. The client is a few lines of JSON-RPC (the MCP
// stdio transport is one JSON message per line), so the CLI module needs
// no MCP library; the figure is the median round trip of the calls after
// a warm-up, and the peak RSS the server's.

// mcpCalls is how many timed calls per noggin size, per report run.
const mcpCalls = 5

// buildMCP builds noggin-mcp as make build does.
func buildMCP(dir string) (string, error) {
	bin := filepath.Join(dir, "noggin-mcp")
	build := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", bin,
		"github.com/noggin-go/noggin/surfaces/mcp/cmd/noggin-mcp")
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build noggin-mcp: %w\n%s", err, out)
	}
	return bin, nil
}

// measureMCPNote times calls warm noggin_note calls on file (after one
// call that opens it and 5 warm-ups) through one noggin-mcp process: the
// median round trip, and the server's peak RSS.
func measureMCPNote(bin, dir, file string, calls int) (Sample, error) {
	p, err := startMCP(dir, nil, bin)
	if err != nil {
		return Sample{}, err
	}
	var lat []float64
	for i := -6; i < calls && err == nil; i++ {
		var res struct {
			Result struct {
				IsError bool `json:"isError"`
			} `json:"result"`
		}
		start := time.Now()
		var line []byte
		line, err = p.call("tools/call", map[string]any{"name": "noggin_note",
			"arguments": map[string]any{"noggin": file, "text": "a bench note"}})
		d := time.Since(start)
		if err == nil && (json.Unmarshal(line, &res) != nil || res.Result.IsError) {
			err = fmt.Errorf("noggin-mcp: noggin_note answered an error")
		}
		if i >= 0 {
			lat = append(lat, ms(d))
		}
	}
	st, werr := p.stop()
	if err != nil {
		return Sample{}, err
	}
	if werr != nil {
		return Sample{}, fmt.Errorf("noggin-mcp: %w", werr)
	}
	s := Sample{WallMS: median(lat)}
	if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
		s.RSSMB = float64(ru.Maxrss) / 1024
	}
	return s, nil
}
