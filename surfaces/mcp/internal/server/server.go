// Package server is the noggin MCP server: the tools of docs/mcp.md on the
// official MCP Go SDK, registered at the SDK's low level so that every
// result carries core's canonical envelope bytes unchanged.
package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/noggin-go/noggin/core/buildinfo"
	"github.com/noggin-go/noggin/core/envelope"
	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/request"
	"github.com/noggin-go/noggin/core/store"
)

// Name is the serverInfo name of the initialize result; its version is
// the build's (core/buildinfo).
const Name = "noggin-mcp"

// Config configures a server.
type Config struct {
	// Engine runs the verbs (noggin.EngineFromEnv in the binary).
	Engine *noggin.Engine
	// Store configures how locations are opened (Root confines them).
	Store store.Options
	// Logger receives diagnostics (never stdout). Nil discards them.
	Logger *slog.Logger
	// Remote runs the calls whose noggin is http(s)://HOST:PORT/NAME on that
	// noggin-rpc server (nil: such locations are no-provider).
	Remote request.Remote
	// Agent is the agent every call is made for (core checks the name).
	// When it is "" and AgentID is set, each connection is an agent of its
	// own, named by noggin.AgentName from the client's name and
	// AgentID(session id); neither: the shared active item.
	Agent   string
	AgentID func(session string) string
}

// Handler runs the noggin tools. It is safe for concurrent use: the cache
// and the stores serialise what must be serialised.
type Handler struct {
	runner  *request.Runner
	log     *slog.Logger
	agent   string
	agentID func(session string) string
}

// NewHandler returns a Handler with an empty noggin cache.
func NewHandler(cfg Config) *Handler {
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	// A model's context is small: views narrow themselves to AgentBudget
	// unless a call asks otherwise (docs/mcp.md, "Answer size").
	r := &request.Runner{Engine: cfg.Engine, Opener: store.NewCache(cfg.Store), Remote: cfg.Remote,
		DefaultMaxBytes: request.AgentBudget}
	r.Panicked = func(v any, stack []byte) {
		log.Error("tool call panicked", "panic", fmt.Sprint(v), "stack", string(stack))
	}
	return &Handler{runner: r, log: log, agent: cfg.Agent, agentID: cfg.AgentID}
}

// New returns an MCP server exposing the noggin tools.
func New(cfg Config) *mcp.Server {
	return NewHandler(cfg).Server()
}

// Server builds an MCP server on h (several servers may share one handler
// and therefore one cache).
func (h *Handler) Server() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: Name, Version: buildinfo.Get().Version}, &mcp.ServerOptions{
		Instructions: Instructions,
		Logger:       h.log,
		// Only tools: no logging, prompts or resources; the tool list is fixed.
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}},
	})
	rank := make(map[string]int, len(toolDefs))
	for i, t := range toolDefs {
		tool := *t
		rank[tool.Name] = i
		srv.AddTool(&tool, h.toolHandler)
	}
	// Protocol edges (the MCP specification): resources and prompts, which
	// the server does not declare, are "method not found"; a tools/call
	// without a name, or whose arguments are not an object, is "invalid
	// params". An unknown tool name is an isError result carrying an
	// envelope (docs/mcp.md), where the SDK would answer a JSON-RPC error.
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			// logging/setLevel too: the server declares no logging capability.
			if strings.HasPrefix(method, "resources/") || strings.HasPrefix(method, "prompts/") || strings.HasPrefix(method, "logging/") {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "method not found: " + method + " (noggin-mcp serves tools only)"}
			}
			if method == "tools/call" {
				r, ok := req.(*mcp.CallToolRequest)
				if !ok || r.Params == nil || r.Params.Name == "" {
					return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "tools/call needs params.name, the tool to call (see tools/list)"}
				}
				if a := bytes.TrimSpace(r.Params.Arguments); len(a) > 0 && a[0] != '{' && !bytes.Equal(a, []byte("null")) {
					return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "tools/call params.arguments must be a JSON object"}
				}
				if _, listed := rank[r.Params.Name]; !listed {
					return h.toolHandler(ctx, r)
				}
			}
			res, err := next(ctx, method, req)
			// The SDK lists tools sorted by name; the spec's order is the
			// registration order (every tool fits in one page).
			if lr, ok := res.(*mcp.ListToolsResult); ok && err == nil {
				slices.SortStableFunc(lr.Tools, func(a, b *mcp.Tool) int { return rank[a.Name] - rank[b.Name] })
			}
			return res, err
		}
	})
	return srv
}

func (h *Handler) toolHandler(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return Result(h.Run(request.WithAgent(ctx, h.agentOf(req.Session)), req.Params.Name, req.Params.Arguments)), nil
}

// agentOf is the agent of a connection's calls ("" for none).
func (h *Handler) agentOf(ss *mcp.ServerSession) string {
	if h.agent != "" || h.agentID == nil || ss == nil {
		return h.agent
	}
	client := ""
	if p := ss.InitializeParams(); p != nil && p.ClientInfo != nil {
		client = p.ClientInfo.Name
	}
	return noggin.AgentName(client, h.agentID(ss.ID()))
}

// Result turns an answer into a tool result: one text content, the
// envelope once as compact JSON (or, asked for format text, the text the
// CLI prints), isError only for error envelopes. No structured content:
// the tools declare no output schema, and what clients show a model is
// the text (docs/mcp.md, "Answer size").
func Result(res request.Result) *mcp.CallToolResult {
	text := res.Text
	if text == nil {
		text = res.Envelope.Compact()
	}
	return &mcp.CallToolResult{
		Content: []mcp.Content{&mcp.TextContent{Text: string(text)}},
		IsError: !res.Envelope.OK(),
	}
}

// VerbOf is the envelope verb of a tool name: without the "noggin_"
// prefix, "_" replaced by "-".
func VerbOf(tool string) string { return request.VerbOf(tool) }

// Call runs one tool call and returns its envelope: core decodes the
// arguments, checks them and runs the verb. It never panics: an unexpected
// panic becomes a noggin-error envelope (and is logged).
func (h *Handler) Call(ctx context.Context, tool string, raw json.RawMessage) envelope.Envelope {
	return h.Run(ctx, tool, raw).Envelope
}

// Run is Call with the whole answer (the text of format text).
func (h *Handler) Run(ctx context.Context, tool string, raw json.RawMessage) request.Result {
	return h.runner.RunJSON(ctx, tool, raw)
}
