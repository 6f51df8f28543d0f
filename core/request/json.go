package request

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/noggin-go/noggin/core/envelope"
	"github.com/noggin-go/noggin/core/internal/codec"
	"github.com/noggin-go/noggin/core/noggin"
)

// jsonType is the JSON Schema type of a decoded JSON value ("integer" for
// a whole number).
func jsonType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case float64:
		if x == math.Trunc(x) && !math.IsInf(x, 0) {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	}
	return "object"
}

// checkType refuses a value of another type than p declares.
func (p *Param) checkType(verb string, v any) error {
	t := jsonType(v)
	if t == "null" || slices.Contains(p.Types, t) || t == "integer" && slices.Contains(p.Types, "number") {
		return nil // (an integer is a number; limit's own check says which numbers it takes)
	}
	return noggin.NewError(noggin.CodeInvalidArgument, noggin.F("verb", verb), noggin.F("argument", p.Name),
		noggin.F("expected", strings.Join(p.Types, " or ")), noggin.F("got", t))
}

// Params returns the arguments verb takes in a structured call (nil for an
// unknown verb).
func Params(verb string) []Param {
	if v, ok := verbs[verb]; ok {
		return v.Params
	}
	return nil
}

// ToolName is the MCP tool name of a verb: "noggin_" + verb.
func ToolName(verb string) string { return "noggin_" + strings.ReplaceAll(verb, "-", "_") }

// VerbOf is the envelope verb of a tool name: without the "noggin_"
// prefix, "_" replaced by "-". A bare verb is returned as it is.
func VerbOf(tool string) string {
	return strings.ReplaceAll(strings.TrimPrefix(tool, "noggin_"), "_", "-")
}

// callParams are params for the RPC Call method, which is not read-only:
// show takes goto there too.
var callParams = func() map[string][]Param {
	m := make(map[string][]Param, len(verbTable))
	for _, v := range verbTable {
		m[v.Name] = v.Params
	}
	m["show"] = append(slices.Clone(m["show"]), pGoto)
	return m
}()

// RunJSON runs an MCP tool call: tool is the MCP tool name of a verb
// ("noggin_push"); raw is the arguments object (absent or null: no
// arguments). An argument the verb does not take is unknown-argument, any
// other tool name UnknownVerb.
func (r *Runner) RunJSON(ctx context.Context, tool string, raw json.RawMessage) Result {
	verb := VerbOf(tool)
	v, ok := verbs[verb]
	if !ok || ToolName(verb) != tool {
		return failure(verb, UnknownVerb(tool))
	}
	var m map[string]any
	if t := bytes.TrimSpace(raw); len(t) > 0 && !bytes.Equal(t, []byte("null")) {
		v, err := codec.DecodeJSONValue(t) // keeps a lone surrogate, as the original's JSON.parse
		if m, _ = v.(map[string]any); err != nil || m == nil {
			return failure(verb, noggin.Usage(noggin.CodeNogginError, 2, verb+": arguments must be a JSON object"))
		}
	}
	return r.runArgs(ctx, verb, v.Params, m)
}

// RunCall runs a verb with MCP-style arguments (the RPC Call method):
// decoded JSON values (nil, bool, float64, string, []any, map[string]any).
func (r *Runner) RunCall(ctx context.Context, verb string, args map[string]any) Result {
	ps, ok := callParams[verb]
	if !ok {
		return failure(verb, UnknownVerb(verb))
	}
	return r.runArgs(ctx, verb, ps, args)
}

func failure(verb string, err error) Result { return Result{Envelope: envelope.Failure(verb, err)} }

func (r *Runner) runArgs(ctx context.Context, verb string, ps []Param, args map[string]any) Result {
	req := &Request{Verb: verb}
	// Sorted, so that the first unknown argument reported is always the same.
	for _, k := range slices.Sorted(maps.Keys(args)) {
		a := find(ps, k)
		if a == nil {
			return failure(verb, unknownArgument(verb, k, ps))
		}
		if err := a.checkType(verb, args[k]); err != nil {
			return failure(verb, err)
		}
		*a.field(req) = Arg{Given: true, Value: args[k]}
	}
	return r.Run(ctx, req)
}

func find(ps []Param, name string) *Param {
	for i := range ps {
		if ps[i].Name == name {
			return &ps[i]
		}
	}
	return nil
}

func unknownArgument(verb, name string, ps []Param) error {
	var known []string
	for _, p := range ps {
		if !p.Hidden {
			known = append(known, p.Name)
		}
	}
	return noggin.NewError(noggin.CodeUnknownArgument, noggin.F("verb", verb), noggin.F("argument", name),
		noggin.F("known", strings.Join(known, ", ")))
}
