package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/noggin-go/noggin/core/codec"
	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/sampledoc"
)

// make bench-tokens: what an agent pays in bytes on the wire (one JSON-RPC
// message each, as an MCP client reads it over stdio) for tools/list and
// for one call of each tool on four noggins, noggin-mcp with its defaults
// beside the original's noggin-mcp when NOGGIN_ORIGINAL_MCP names it (its
// bundled noggin-mcp .mjs, run with node). Every call runs on a fresh copy
// of the fixture, so each answer is the fixture's, not the previous
// call's.

// stdioMCP is an MCP server process spoken to over stdio: one JSON-RPC
// message per line.
type stdioMCP struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
	id  int
}

// startMCP starts argv in dir (HOME=dir, and env) and initializes the
// session.
func startMCP(dir string, env []string, argv ...string) (*stdioMCP, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "HOME="+dir), env...)
	in, out, err := startPiped(cmd)
	if err != nil {
		return nil, err
	}
	p := &stdioMCP{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20)}
	if _, err = p.call("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "noggin-bench", "version": "1"}}); err == nil {
		err = p.send("notifications/initialized", map[string]any{}, false)
	}
	if err != nil {
		_, _ = p.stop()
		return nil, err
	}
	return p, nil
}

func (p *stdioMCP) send(method string, params any, request bool) error {
	msg := map[string]any{"jsonrpc": "2.0", "method": method, "params": params}
	if request {
		p.id++
		msg["id"] = p.id
	}
	b, err := json.Marshal(msg)
	if err == nil {
		_, err = p.in.Write(append(b, '\n'))
	}
	return err
}

// call sends a request and returns its answer line (without the newline),
// skipping notifications and log lines; a JSON-RPC error is an error.
func (p *stdioMCP) call(method string, params any) ([]byte, error) {
	if err := p.send(method, params, true); err != nil {
		return nil, err
	}
	for {
		line, err := p.out.ReadBytes('\n')
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", p.cmd.Path, method, err)
		}
		var ans struct {
			ID    int `json:"id"`
			Error *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal(line, &ans) != nil || ans.ID != p.id {
			continue
		}
		if ans.Error != nil {
			return nil, fmt.Errorf("%s: %s: %s", p.cmd.Path, method, ans.Error.Message)
		}
		return line[:len(line)-1], nil
	}
}

func (p *stdioMCP) stop() (*os.ProcessState, error) {
	_ = p.in.Close()
	err := p.cmd.Wait()
	return p.cmd.ProcessState, err
}

// tokenFixture is one noggin of the table and the two paths its calls use.
type tokenFixture struct {
	name          string
	doc           *noggin.Document
	first, second string
}

var tokenFixtures = []tokenFixture{
	{"10 items", sampledoc.Doc(10, 1), "/1/1", "/1/2"},
	{"1k flat", sampledoc.Flat(1000), "/1", "/2"},
	{"2,220 items", sampledoc.Doc(2220, 1), "/1", "/2"},
	{"10k items", sampledoc.Doc(10000, 1), "/1", "/2"},
}

// tokenCall is one tool call; args gets the fixture's location and paths.
type tokenCall struct {
	tool string
	args func(loc string, f tokenFixture) map[string]any
}

