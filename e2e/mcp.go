package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/noggin-go/noggin/core/request"
)

// MCPSurface talks to noggin-mcp processes over stdio: one on the shared
// active item (--shared), and one per agent a step names (--agent), each
// started on its first step.
type MCPSurface struct {
	session *mcp.ClientSession
	bin     string
	dir     string
	env     []string
	mu      sync.Mutex // guards agents: scenarios run in parallel
	agents  map[string]*MCPSurface
}

// StartMCP starts bin (cwd dir, environment env) on the shared active item
// and connects to it.
func StartMCP(ctx context.Context, bin, dir string, env []string) (*MCPSurface, error) {
	return startMCP(ctx, bin, dir, env, "--shared")
}

func startMCP(ctx context.Context, bin, dir string, env []string, args ...string) (*MCPSurface, error) {
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = env
	dieWithParent(cmd)
	client := mcp.NewClient(&mcp.Implementation{Name: "noggin-e2e", Version: "0"}, nil)
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	session, err := client.Connect(cctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil)
	if err != nil {
		return nil, fmt.Errorf("starting %s: %w", bin, err)
	}
	return &MCPSurface{session: session, bin: bin, dir: dir, env: env}, nil
}

// As is the surface of agent name (m itself for ""): a noggin-mcp of its
// own, started with --agent on first use.
func (m *MCPSurface) As(ctx context.Context, name string) (*MCPSurface, error) {
	if name == "" {
		return m, nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if a := m.agents[name]; a != nil {
		return a, nil
	}
	if m.bin == "" {
		return nil, errors.New("this MCP surface cannot start agents")
	}
	a, err := startMCP(ctx, m.bin, m.dir, m.env, "--agent", name)
	if err != nil {
		return nil, err
	}
	if m.agents == nil {
		m.agents = map[string]*MCPSurface{}
	}
	m.agents[name] = a
	return a, nil
}

// Close stops the servers.
func (m *MCPSurface) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, a := range m.agents {
		_ = a.Close()
	}
	return m.session.Close()
}

// Name implements Surface.
func (m *MCPSurface) Name() string { return MCP }

// MCPCall renders a step to a tool name and its arguments.
func MCPCall(s *Scenario, st *Step) (string, map[string]any, error) {
	args, err := ToolArgs(s, st)
	if err == nil && st.Verb == "show" && st.Has("goto") {
		err = errors.New("noggin_show is read-only and has no goto")
	}
	if err != nil {
		return "", nil, err
	}
	return "noggin_" + st.Verb, args, nil
}

// ToolArgs renders a step to the arguments of its MCP tool, which the RPC
// Call method takes too (with goto on show).
func ToolArgs(s *Scenario, st *Step) (map[string]any, error) {
	args := map[string]any{}
	if st.Verb != "copy" && st.Verb != "providers" {
		args["noggin"] = s.NogginLocation(st)
	}
	var err error
	for _, o := range st.Opts {
		switch o.Key {
		case "noggin": // already resolved by NogginLocation
		case "agent": // the connection's (MCP) or the call's header (RPC)
		case "done", "open":
			if st.Verb == "find" { // find's filters, not edit's state
				args[o.Key] = !o.HasVal || o.Val == "true"
				continue
			}
			if st.Has("done") && st.Has("open") {
				err = errors.New("noggin_edit cannot take both done and open")
			}
			args["state"] = o.Key
		case "force", "closeAll", "noChildren", "withSiblings", "withDescendants", "withAll", "withNotes", "recursive":
			switch {
			case !o.HasVal || o.Val == "true":
				args[o.Key] = true
			case o.Val == "false":
				args[o.Key] = false
			default:
				err = fmt.Errorf("option %s=%q is not a boolean", o.Key, o.Val)
			}
		case "goto":
			if o.HasVal {
				args["goto"] = o.Val
			} else {
				args["goto"] = true
			}
		case "from", "to":
			args[o.Key] = s.Location(o.Val)
		case "extra":
			args[o.Val] = "x"
		case "window", "maxBytes": // a whole number where the value is one
			if n, perr := strconv.Atoi(o.Val); perr == nil {
				args[o.Key] = float64(n)
			} else {
				args[o.Key] = o.Val
			}
		case "limit": // a number where the value is one, as an agent sends it
			if f, perr := strconv.ParseFloat(o.Val, 64); perr == nil && strings.Trim(o.Val, "0123456789.-") == "" {
				args["limit"] = f
			} else {
				args["limit"] = o.Val
			}
		default:
			args[o.Key] = o.Val
		}
	}
	return args, err
}

