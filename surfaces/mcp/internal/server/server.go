// Package server is the noggin MCP server: the tools of spec/mcp.md on the
// official MCP Go SDK, registered at the SDK's low level so that every
// result carries core's canonical envelope bytes unchanged.
package server

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/noggin-go/noggin/core/jstext"
	"io"
	"log/slog"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/noggin-go/noggin/core/envelope"
	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/store"
)

// Name and Version are the serverInfo of the initialize result.
const (
	Name    = "noggin-mcp"
	Version = "0.9.0"
)

// Config configures a server.
type Config struct {
	// Engine runs the verbs (noggin.EngineFromEnv in the binary).
	Engine *noggin.Engine
	// Store configures how locations are opened (Root confines them).
	Store store.Options
	// Logger receives diagnostics (never stdout). Nil discards them.
	Logger *slog.Logger
}

// Handler runs the noggin tools. It is safe for concurrent use: the cache
// and the stores serialise what must be serialised.
type Handler struct {
	eng   *noggin.Engine
	opts  store.Options
	cache *store.Cache
	log   *slog.Logger
}

// NewHandler returns a Handler with an empty noggin cache.
func NewHandler(cfg Config) *Handler {
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return &Handler{eng: cfg.Engine, opts: cfg.Store, cache: store.NewCache(cfg.Store), log: log}
}

// New returns an MCP server exposing the noggin tools.
func New(cfg Config) *mcp.Server {
	return NewHandler(cfg).Server()
}

// Server builds an MCP server on h (several servers may share one handler
// and therefore one cache).
func (h *Handler) Server() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: Name, Version: Version}, &mcp.ServerOptions{
		Instructions: Instructions,
		Logger:       h.log,
		// Only tools: no logging, prompts or resources; the tool list is fixed.
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}},
	})
	known := make(map[string]bool, len(toolDefs))
	rank := make(map[string]int, len(toolDefs))
	for i, t := range toolDefs {
		tool := *t
		tool.OutputSchema = outputSchema
		known[tool.Name] = true
		rank[tool.Name] = i
		srv.AddTool(&tool, h.toolHandler)
	}
	// The SDK answers an unknown tool name with a JSON-RPC error; the spec
	// wants an isError result carrying an envelope instead.
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/call" {
				if r, ok := req.(*mcp.CallToolRequest); ok && r.Params != nil && !known[r.Params.Name] {
					return h.toolHandler(ctx, r)
				}
			}
			res, err := next(ctx, method, req)
			// The SDK lists tools sorted by name; the spec's order is the
			// registration order (all 13 tools fit in one page).
			if lr, ok := res.(*mcp.ListToolsResult); ok && err == nil {
				slices.SortStableFunc(lr.Tools, func(a, b *mcp.Tool) int { return rank[a.Name] - rank[b.Name] })
			}
			return res, err
		}
	})
	return srv
}

func (h *Handler) toolHandler(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return Result(h.Call(req.Params.Name, req.Params.Arguments)), nil
}

// Result turns an envelope into a tool result: the canonical envelope text
// (no trailing newline) as the one text content, the same envelope as
// structured content, isError only for error envelopes.
func Result(env envelope.Envelope) *mcp.CallToolResult {
	text := env.Text()
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: string(text)}},
		StructuredContent: json.RawMessage(text),
		IsError:           !env.OK(),
	}
}

// VerbOf is the envelope verb of a tool name: without the "noggin_"
// prefix, "_" replaced by "-".
func VerbOf(tool string) string {
	return strings.ReplaceAll(strings.TrimPrefix(tool, "noggin_"), "_", "-")
}

