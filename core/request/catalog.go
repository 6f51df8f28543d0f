package request

import (
	"context"
	"fmt"
	"slices"

	"github.com/noggin-go/noggin/core/envelope"
	"github.com/noggin-go/noggin/core/noggin"
)

// Verb is the one description of a verb: what every surface shows of it
// (the CLI's command and help, the MCP tool with its schema and hints, the
// RPC Call method, the docs tables) and how core reads and runs it.
type Verb struct {
	// Name is the verb ("push"); its MCP tool is ToolName(Name).
	Name string
	// Summary is the one-line description of the CLI's help and the docs.
	Summary string
	// Synopsis is the CLI's positional arguments ("<title…>", "[path]").
	Synopsis string
	// Flags are the CLI's flags of the verb, besides --noggin, --json and
	// --with-json.
	Flags []string
	// Tool is the MCP tool's description, written for models.
	Tool string
	// ReadOnly, Destructive and Idempotent are the MCP tool's hints for a
	// repeat call with the same arguments (verbTable says why each).
	ReadOnly, Destructive, Idempotent bool
	// Params are the arguments of a structured call (MCP, RPC Call), in
	// the order tool schemas list them.
	Params []Param

	// before checks what needs no noggin (nil: nothing).
	before func(req *Request) error
	// lazy reports whether the verb, so asked, reads so few of the
	// noggin's items that it runs on a lazy read (noggin.Undecoded); nil:
	// never.
	lazy func(req *Request) bool
	// run checks the rest and runs the verb on the opened noggin.
	run func(ctx context.Context, e *noggin.Engine, st noggin.Store, req *Request) (noggin.Result, error)
	// global runs a verb that opens no noggin of its own (copy, providers).
	global func(ctx context.Context, r *Runner, req *Request, res *Result) (noggin.Result, error)
	// decode reads the verb's result back from an envelope (its type's
	// noggin.Decode… function).
	decode func(data any) (noggin.Result, error)
}

// OpensNoggin reports whether the verb works on one noggin (--noggin, the
// "noggin" argument); copy and providers do not.
func (v *Verb) OpensNoggin() bool { return v.global == nil }

// Param is one named argument of a structured call (MCP tool arguments,
// the RPC Call method).
type Param struct {
	// Name is the argument name, e.g. "closeAll".
	Name string
	// Help describes the argument in tool schemas.
	Help string
	// Enum, if set, lists the values the argument takes.
	Enum []any
	// Required marks an argument tool schemas list as required.
	Required bool
	// Hidden marks an argument that is accepted only so that it fails with
	// the same error as on the CLI (pop's path, goto on done, pop and
	// delete); tool schemas do not list it.
	Hidden bool
	// Types are the JSON Schema types the argument takes ("string",
	// "boolean", "integer"); null is taken as the argument not given a
	// value, as by the original. Any other value is invalid-argument.
	Types []string
	field func(*Request) *Arg
}

func p(name string, types []string, help string, field func(*Request) *Arg) Param {
	return Param{Name: name, Types: types, Help: help, field: field}
}

func hidden(p Param) Param {
	p.Hidden = true
	return p
}

func required(p Param) Param {
	p.Required = true
	return p
}

var (
	tString = []string{"string"}
	tBool   = []string{"boolean"}
)

