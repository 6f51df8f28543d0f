package server

import (
	"encoding/json"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/noggin-go/noggin/core/request"
)

// prop is the schema of one argument beyond its types (core's): its
// allowed values and description.
type prop struct {
	enum []any
	desc string
}

// props describes every argument core takes in a tool call; descriptions
// may differ by tool (overrides).
var props = map[string]prop{
	"noggin": {nil,
		"canonical location of the noggin to operate on — e.g. `~/.noggin.yaml`, `./.noggin.yaml`, `/abs/path.yaml`, or `file:///abs/path.yaml`. Required on every tool call."},
	"path": {nil,
		"noggin path: absolute /1/2 (1-based positions from the roots) or relative to the active item (., .., -, +, 2/1, ../3)"},
	"title":           {nil, "item title (one line)"},
	"goto":            {nil, "true = goto the target; string = goto this path after the verb"},
	"before":          {nil, "place as sibling before this anchor path"},
	"after":           {nil, "place as sibling after this anchor path"},
	"into":            {nil, "place as last child of this anchor path"},
	"force":           {nil, "close even if open descendants exist (leaves them open)"},
	"closeAll":        {nil, "cascade-close all open descendants first"},
	"noChildren":      {nil, "omit first-level children of the target"},
	"withSiblings":    {nil, "also include ancestor sibling rows at every depth"},
	"withDescendants": {nil, "expand the target subtree recursively"},
	"withAll":         {nil, "shorthand for withSiblings + withDescendants"},
	"withNotes":       {nil, "accepted for compatibility; no effect (every node in the result already carries its notes)"},
	"state":           {[]any{"done", "open"}, "set done/open state"},
	"text":            {nil, "note body (free-form)"},
	"recursive":       {nil, "also delete descendants"},
	"from":            {nil, "canonical location of the SOURCE noggin (read-only)"},
	"to":              {nil, "canonical location of the DESTINATION noggin (mutated)"},
	"query":           {nil, "words to look for; every word must occur in the item's title or notes (any case)"},
	"open":            {nil, "only open items"},
	"done":            {nil, "only done items"},
	"under":           {nil, "only items below the item at this path"},
	"limit":           {nil, "at most this many results (a whole number from 1)"},
}

// overrides are per-tool descriptions of an argument.
var overrides = map[string]string{
	"noggin_edit.title": "new title (rename)",
}

// schema is a tool's input schema: an object whose properties are the
// arguments core takes for its verb, in core's order (hidden ones left
// out), and nothing else — core refuses any other argument
// (unknown-argument), and additionalProperties false says so up front.
func schema(tool string, required ...string) *jsonschema.Schema {
	s := &jsonschema.Schema{
		Type:                 "object",
		Required:             required,
		Properties:           map[string]*jsonschema.Schema{},
		AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}}, // false
	}
	for _, p := range request.Params(request.VerbOf(tool)) {
		if p.Hidden {
			continue
		}
		pr, ok := props[p.Name]
		if !ok {
			panic("no schema for argument " + p.Name)
		}
		ps := &jsonschema.Schema{Description: pr.desc, Enum: pr.enum}
		if d, ok := overrides[tool+"."+p.Name]; ok {
			ps.Description = d
		}
		if len(p.Types) == 1 {
			ps.Type = p.Types[0]
		} else {
			ps.Types = p.Types
		}
		s.Properties[p.Name] = ps
		s.PropertyOrder = append(s.PropertyOrder, p.Name)
	}
	return s
}