// Call runs one tool call and returns its envelope. It never panics: an
// unexpected panic becomes a noggin-error envelope (and is logged).
func (h *Handler) Call(tool string, raw json.RawMessage) (env envelope.Envelope) {
	verb := VerbOf(tool)
	defer func() {
		if r := recover(); r != nil {
			h.log.Error("tool call panicked", "tool", tool, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			env = envelope.Failure(verb, noggin.Usage(noggin.CodeNogginError, 1, handlerPanicMsgPrefix+fmt.Sprint(r)))
		}
	}()
	data, err := h.run(tool, decodeArgs(raw))
	return envelope.Result(verb, data, err)
}

// run dispatches a tool. The result is the envelope data.
func (h *Handler) run(tool string, a args) (any, error) {
	switch tool {
	case "noggin_providers":
		return store.Providers(h.opts), nil
	case "noggin_copy":
		return h.copy(a)
	}
	if _, ok := tools[tool]; !ok {
		return nil, argError(unknownToolMsgPrefix + tool)
	}
	// (1) the noggin parameter, (2) open, (3) the tool's own checks and verb.
	loc := a.trimmedString("noggin")
	if loc == "" {
		return nil, argError(msgNogginRequired)
	}
	st, err := h.cache.Open(loc)
	if err != nil {
		return nil, err
	}
	data, err := tools[tool](h, st, a)
	if err != nil && isArgError(err) {
		// The open must win over the tool's own argument checks. The
		// engine loads (and so reports a cached noggin whose file has since
		// become unreadable or invalid) before any check of its own; only
		// our argument checks run before that, so only they need this.
		if _, lerr := st.Load(); lerr != nil {
			return nil, lerr
		}
	}
	return data, err
}

// isArgError reports whether err may be an MCP argument error (the shape
// of argError; a wrapped non-noggin error has it too, which only costs an
// extra Load).
func isArgError(err error) bool {
	e, ok := err.(*noggin.Error)
	return ok && e.Literal && e.Code == noggin.CodeNogginError && len(e.Data) == 0
}

// open opens a location through the cache. A cached noggin whose file has
// since become unreadable or invalid fails here too, so such a failure is
// reported before the tool's own argument checks.
func (h *Handler) open(loc string) (noggin.Store, error) {
	st, err := h.cache.Open(loc)
	if err != nil {
		return nil, err
	}
	if _, err := st.Load(); err != nil {
		return nil, err
	}
	return st, nil
}

// toolFunc runs a tool on an opened noggin.
type toolFunc func(h *Handler, st noggin.Store, a args) (any, error)

// tools are the tools that operate on one noggin (all but copy and providers).
var tools = map[string]toolFunc{
	"noggin_show":   (*Handler).show,
	"noggin_push":   (*Handler).push,
	"noggin_add":    (*Handler).add,
	"noggin_goto":   (*Handler).gotoTool,
	"noggin_done":   (*Handler).done,
	"noggin_pop":    (*Handler).pop,
	"noggin_edit":   (*Handler).edit,
	"noggin_note":   (*Handler).note,
	"noggin_move":   (*Handler).move,
	"noggin_delete": (*Handler).delete,
	"noggin_where":  (*Handler).where,
}

// view returns a *View as envelope data (a nil view is null).
func view(v *noggin.View, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	return v, nil
}

func (h *Handler) show(st noggin.Store, a args) (any, error) {
	return view(h.eng.Show(st, noggin.ShowOpts{
		Path:            a.path("path"),
		NoChildren:      a.isTrue("noChildren"),
		WithSiblings:    a.isTrue("withSiblings") || a.isTrue("withAll"),
		WithDescendants: a.isTrue("withDescendants") || a.isTrue("withAll"),
	}))
}

// title is the push/add title: string form (absent → ""), trimmed, required.
func title(a args) (string, error) {
	t := jstext.TrimSpace(a.str("title"))
	if t == "" {
		return "", argError(msgTitleRequired)
	}
	return t, nil
}

func (h *Handler) push(st noggin.Store, a args) (any, error) {
	t, err := title(a)
	if err != nil {
		return nil, err
	}
	return view(h.eng.Push(st, noggin.PushOpts{Title: t}))
}

func (h *Handler) add(st noggin.Store, a args) (any, error) {
	t, err := title(a)
	if err != nil {
		return nil, err
	}
	p, err := a.placement()
	if err != nil {
		return nil, err
	}
	return view(h.eng.Add(st, noggin.AddOpts{Title: t, Placement: p, Goto: a.gotoOpt()}))
}

func (h *Handler) gotoTool(st noggin.Store, a args) (any, error) {
	p := jstext.TrimSpace(a.str("path"))
	if p == "" {
		return nil, argError(msgPathRequired)
	}
	return view(h.eng.Goto(st, noggin.GotoOpts{Path: p}))
}

func (h *Handler) done(st noggin.Store, a args) (any, error) {
	// Any goto argument is ignored (not forwarded).
	return view(h.eng.Done(st, noggin.DoneOpts{
		Path:     a.path("path"),
		Force:    a.isTrue("force"),
		CloseAll: a.isTrue("closeAll"),
	}))
}

func (h *Handler) pop(st noggin.Store, a args) (any, error) {
	// path and goto arguments are ignored, so pop-no-path cannot occur.
	return view(h.eng.Pop(st, noggin.PopOpts{Force: a.isTrue("force"), CloseAll: a.isTrue("closeAll")}))
}

func (h *Handler) edit(st noggin.Store, a args) (any, error) {
	state, stateIsString := a["state"].(string)
	hasState := stateIsString && (state == "done" || state == "open")
	t, titleIsString := a["title"].(string)
	hasTitle := titleIsString && jstext.TrimSpace(t) != ""
	if !hasState && !hasTitle {
		return nil, argError(msgEditNothing)
	}
	if a.has("state") && !hasState {
		return nil, argError(msgEditBadState)
	}
	o := noggin.EditOpts{
		Path:     a.path("path"),
		Force:    a.isTrue("force"),
		CloseAll: a.isTrue("closeAll"),
		Goto:     a.gotoOpt(),
	}
	if hasState {
		d := state == "done"
		o.Done = &d
	}
	if hasTitle {
		o.Title = &t // untrimmed; the engine trims
	}
	return view(h.eng.Edit(st, o))
}

func (h *Handler) note(st noggin.Store, a args) (any, error) {
	text := a.str("text")
	if jstext.TrimSpace(text) == "" {
		return nil, argError(msgTextRequired)
	}
	// Any goto argument is ignored (not forwarded).
	return view(h.eng.Note(st, noggin.NoteOpts{Path: a.path("path"), Text: text}))
}

func (h *Handler) move(st noggin.Store, a args) (any, error) {
	p, err := a.placement()
	if err != nil {
		return nil, err
	}
	if p == nil {
		return nil, argError(msgPlacementRequired)
	}
	return view(h.eng.Move(st, noggin.MoveOpts{Path: a.path("path"), Placement: p}))
}

func (h *Handler) delete(st noggin.Store, a args) (any, error) {
	p := jstext.TrimSpace(a.str("path"))
	if p == "" {
		return nil, argError(msgPathRequired)
	}
	r, err := h.eng.Delete(st, noggin.DeleteOpts{Path: p, Recursive: a.isTrue("recursive")})
	if err != nil {
		return nil, err
	}
	return r, nil
}

func (h *Handler) where(st noggin.Store, _ args) (any, error) {
	// where loads the noggin: an unreadable or invalid file fails it.
	if _, err := st.Load(); err != nil {
		return nil, err
	}
	return st.Describe(), nil
}

func (h *Handler) copy(a args) (any, error) {
	from := a.trimmedString("from")
	if from == "" {
		return nil, argError(msgFromRequired)
	}
	to := a.trimmedString("to")
	if to == "" {
		return nil, argError(msgToRequired)
	}
	src, err := h.open(from)
	if err != nil {
		return nil, err
	}
	dst, err := h.open(to)
	if err != nil {
		return nil, err
	}
	r, err := h.eng.Copy(src, dst)
	if err != nil {
		return nil, err
	}
	return r, nil
}
