package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
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
	cmd := exec.Command(bin)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+dir)
	in, err := cmd.StdinPipe()
	if err != nil {
		return Sample{}, err
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		return Sample{}, err
	}
	if err := cmd.Start(); err != nil {
		return Sample{}, err
	}
	out := bufio.NewReaderSize(outPipe, 1<<20)
	id := 0
	// call sends one request (or a notification, for a nil result) and
	// reads lines until its answer.
	call := func(method string, params any, result any) error {
		msg := map[string]any{"jsonrpc": "2.0", "method": method, "params": params}
		if result != nil {
			id++
			msg["id"] = id
		}
		b, _ := json.Marshal(msg)
		if _, err := in.Write(append(b, '\n')); err != nil {
			return err
		}
		if result == nil {
			return nil
		}
		for {
			line, err := out.ReadBytes('\n')
			if err != nil {
				return fmt.Errorf("noggin-mcp: %s: %w", method, err)
			}
			var ans struct {
				ID     int             `json:"id"`
				Result json.RawMessage `json:"result"`
				Error  *struct {
					Message string `json:"message"`
				} `json:"error"`
			}
			if json.Unmarshal(line, &ans) != nil || ans.ID != id {
				continue // a notification or log line
			}
			if ans.Error != nil {
				return fmt.Errorf("noggin-mcp: %s: %s", method, ans.Error.Message)
			}
			return json.Unmarshal(ans.Result, result)
		}
	}
	stop := func() (*os.ProcessState, error) {
		_ = in.Close()
		err := cmd.Wait()
		return cmd.ProcessState, err
	}
	var init map[string]any
	err = call("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "noggin-bench", "version": "1"}}, &init)
	if err == nil {
		err = call("notifications/initialized", map[string]any{}, nil)
	}
	var lat []float64
	for i := -6; i < calls && err == nil; i++ {
		var res struct {
			IsError bool `json:"isError"`
		}
		start := time.Now()
		err = call("tools/call", map[string]any{"name": "noggin_note",
			"arguments": map[string]any{"noggin": file, "text": "a bench note"}}, &res)
		d := time.Since(start)
		if err == nil && res.IsError {
			err = fmt.Errorf("noggin-mcp: noggin_note answered an error")
		}
		if i >= 0 {
			lat = append(lat, ms(d))
		}
	}
	st, werr := stop()
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
