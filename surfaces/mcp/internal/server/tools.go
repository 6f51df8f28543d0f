package server

import (
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/noggin-go/noggin/core/request"
)

// schema is a verb's input schema: an object whose properties are the
// arguments core takes for it, in core's order (hidden and unlisted ones
// left out). core refuses any other argument (unknown-argument); the
// schema does not say so (additionalProperties false), to stay small.
func schema(v *request.Verb) *jsonschema.Schema {
	s := &jsonschema.Schema{
		Type:       "object",
		Properties: map[string]*jsonschema.Schema{},
	}
	for _, p := range v.Params {
		if p.Hidden || p.Unlisted {
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

func ptr[T any](v T) *T { return &v }

// annotations are the verb's hints, each left out where it holds the
// spec's default (readOnly false, destructive true, idempotent false) or
// means nothing (idempotent and destructive of a read-only tool).
// openWorldHint false (a noggin is a closed document) is sent only on
// the writes that are not destructive: clients such as Codex ask before
// any call that is destructive or open-world, and a read-only tool is
// neither. A tool whose hints are all the defaults (destructive) has none.
func annotations(v *request.Verb) *mcp.ToolAnnotations {
	if !v.ReadOnly && v.Destructive && !v.Idempotent {
		return nil
	}
	a := &mcp.ToolAnnotations{ReadOnlyHint: v.ReadOnly}
	if !v.ReadOnly {
		a.IdempotentHint = v.Idempotent
		if !v.Destructive {
			a.DestructiveHint, a.OpenWorldHint = ptr(false), ptr(false)
		}
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
// few lines (the tools' own descriptions are one line each).
const Instructions = `noggin is a working-memory tree of in-flight work: items (title, done, notes) at any depth; your active item is your cursor. Pass every tool the same "noggin" (a file, e.g. ~/.noggin.yaml).
Paths: /1/2 = 2nd child of the 1st root; relative to active: . .. - + (previous/next sibling) 2 (its 2nd child). @KEY names an item wherever it moves: prefer it when others write. Pass an answer's "revision" as ifRevision to write only onto what you read, or to noggin_changes as since to learn what others wrote after it.
noggin_push starts a side-quest, noggin_add captures a todo, noggin_done/noggin_pop close and surface (open children need force or closeAll), noggin_note records findings, noggin_undo takes back a mistake.
Answers: {"status":"ok","revision","data"} or {"status":"error","error":{"code","message"}}. A view narrows to maxBytes (default 8000; omittedBefore/omittedAfter count what it left out). Every tool answering a view takes window, maxBytes and format ("text": the tree as text) as noggin_show does.`