var (
	pNoggin = required(p("noggin", tString,
		"canonical location of the noggin to operate on — e.g. `~/.noggin.yaml`, `./.noggin.yaml`, `/abs/path.yaml`, or `file:///abs/path.yaml`. Required on every tool call.",
		func(r *Request) *Arg { return &r.Location }))
	pPath = p("path", tString,
		"noggin path: @KEY (the item with that key, wherever it moved: prefer it when others write too), absolute /1/2 (1-based positions from the roots) or relative to your active item (., .., -, +, 2/1, ../3)",
		func(r *Request) *Arg { return &r.Path })
	pTitle           = p("title", tString, "item title (one line)", func(r *Request) *Arg { return &r.Title })
	pNewTitle        = p("title", tString, "new title (rename)", func(r *Request) *Arg { return &r.Title })
	pText            = p("text", tString, "note body (free-form)", func(r *Request) *Arg { return &r.Text })
	pState           = Param{Name: "state", Types: tString, Help: "set done/open state", Enum: []any{"done", "open"}, field: func(r *Request) *Arg { return &r.State }}
	pBefore          = p("before", tString, "place as sibling before this anchor path", func(r *Request) *Arg { return &r.Before })
	pAfter           = p("after", tString, "place as sibling after this anchor path", func(r *Request) *Arg { return &r.After })
	pInto            = p("into", tString, "place as last child of this anchor path", func(r *Request) *Arg { return &r.Into })
	pGoto            = p("goto", []string{"string", "boolean"}, "true = goto the target; string = goto this path after the verb", func(r *Request) *Arg { return &r.Goto })
	pForce           = p("force", tBool, "close even if open descendants exist (leaves them open)", func(r *Request) *Arg { return &r.Force })
	pCloseAll        = p("closeAll", tBool, "cascade-close all open descendants first", func(r *Request) *Arg { return &r.CloseAll })
	pRecursive       = p("recursive", tBool, "also delete descendants", func(r *Request) *Arg { return &r.Recursive })
	pNoChildren      = p("noChildren", tBool, "omit first-level children of the target", func(r *Request) *Arg { return &r.NoChildren })
	pWithSiblings    = p("withSiblings", tBool, "also include ancestor sibling rows at every depth", func(r *Request) *Arg { return &r.WithSiblings })
	pWithDescendants = p("withDescendants", tBool, "expand the target subtree recursively", func(r *Request) *Arg { return &r.WithDescendants })
	pWithAll         = p("withAll", tBool, "shorthand for withSiblings + withDescendants", func(r *Request) *Arg { return &r.WithAll })
	pWithNotes       = p("withNotes", tBool, "accepted for compatibility; no effect (every node in the result already carries its notes)", func(r *Request) *Arg { return &r.WithNotes })
	pFrom            = required(p("from", tString, "canonical location of the SOURCE noggin (read-only)", func(r *Request) *Arg { return &r.From }))
	pTo              = required(p("to", tString, "canonical location of the DESTINATION noggin (mutated)", func(r *Request) *Arg { return &r.To }))
	pQuery           = p("query", tString, "words to look for; every word must occur in the item's title or notes (any case)", func(r *Request) *Arg { return &r.Query })
	pOpen            = p("open", tBool, "only open items", func(r *Request) *Arg { return &r.Open })
	pDone            = p("done", tBool, "only done items", func(r *Request) *Arg { return &r.Done })
	pUnder           = p("under", tString, "only items below the item at this path", func(r *Request) *Arg { return &r.Under })
	pLimit           = p("limit", []string{"number", "string"}, "at most this many results (a whole number from 1)", func(r *Request) *Arg { return &r.Limit })
	pBy              = p("by", tString, "only what this agent wrote", func(r *Request) *Arg { return &r.By })
	pIfRevision      = p("ifRevision", tString, "write only if the noggin is still at this revision (an answer's revision); else stale-revision", func(r *Request) *Arg { return &r.IfRevision })
	pForget          = p("forget", tString, "drop this agent's cursor", func(r *Request) *Arg { return &r.Forget })
	hPath            = hidden(pPath)
	hGoto            = hidden(pGoto)
)