func onNoggin(extra map[string]any) func(string, tokenFixture) map[string]any {
	return func(loc string, _ tokenFixture) map[string]any {
		m := map[string]any{"noggin": loc}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
}

var tokenCalls = []tokenCall{
	{"noggin_show", onNoggin(nil)},
	{"noggin_push", onNoggin(map[string]any{"title": "a bench item"})},
	{"noggin_add", onNoggin(map[string]any{"title": "a bench item"})},
	{"noggin_goto", func(loc string, f tokenFixture) map[string]any {
		return map[string]any{"noggin": loc, "path": f.second}
	}},
	{"noggin_done", onNoggin(map[string]any{"force": true})},
	{"noggin_pop", onNoggin(map[string]any{"force": true})},
	{"noggin_edit", onNoggin(map[string]any{"title": "a renamed item"})},
	{"noggin_note", onNoggin(map[string]any{"text": "a bench note"})},
	{"noggin_move", func(loc string, f tokenFixture) map[string]any {
		return map[string]any{"noggin": loc, "path": f.second, "before": f.first}
	}},
	{"noggin_delete", func(loc string, f tokenFixture) map[string]any {
		return map[string]any{"noggin": loc, "path": f.second, "recursive": true}
	}},
	{"noggin_where", onNoggin(nil)},
	{"noggin_copy", func(loc string, _ tokenFixture) map[string]any {
		return map[string]any{"from": loc, "to": filepath.Join(filepath.Dir(loc), "copy.yaml")}
	}},
	{"noggin_find", onNoggin(map[string]any{"query": "storage"})},
	{"noggin_log", onNoggin(nil)},
	// since: the revision before one note another agent made (see measure).
	{"noggin_changes", onNoggin(nil)},
	{"noggin_agents", onNoggin(nil)},
	{"noggin_undo", onNoggin(nil)},
	{"noggin_redo", onNoggin(nil)},
	{"noggin_providers", func(string, tokenFixture) map[string]any { return map[string]any{} }},
}

// catchUp reads the revision of the noggin at loc, then writes a note on
// it (another agent's), and returns that revision: what noggin_changes is
// asked since.
func catchUp(p *stdioMCP, loc string) (string, error) {
	line, err := p.call("tools/call", map[string]any{"name": "noggin_where", "arguments": map[string]any{"noggin": loc}})
	if err != nil {
		return "", err
	}
	var res struct {
		Result struct {
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"result"`
	}
	var env struct {
		Revision string `json:"revision"`
	}
	if err := json.Unmarshal(line, &res); err != nil || len(res.Result.Content) == 0 {
		return "", fmt.Errorf("noggin_where: %s", line)
	}
	if err := json.Unmarshal([]byte(res.Result.Content[0].Text), &env); err != nil || env.Revision == "" {
		return "", fmt.Errorf("noggin_where answered no revision: %s", line)
	}
	if _, err := p.call("tools/call", map[string]any{"name": "noggin_note", "arguments": map[string]any{"noggin": loc, "text": "a note of another agent"}}); err != nil {
		return "", err
	}
	return env.Revision, nil
}

// tokenServer measures one server: tools/list, then every call on every
// fixture ("" where it has no such tool, "error" marked where it answered
// one).
type tokenServer struct {
	name  string
	argv  []string
	list  int
	tools map[string]bool
	cells map[string]string // tool + "/" + fixture
}

func (s *tokenServer) measure(dir string) error {
	// A fixed clock and keys: the same bytes on every run.
	p, err := startMCP(dir, []string{"NOGGIN_CLOCK=2026-02-01T00:00:00.000Z", "NOGGIN_KEYS=sequential"}, s.argv...)
	if err != nil {
		return err
	}
	defer func() { _, _ = p.stop() }()
	line, err := p.call("tools/list", map[string]any{})
	if err != nil {
		return err
	}
	s.list = len(line)
	var tl struct {
		Result struct {
			Tools []struct {
				Name string `json:"name"`
			} `json:"tools"`
		} `json:"result"`
	}
	if err := json.Unmarshal(line, &tl); err != nil {
		return err
	}
	s.tools = map[string]bool{}
	for _, t := range tl.Result.Tools {
		s.tools[t.Name] = true
	}
	s.cells = map[string]string{}
	for i, f := range tokenFixtures {
		data := codec.EncodeYAML(f.doc)
		for j, c := range tokenCalls {
			if !s.tools[c.tool] {
				continue
			}
			// The same location length on both servers and every call.
			loc := filepath.Join(dir, fmt.Sprintf("f%d-c%02d", i, j), "noggin.yaml")
			if err := os.MkdirAll(filepath.Dir(loc), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(loc, data, 0o644); err != nil {
				return err
			}
			args := c.args(loc, f)
			if c.tool == "noggin_changes" { // an agent catching up after another's note
				if args["since"], err = catchUp(p, loc); err != nil {
					return err
				}
			}
			line, err := p.call("tools/call", map[string]any{"name": c.tool, "arguments": args})
			if err != nil {
				return err
			}
			var res struct {
				Result struct {
					IsError bool `json:"isError"`
				} `json:"result"`
			}
			if err := json.Unmarshal(line, &res); err != nil {
				return err
			}
			cell := fmt.Sprintf("%d", len(line))
			if res.Result.IsError {
				cell += " (error)"
			}
			s.cells[c.tool+"/"+f.name] = cell
		}
	}
	return nil
}

// tokens writes outDir/tokens.md: the table of bytes, ours beside the
// original's where NOGGIN_ORIGINAL_MCP names it.
func tokens(outDir string) error {
	dir, err := os.MkdirTemp(os.Getenv("NOGGIN_BENCH_DIR"), "noggin-tokens-")
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(dir) }()
	bin, err := buildMCP(dir)
	if err != nil {
		return err
	}
	servers := []*tokenServer{{name: "ours", argv: []string{bin}}}
	if orig := os.Getenv("NOGGIN_ORIGINAL_MCP"); orig != "" {
		servers = append(servers, &tokenServer{name: "original", argv: []string{"node", orig}})
	}
	for _, s := range servers {
		sd := filepath.Join(dir, s.name)
		if err := os.Mkdir(sd, 0o755); err != nil {
			return err
		}
		if err := s.measure(sd); err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
	}
	md := tokenReport(servers)
	if outDir == "" {
		_, err = os.Stdout.WriteString(md)
		return err
	}
	return os.WriteFile(filepath.Join(outDir, "tokens.md"), []byte(md), 0o644)
}

func tokenReport(servers []*tokenServer) string {
	var b strings.Builder
	b.WriteString("# Answer size: what an agent pays in bytes\n\n")
	b.WriteString("Written by `make bench-tokens` (`bench/tokens.go`); do not edit. Bytes of one JSON-RPC\n" +
		"message on the wire, as an MCP client reads it over stdio: `tools/list`, then one call of each\n" +
		"tool on a fresh copy of each noggin, noggin-mcp with its defaults (an 8,000-byte answer budget).\n" +
		"\"original\" is the original's noggin-mcp (`NOGGIN_ORIGINAL_MCP`), \"—\" a tool it does not have;\n" +
		"\"(error)\" an error answer. The noggins: `sampledoc.Doc(10)`, `sampledoc.Flat(1000)` (1,000\n" +
		"roots, the middle one active), `sampledoc.Doc(2220)`, `sampledoc.Doc(10000)`. `noggin_changes`\n" +
		"is asked since the revision before one note another agent made (what an agent catching up reads\n" +
		"instead of `noggin_show`).\n\n")
	b.WriteString("| | " + names(servers) + " |\n|---|" + strings.Repeat("---:|", len(servers)) + "\n")
	b.WriteString("| `tools/list` |")
	for _, s := range servers {
		fmt.Fprintf(&b, " %d (%d tools) |", s.list, len(s.tools))
	}
	b.WriteString("\n\n")
	for _, f := range tokenFixtures {
		fmt.Fprintf(&b, "## %s\n\n| tool | %s |\n|---|%s\n", f.name, names(servers), strings.Repeat("---:|", len(servers)))
		for _, c := range tokenCalls {
			fmt.Fprintf(&b, "| `%s` |", c.tool)
			for _, s := range servers {
				cell, ok := s.cells[c.tool+"/"+f.name]
				if !ok {
					cell = "—"
				}
				fmt.Fprintf(&b, " %s |", cell)
			}
			b.WriteString("\n")
		}
		b.WriteString("\n")
	}
	return b.String()
}

func names(servers []*tokenServer) string {
	var ns []string
	for _, s := range servers {
		ns = append(ns, s.name)
	}
	return strings.Join(ns, " | ")
}
