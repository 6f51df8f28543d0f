package server

import (
	"encoding/json"
	"github.com/noggin-go/noggin/core/jstext"
	"strings"

	"github.com/noggin-go/noggin/core/noggin"
)

// args are the decoded tool arguments. JSON values keep the JavaScript
// reading of the original server: a key that is absent is `undefined`, a
// JSON null is `null` (present but falsy).
type args map[string]any

// decodeArgs decodes the raw arguments. Anything that is not a JSON object
// (absent, null, an array, a scalar) reads as no arguments, as
// `request.params.arguments ?? {}` does in the original.
func decodeArgs(raw json.RawMessage) args {
	var m map[string]any
	if len(raw) == 0 || json.Unmarshal(raw, &m) != nil || m == nil {
		return args{}
	}
	return args(m)
}

// has reports whether the key is present (any value, including null).
func (a args) has(name string) bool {
	_, ok := a[name]
	return ok
}

// isTrue is `a[name] === true`.
func (a args) isTrue(name string) bool {
	b, ok := a[name].(bool)
	return ok && b
}

// str is the string form of a[name] with absent and null reading as ""
// (`String(a[name] ?? "")`).
func (a args) str(name string) string {
	v := a[name]
	if v == nil {
		return ""
	}
	return jsString(v)
}

// path is an optional path "as given": a falsy value means absent (""),
// any other value its string form. Not trimmed.
func (a args) path(name string) string {
	v := a[name]
	if !truthy(v) {
		return ""
	}
	return jsString(v)
}

// trimmedString is a[name] trimmed when it is a string; non-strings read as "".
func (a args) trimmedString(name string) string {
	s, _ := a[name].(string)
	return jstext.TrimSpace(s)
}

// gotoOpt maps the goto argument, passed through unchanged: absent → none;
// true → the verb's target; a string → that path; false, null, "" (and 0)
// → present but falsy (goto-path-required). Other truthy non-strings are
// passed as their string form (spec silent; they then fail to resolve).
func (a args) gotoOpt() noggin.Goto {
	v, ok := a["goto"]
	if !ok {
		return noggin.Goto{}
	}
	if b, isBool := v.(bool); isBool && b {
		return noggin.Goto{Present: true, Self: true}
	}
	if !truthy(v) {
		return noggin.Goto{Present: true}
	}
	return noggin.Goto{Present: true, Path: jsString(v)}
}

// placement maps before/after/into: the kinds whose value is truthy; more
// than one is an argument error; none gives nil.
func (a args) placement() (*noggin.Placement, error) {
	var p *noggin.Placement
	n := 0
	for _, kind := range []string{"before", "after", "into"} {
		if v := a[kind]; truthy(v) {
			n++
			p = &noggin.Placement{Kind: kind, Anchor: jsString(v)}
		}
	}
	if n > 1 {
		return nil, argError(msgPlacementConflict)
	}
	return p, nil
}

// truthy is JavaScript truthiness of a decoded JSON value.
func truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case float64:
		return x != 0
	case string:
		return x != ""
	default: // arrays and objects
		return true
	}
}

// jsString is JavaScript's String(v) for a decoded JSON value.
func jsString(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		if x {
			return "true"
		}
		return "false"
	case float64:
		return jstext.FormatNumber(x)
	case string:
		return x
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			if e != nil {
				parts[i] = jsString(e)
			}
		}
		return strings.Join(parts, ",")
	default:
		return "[object Object]"
	}
}

// MCP argument error messages (spec/mcp.md), exact wording.
const (
	msgNogginRequired     = "`noggin` parameter is required: pass the canonical location of the noggin to operate on (e.g. \"~/.noggin.yaml\")"
	msgTitleRequired      = "title is required"
	msgPathRequired       = "path is required"
	msgTextRequired       = "text is required"
	msgPlacementConflict  = "choose at most one of before/after/into"
	msgPlacementRequired  = "exactly one of before/after/into is required"
	msgEditNothing        = `pass at least one of state ("done"/"open") or title`
	msgEditBadState       = `state must be "done" or "open"`
	msgFromRequired       = "`from` is required: the source noggin location"
	msgToRequired         = "`to` is required: the destination noggin location"
	unknownToolMsgPrefix  = "unknown tool: "
	handlerPanicMsgPrefix = "internal error: "
)

// argError is an argument error detected by the MCP layer: noggin-error,
// exit 1, no data, the message exactly as given.
func argError(msg string) *noggin.Error {
	return noggin.Usage(noggin.CodeNogginError, 1, msg)
}