// verbTable is the one definition of each verb, in the CLI's help order
// (toolOrder is the MCP tools/list order). Show has no goto among its
// params, as noggin_show and RPC Show are read-only; RPC Call adds it.
//
// The hints describe a repeat call with the same arguments:
//   - show, where, providers, find, log: read-only, hence idempotent.
//   - edit: idempotent (a state or title that already holds writes
//     nothing; edit with a relative path and goto is the exception) and
//     destructive (closes, reopens, renames).
//   - goto: not idempotent (relative paths resolve against the cursor the
//     call moves); not destructive (only the cursor moves).
//   - done, pop: not idempotent (a repeat closes the parent); destructive.
//   - move, delete: not idempotent (paths shift); destructive.
//   - push, add, note, copy: additive, not idempotent (each call appends).
//   - agents: destructive and not idempotent with forget (a repeat is
//     unknown-agent); a read without it.
//   - undo, redo: not idempotent (a repeat takes the next entry);
//     destructive (they remove or overwrite what a write did).
var verbTable = []Verb{
	{Name: "push", decode: noggin.DecodeView, Synopsis: "<title…>", Flags: []string{"title"},
		Summary: "create a child of the active item and make it active",
		Tool:    "Create a child of active and immediately become it (going on a side-quest).",
		Params:  []Param{pNoggin, required(pTitle), pIfRevision}, before: needTitle, run: push, lazy: always},
	{Name: "add", decode: noggin.DecodeView, Synopsis: "<title…>", Flags: []string{"title", "before", "after", "into", "goto"},
		Summary: "create an item without moving the cursor (default: last child of the active item)",
		Tool:    "Add a child without making it active (capture a deferred todo).",
		Params:  []Param{pNoggin, required(pTitle), pBefore, pAfter, pInto, pGoto, pIfRevision}, before: needTitle, run: add, lazy: always},
	{Name: "move", decode: noggin.DecodeView, Synopsis: "[path]", Flags: []string{"before", "after", "into", "goto"},
		Summary: "move an item (default: the active one) and its subtree; needs one of --before, --after, --into",
		Tool:    "Relocate an item. Exactly one of before/after/into is required.", Destructive: true,
		Params: []Param{pNoggin, pPath, pBefore, pAfter, pInto, pGoto, pIfRevision}, before: atMostOnePath, run: move, lazy: always},
	{Name: "goto", decode: noggin.DecodeView, Synopsis: "<path>",
		Summary: "make an item active",
		Tool:    "Make the item at the given path active.",
		Params:  []Param{pNoggin, required(pPath), pIfRevision}, before: needGotoPath, run: gotoVerb, lazy: always},
	{Name: "done", decode: noggin.DecodeView, Synopsis: "[path]", Flags: []string{"force", "close-all"},
		Summary:     "close an item (default: the active one) and make its parent active",
		Tool:        "Mark target done (default: active) and surface to its parent, which becomes active. Closing an already-done item adds no second close note.",
		Destructive: true,
		Params:      []Param{pNoggin, pPath, pForce, pCloseAll, pIfRevision, hGoto}, before: atMostOnePath, run: done, lazy: always},
	{Name: "pop", decode: noggin.DecodeView, Flags: []string{"force", "close-all"},
		Summary: "close the active item and make its parent active",
		Tool:    "Shorthand for done on the active item.", Destructive: true,
		Params: []Param{pNoggin, pForce, pCloseAll, pIfRevision, hPath, hGoto}, before: popChecks, run: pop, lazy: always},
	{Name: "edit", decode: noggin.DecodeView, Synopsis: "[path]", Flags: []string{"done", "open", "title", "force", "close-all", "goto"},
		Summary:     "close (--done), reopen (--open) or rename (--title) an item without moving the cursor",
		Tool:        "Idempotent mutation of an item's state and/or title. Pass at least one of state or title.",
		Destructive: true, Idempotent: true,
		Params: []Param{pNoggin, pPath, pState, pNewTitle, pForce, pCloseAll, pGoto, pIfRevision}, before: editChecks, run: edit, lazy: always},
	{Name: "show", decode: noggin.DecodeView, Synopsis: "[path]", Flags: []string{"no-children", "with-notes", "with-siblings", "with-descendants", "with-all", "goto", "watch"},
		Summary:  "print the tree around an item (default: the active one)",
		Tool:     "Show the current-position view (spine + peers + first-level children). Default target is active.",
		ReadOnly: true, Idempotent: true,
		Params: []Param{pNoggin, pPath, pNoChildren, pWithSiblings, pWithDescendants, pWithAll, pWithNotes}, run: show, lazy: showsFew},
	{Name: "note", decode: noggin.DecodeView, Synopsis: "[path] <text…>", Flags: []string{"goto"},
		Summary: "append a timestamped note to an item (default: the active one)",
		Tool:    "Append a timestamped note to an item (default: active).",
		Params:  []Param{pNoggin, pPath, required(pText), pGoto, pIfRevision}, run: note, lazy: always},
	{Name: "delete", decode: noggin.DecodeDelete, Synopsis: "<path>", Flags: []string{"recursive"},
		Summary: "delete an item (with --recursive: and its subtree)",
		Tool:    "Remove an item. Pass recursive=true if it has descendants.", Destructive: true,
		Params: []Param{pNoggin, required(pPath), pRecursive, pIfRevision, hGoto}, before: deleteChecks, run: deleteVerb, lazy: always},
	{Name: "where", decode: noggin.DecodeLocation,
		Summary:  "print the noggin's location",
		Tool:     "Return the canonical location string of the given noggin (echoes back the `noggin` parameter, useful for confirming the value the server interpreted).",
		ReadOnly: true, Idempotent: true,
		Params: []Param{pNoggin}, run: where, lazy: always},
	{Name: "copy", decode: noggin.DecodeCopy, Synopsis: "<from> <to>",
		Summary: "append every item of one noggin to another (ignores --noggin)",
		Tool:    "Append every item from `from` into `to` (whole-noggin, append-only). New keys are generated; notes, done state, and createdAt timestamps are preserved verbatim. Use to migrate a noggin between locations or duplicate a tree under one root.",
		Params:  []Param{pFrom, pTo}, before: copyChecks, global: copyVerb},
	{Name: "providers", decode: noggin.DecodeProviders,
		Summary:  "list the registered location schemes",
		Tool:     "List providers registered in this MCP server (e.g. file://). Useful for discovering what location forms the server accepts.",
		ReadOnly: true, Idempotent: true,
		Params: []Param{}, global: providers},
	{Name: "find", decode: noggin.DecodeFind, Synopsis: "<query…>", Flags: []string{"open", "done", "under", "limit", "by"},
		Summary:  "list the items whose title or notes hold every word of the query (any case)",
		Tool:     "Find items whose title or notes contain every word of query (any case). Filters: open or done, under (a path), limit (default 50). Returns matches in tree order with key, path, title, done and the timestamps of matching notes, and the total.",
		ReadOnly: true, Idempotent: true,
		Params: []Param{pNoggin, required(pQuery), pOpen, pDone, pUnder, pLimit, pBy}, before: findChecks, run: findVerb},
	{Name: "log", decode: noggin.DecodeLog, Flags: []string{"limit", "by"},
		Summary:  "list the noggin's history of writes, newest first",
		Tool:     "List the noggin's history of writes, newest first (limit, default 20): each entry's seq, time, verb and what changed.",
		ReadOnly: true, Idempotent: true,
		Params: []Param{pNoggin, pLimit, pBy}, before: logChecks, run: logVerb},
	{Name: "agents", decode: noggin.DecodeAgents, Flags: []string{"forget"},
		Summary:     "list the agents' cursors (--forget NAME drops one)",
		Tool:        "List each agent's cursor (its own active item); forget drops one.",
		Destructive: true,
		Params:      []Param{pNoggin, pForget, pIfRevision}, before: noPositionals, run: agentsVerb},
	{Name: "undo", decode: noggin.DecodeUndo,
		Summary:     "take back the newest write not yet undone (only if nothing changed since)",
		Tool:        "Take back the newest write not yet undone, only if the noggin is unchanged since it (else undo-conflict, nothing changes). Twice undoes two writes.",
		Destructive: true,
		Params:      []Param{pNoggin, pIfRevision}, before: noPositionals, run: undo},
	{Name: "redo", decode: noggin.DecodeUndo,
		Summary:     "apply again what the last undo took back",
		Tool:        "Apply again what the last undo took back (only while no other write came after it).",
		Destructive: true,
		Params:      []Param{pNoggin, pIfRevision}, before: noPositionals, run: redo},
}