// outputSchema admits every envelope: a success envelope (status "ok",
// data any JSON value) and an error envelope (status "error", error object).
var outputSchema = json.RawMessage(`{
  "type": "object",
  "description": "noggin response envelope (success or error), the same JSON as the text content",
  "required": ["status", "envelopeVersion", "verb"],
  "properties": {
    "status": {"type": "string", "enum": ["ok", "error"]},
    "envelopeVersion": {"type": "integer", "const": 3},
    "verb": {"type": ["string", "null"]},
    "data": {"description": "verb result: a tree view, delete result, copy result, location string, provider list, find matches, history entries, undo result, or null"},
    "error": {
      "type": "object",
      "required": ["code", "message", "exitCode"],
      "properties": {
        "code": {"type": "string"},
        "message": {"type": "string"},
        "exitCode": {"type": "integer"},
        "data": {"type": "object"}
      }
    }
  },
  "oneOf": [
    {"properties": {"status": {"const": "ok"}}, "required": ["data"]},
    {"properties": {"status": {"const": "error"}}, "required": ["error"]}
  ]
}`)

func ptr[T any](v T) *T { return &v }

// annotations builds truthful hints. openWorldHint is always false: a
// noggin is a closed local document.
func annotations(readOnly, destructive, idempotent bool) *mcp.ToolAnnotations {
	a := &mcp.ToolAnnotations{
		ReadOnlyHint:   readOnly,
		IdempotentHint: idempotent,
		OpenWorldHint:  ptr(false),
	}
	if !readOnly {
		a.DestructiveHint = ptr(destructive)
	}
	return a
}

// toolDefs lists the tools in the order tools/list returns them
// (docs/mcp.md).
//
// Annotation decisions (hints describe a repeat call with the same
// arguments):
//   - show, where, providers: read-only (MCP show has no goto), hence
//     idempotent.
//   - edit: idempotent — setting a state or title that already holds writes
//     nothing. (Exception: edit with a relative or absent path together with
//     goto moves the cursor, so a repeat resolves another target.)
//     Destructive: it can close/reopen and rename.
//   - goto: not idempotent — relative paths (+, -, .., 2) resolve against the
//     cursor the call itself moves. Not destructive (only the cursor moves).
//   - done: not idempotent — it moves the cursor to the parent, so a repeat
//     without a path closes the parent. Destructive (closes items).
//   - pop: not idempotent for the same reason; destructive.
//   - move: not idempotent (positions shift); destructive (reorders).
//   - delete: not idempotent (paths shift onto the next item); destructive.
//   - push, add, note, copy: additive (never remove or overwrite anything),
//     not idempotent (each call appends).
//   - find, log: read-only, hence idempotent.
//   - undo, redo: not idempotent (a repeat takes back or re-applies the
//     next entry); destructive (they remove or overwrite what a write did).
var toolDefs = []*mcp.Tool{
	{
		Name:        "noggin_show",
		Description: "Show the current-position view (spine + peers + first-level children). Default target is active.",
		InputSchema: schema("noggin_show", "noggin"),
		Annotations: annotations(true, false, true),
	},
	{
		Name:        "noggin_push",
		Description: "Create a child of active and immediately become it (going on a side-quest).",
		InputSchema: schema("noggin_push", "noggin", "title"),
		Annotations: annotations(false, false, false),
	},
	{
		Name:        "noggin_add",
		Description: "Add a child without making it active (capture a deferred todo).",
		InputSchema: schema("noggin_add", "noggin", "title"),
		Annotations: annotations(false, false, false),
	},
	{
		Name:        "noggin_goto",
		Description: "Make the item at the given path active.",
		InputSchema: schema("noggin_goto", "noggin", "path"),
		Annotations: annotations(false, false, false),
	},
	{
		Name:        "noggin_done",
		Description: "Mark target done (default: active) and surface to its parent, which becomes active. Closing an already-done item adds no second close note.",
		InputSchema: schema("noggin_done", "noggin"),
		Annotations: annotations(false, true, false),
	},
	{
		Name:        "noggin_pop",
		Description: "Shorthand for done on the active item.",
		InputSchema: schema("noggin_pop", "noggin"),
		Annotations: annotations(false, true, false),
	},
	{
		Name:        "noggin_edit",
		Description: "Idempotent mutation of an item's state and/or title. Pass at least one of state or title.",
		InputSchema: schema("noggin_edit", "noggin"),
		Annotations: annotations(false, true, true),
	},
	{
		Name:        "noggin_note",
		Description: "Append a timestamped note to an item (default: active).",
		InputSchema: schema("noggin_note", "noggin", "text"),
		Annotations: annotations(false, false, false),
	},
	{
		Name:        "noggin_move",
		Description: "Relocate an item. Exactly one of before/after/into is required.",
		InputSchema: schema("noggin_move", "noggin"),
		Annotations: annotations(false, true, false),
	},
	{
		Name:        "noggin_delete",
		Description: "Remove an item. Pass recursive=true if it has descendants.",
		InputSchema: schema("noggin_delete", "noggin", "path"),
		Annotations: annotations(false, true, false),
	},
	{
		Name:        "noggin_where",
		Description: "Return the canonical location string of the given noggin (echoes back the `noggin` parameter, useful for confirming the value the server interpreted).",
		InputSchema: schema("noggin_where", "noggin"),
		Annotations: annotations(true, false, true),
	},
	{
		Name:        "noggin_copy",
		Description: "Append every item from `from` into `to` (whole-noggin, append-only). New keys are generated; notes, done state, and createdAt timestamps are preserved verbatim. Use to migrate a noggin between locations or duplicate a tree under one root.",
		InputSchema: schema("noggin_copy", "from", "to"),
		Annotations: annotations(false, false, false),
	},
	{
		Name:        "noggin_find",
		Description: "Find items whose title or notes contain every word of query (any case). Filters: open or done, under (a path), limit (default 50). Returns matches in tree order with key, path, title, done and the timestamps of matching notes, and the total.",
		InputSchema: schema("noggin_find", "noggin", "query"),
		Annotations: annotations(true, false, true),
	},
	{
		Name:        "noggin_log",
		Description: "List the noggin's history of writes, newest first (limit, default 20): each entry's seq, time, verb and what changed.",
		InputSchema: schema("noggin_log", "noggin"),
		Annotations: annotations(true, false, true),
	},
	{
		Name:        "noggin_undo",
		Description: "Take back the newest write not yet undone, only if the noggin is unchanged since it (else undo-conflict, nothing changes). Twice undoes two writes.",
		InputSchema: schema("noggin_undo", "noggin"),
		Annotations: annotations(false, true, false),
	},
	{
		Name:        "noggin_redo",
		Description: "Apply again what the last undo took back (only while no other write came after it).",
		InputSchema: schema("noggin_redo", "noggin"),
		Annotations: annotations(false, true, false),
	},
	{
		Name:        "noggin_providers",
		Description: "List providers registered in this MCP server (e.g. file://). Useful for discovering what location forms the server accepts.",
		InputSchema: schema("noggin_providers"),
		Annotations: annotations(true, false, true),
	},
}

