package server

import (
	"encoding/json"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/noggin-go/noggin/core/request"
)

// schema is a verb's input schema: an object whose properties are the
// arguments core takes for it, in core's order (hidden ones left out), and
// nothing else — core refuses any other argument (unknown-argument), and
// additionalProperties false says so up front.
func schema(v *request.Verb) *jsonschema.Schema {
	s := &jsonschema.Schema{
		Type:                 "object",
		Properties:           map[string]*jsonschema.Schema{},
		AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}}, // false
	}
	for _, p := range v.Params {
		if p.Hidden {
			continue
		}
		ps := &jsonschema.Schema{Description: p.Help, Enum: p.Enum}
		if len(p.Types) == 1 {
			ps.Type = p.Types[0]
		} else {
			ps.Types = p.Types
		}
		s.Properties[p.Name] = ps
		s.PropertyOrder = append(s.PropertyOrder, p.Name)
		if p.Required {
			s.Required = append(s.Required, p.Name)
		}
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

// annotations are the verb's hints. openWorldHint is always false: a
// noggin is a closed document.
func annotations(v *request.Verb) *mcp.ToolAnnotations {
	a := &mcp.ToolAnnotations{
		ReadOnlyHint:   v.ReadOnly,
		IdempotentHint: v.Idempotent,
		OpenWorldHint:  ptr(false),
	}
	if !v.ReadOnly {
		a.DestructiveHint = ptr(v.Destructive)
	}
	return a
}

// toolDefs are the tools in the order tools/list returns them, one per
// verb of core (request.Tools).
var toolDefs = func() []*mcp.Tool {
	var ts []*mcp.Tool
	for _, v := range request.Tools() {
		ts = append(ts, &mcp.Tool{Name: request.ToolName(v.Name), Description: v.Tool,
			InputSchema: schema(v), Annotations: annotations(v)})
	}
	return ts
}()

// Instructions is the server's instructions text: the mental model in a
// few lines.
const Instructions = `noggin is a working-memory tree for in-flight work. Every tool (except noggin_copy and noggin_providers) takes "noggin": the location of one noggin file (e.g. "~/.noggin.yaml" or "./.noggin.yaml"); always pass the same location.
- Tree: items (title, done flag, timestamped notes) nested at any depth. One item may be active (the cursor): what you are working on now.
- Paths: absolute /1/2 = 2nd child of the 1st root (1-based). Relative paths resolve against the active item: . (active), .. (parent), - / + (previous/next sibling), 2 (its 2nd child). Paths shift when items move: when others write too, name an item by its key, @KEY (every row has "key"), and pass a result's "revision" as ifRevision to write only onto what you read. Your active item is your own cursor (noggin_where names you).
- noggin_push = start a side-quest (new child of active, becomes active). noggin_add = capture a todo for later (cursor stays; place with before/after/into).
- noggin_done / noggin_pop close an item (a "closed" note is added) and move the cursor to its parent. Items with open children need force or closeAll.
- noggin_note records findings on an item; noggin_show shows the spine, peers and children around the active item.
- noggin_find locates an item by words of its title or notes (then use its path or key). noggin_log lists recent writes; noggin_undo takes back the newest one (noggin_redo re-applies it) — use them to recover from a mistaken call, not to browse.
Each result is a JSON envelope: {"status":"ok","data":...} or {"status":"error","error":{"code","message","exitCode","data"}}. Wait for each result before the next mutating call.`