// toolOrder is the order of the MCP tools/list answer (docs/mcp.md).
var toolOrder = []string{"show", "push", "add", "goto", "done", "pop", "edit", "note", "move", "delete",
	"where", "copy", "find", "log", "agents", "undo", "redo", "providers"}

// verbs indexes verbTable by name.
var verbs = func() map[string]*Verb {
	m := make(map[string]*Verb, len(verbTable))
	for i := range verbTable {
		m[verbTable[i].Name] = &verbTable[i]
	}
	return m
}()

// Verbs lists the verbs Run knows, in help order.
var Verbs = func() []string {
	names := make([]string, len(verbTable))
	for i, v := range verbTable {
		names[i] = v.Name
	}
	return names
}()

// DecodeData is envelope.Decode's DataDecoder: the verb's typed result.
func DecodeData(verb string, data any) (noggin.Result, error) {
	if v, ok := verbs[verb]; ok {
		return v.decode(data)
	}
	return nil, fmt.Errorf("envelope: data of an unknown verb %q", verb)
}

// DecodeEnvelope decodes an envelope with its verb's typed result.
func DecodeEnvelope(b []byte) (envelope.Envelope, error) { return envelope.Decode(b, DecodeData) }

// Lookup returns the description of a verb, or nil.
func Lookup(name string) *Verb { return verbs[name] }

// Tools returns the verbs in the order of the MCP tool list.
func Tools() []*Verb {
	out := make([]*Verb, len(toolOrder))
	for i, n := range toolOrder {
		out[i] = verbs[n]
	}
	return out
}

// Catalog returns the verbs in help order.
func Catalog() []*Verb {
	out := make([]*Verb, len(verbTable))
	for i := range verbTable {
		out[i] = &verbTable[i]
	}
	return slices.Clip(out)
}