// Instructions is the server's instructions text: the mental model in a
// few lines.
const Instructions = `noggin is a working-memory tree for in-flight work. Every tool (except noggin_copy and noggin_providers) takes "noggin": the location of one noggin file (e.g. "~/.noggin.yaml" or "./.noggin.yaml"); always pass the same location.
- Tree: items (title, done flag, timestamped notes) nested at any depth. One item may be active (the cursor): what you are working on now.
- Paths: absolute /1/2 = 2nd child of the 1st root (1-based). Relative paths resolve against the active item: . (active), .. (parent), - / + (previous/next sibling), 2 (its 2nd child). Paths shift when items move; re-read them from the latest result.
- noggin_push = start a side-quest (new child of active, becomes active). noggin_add = capture a todo for later (cursor stays; place with before/after/into).
- noggin_done / noggin_pop close an item (a "closed" note is added) and move the cursor to its parent. Items with open children need force or closeAll.
- noggin_note records findings on an item; noggin_show shows the spine, peers and children around the active item.
- noggin_find locates an item by words of its title or notes (then use its path or key). noggin_log lists recent writes; noggin_undo takes back the newest one (noggin_redo re-applies it) — use them to recover from a mistaken call, not to browse.
Each result is a JSON envelope: {"status":"ok","data":...} or {"status":"error","error":{"code","message","exitCode","data"}}. Wait for each result before the next mutating call.`