// Do implements Surface.
func (m *MCPSurface) Do(ctx context.Context, s *Scenario, st *Step) *Outcome {
	name, args, err := MCPCall(s, st)
	if err != nil {
		return &Outcome{Err: fmt.Errorf("not expressible on MCP: %w", err)}
	}
	// noggin-mcp's default budget (request.AgentBudget) is its own: a step
	// without maxBytes asks for the whole view, as on the other surfaces
	// (the default is tested in surfaces/mcp).
	if v := request.Lookup(st.Verb); v != nil && v.Takes("maxBytes") && !st.Has("maxBytes") {
		args["maxBytes"] = float64(0)
	}
	a, err := m.As(ctx, st.Str("agent"))
	if err != nil {
		return &Outcome{Err: err}
	}
	call := a.Call
	if TextForm(st) {
		call = a.CallText
	}
	text, err := call(ctx, name, args)
	return &Outcome{Text: text, Err: err}
}

// Call calls a tool and returns its envelope text after checking the result
// shape: one text content item, isError exactly for error envelopes.
func (m *MCPSurface) Call(ctx context.Context, name string, args map[string]any) ([]byte, error) {
	text, isText, err := m.call(ctx, name, args)
	if err == nil && isText {
		err = fmt.Errorf("tools/call %s: a text answer, want the envelope: %q", name, text)
	}
	return text, err
}

// CallText calls a tool asked for format text: a success is the CLI's
// text, an error the envelope (as errorLine renders it).
func (m *MCPSurface) CallText(ctx context.Context, name string, args map[string]any) ([]byte, error) {
	text, isText, err := m.call(ctx, name, args)
	switch {
	case err != nil:
		return nil, err
	case isText:
		return bytes.TrimSuffix(text, []byte("\n")), nil
	}
	return errorLine(text)
}

// call calls a tool and checks the result shape: one text content item,
// no structured content, isError exactly for error envelopes. The text is
// a success's CLI text (isText) or the envelope, compact JSON returned
// indented back to the canonical bytes the other surfaces carry.
func (m *MCPSurface) call(ctx context.Context, name string, args map[string]any) (text []byte, isText bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	res, err := m.session.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return nil, false, fmt.Errorf("tools/call %s %v: %w", name, args, err)
	}
	if len(res.Content) != 1 {
		return nil, false, fmt.Errorf("tools/call %s: %d content items, want 1", name, len(res.Content))
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		return nil, false, fmt.Errorf("tools/call %s: content is %T, want text", name, res.Content[0])
	}
	if res.StructuredContent != nil {
		return nil, false, fmt.Errorf("tools/call %s: structured content beside the text", name)
	}
	text = []byte(tc.Text)
	if !res.IsError && !bytes.HasPrefix(text, []byte("{")) {
		return text, true, nil
	}
	code, err := envelopeExit(text)
	if err != nil {
		return nil, false, fmt.Errorf("tools/call %s: %w: %q", name, err, text)
	}
	if res.IsError != (code != 0) {
		return nil, false, fmt.Errorf("tools/call %s: isError=%v but the envelope has exitCode %d", name, res.IsError, code)
	}
	var compact, pretty bytes.Buffer
	if json.Compact(&compact, text) != nil || !bytes.Equal(compact.Bytes(), text) {
		return nil, false, fmt.Errorf("tools/call %s: text is not compact JSON: %q", name, text)
	}
	if err := json.Indent(&pretty, text, "", "  "); err != nil {
		return nil, false, err
	}
	return pretty.Bytes(), false, nil
}

// ConnectMCPHTTP connects to a noggin-mcp serving streamable HTTP at url.
func ConnectMCPHTTP(ctx context.Context, url string) (*MCPSurface, error) {
	client := mcp.NewClient(&mcp.Implementation{Name: "noggin-e2e", Version: "0"}, nil)
	session, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, DisableStandaloneSSE: true}, nil)
	if err != nil {
		return nil, err
	}
	return &MCPSurface{session: session}, nil
}
