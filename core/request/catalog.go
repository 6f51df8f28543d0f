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
	// recent reports whether the verb, so asked, reads the noggin only in
	// its write's Update (on the last commit), so that the noggin may be
	// opened as last known (store.RecentLoader); nil: never.
	recent func(req *Request) bool
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
	// Unlisted marks an argument that tool schemas leave out although the
	// verb takes it: the view options, listed once on noggin_show and
	// named in the server's instructions, so that the tool list stays
	// small (docs/mcp.md, "Answer size").
	Unlisted bool
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

func unlisted(p Param) Param {
	p.Unlisted = true
	return p
}

// bare is p without its help, which noggin_show's schema and the server's
// instructions give once.
func bare(p Param) Param {
	p.Help = ""
	return p
}

func required(p Param) Param {
	p.Required = true
	return p
}

var (
	tString = []string{"string"}
	tBool   = []string{"boolean"}
	tCount  = []string{"integer"}
)

// The arguments' help is short: tool definitions are paid for by every
// agent before its first call (docs/mcp.md, "Answer size"), and the
// server's instructions say the rest once.
var (
	pNoggin          = required(p("noggin", tString, "noggin file, e.g. ~/.noggin.yaml", func(r *Request) *Arg { return &r.Location }))
	pPath            = p("path", tString, "item: @KEY, /1/2 or relative (. .. - + 2)", func(r *Request) *Arg { return &r.Path })
	pTitle           = p("title", tString, "", func(r *Request) *Arg { return &r.Title })
	pNewTitle        = p("title", tString, "new title", func(r *Request) *Arg { return &r.Title })
	pText            = p("text", tString, "", func(r *Request) *Arg { return &r.Text })
	pState           = Param{Name: "state", Types: tString, Enum: []any{"done", "open"}, field: func(r *Request) *Arg { return &r.State }}
	pBefore          = p("before", tString, "place before this path", func(r *Request) *Arg { return &r.Before })
	pAfter           = p("after", tString, "place after this path", func(r *Request) *Arg { return &r.After })
	pInto            = p("into", tString, "place last under this path", func(r *Request) *Arg { return &r.Into })
	pGoto            = p("goto", []string{"string", "boolean"}, "then goto: true (the target) or a path", func(r *Request) *Arg { return &r.Goto })
	pForce           = p("force", tBool, "close despite open descendants", func(r *Request) *Arg { return &r.Force })
	pCloseAll        = p("closeAll", tBool, "close open descendants too", func(r *Request) *Arg { return &r.CloseAll })
	pRecursive       = p("recursive", tBool, "with its subtree", func(r *Request) *Arg { return &r.Recursive })
	pNoChildren      = p("noChildren", tBool, "without the target's children", func(r *Request) *Arg { return &r.NoChildren })
	pWithSiblings    = p("withSiblings", tBool, "siblings at every depth", func(r *Request) *Arg { return &r.WithSiblings })
	pWithDescendants = p("withDescendants", tBool, "the whole subtree", func(r *Request) *Arg { return &r.WithDescendants })
	pWithAll         = p("withAll", tBool, "withSiblings + withDescendants", func(r *Request) *Arg { return &r.WithAll })
	pWithNotes       = unlisted(p("withNotes", tBool, "no effect: notes are always in", func(r *Request) *Arg { return &r.WithNotes }))
	pFrom            = required(p("from", tString, "source noggin", func(r *Request) *Arg { return &r.From }))
	pTo              = required(p("to", tString, "destination noggin", func(r *Request) *Arg { return &r.To }))
	pQuery           = p("query", tString, "words, each in the title or notes", func(r *Request) *Arg { return &r.Query })
	pOpen            = p("open", tBool, "", func(r *Request) *Arg { return &r.Open })
	pDone            = p("done", tBool, "", func(r *Request) *Arg { return &r.Done })
	pUnder           = p("under", tString, "only below this path", func(r *Request) *Arg { return &r.Under })
	pLimit           = p("limit", []string{"number", "string"}, "at most this many", func(r *Request) *Arg { return &r.Limit })
	pBy              = p("by", tString, "only this agent's writes", func(r *Request) *Arg { return &r.By })
	pSince           = required(p("since", tString, "", func(r *Request) *Arg { return &r.Since }))
	pIfRevision      = p("ifRevision", tString, "", func(r *Request) *Arg { return &r.IfRevision })
	pForget          = p("forget", tString, "agent whose cursor to drop", func(r *Request) *Arg { return &r.Forget })
	pWindow          = p("window", tCount, "at most this many items per row", func(r *Request) *Arg { return &r.Window })
	pMaxBytes        = p("maxBytes", tCount, "answer in at most this many bytes (0: no cap)", func(r *Request) *Arg { return &r.MaxBytes })
	pFormat          = Param{Name: "format", Types: tString, Enum: []any{FormatJSON, FormatText}, field: func(r *Request) *Arg { return &r.Format }}
	hPath            = hidden(pPath)
	hGoto            = hidden(pGoto)
	// The shared arguments of every verb but show, whose schema describes
	// them.
	bNoggin = bare(pNoggin)
	bPath   = bare(pPath)
	// force and closeAll are described once, on done.
	bForce    = bare(pForce)
	bCloseAll = bare(pCloseAll)
	uWindow   = unlisted(pWindow)
	uMax      = unlisted(pMaxBytes)
	uFormat   = unlisted(pFormat)
)

// verbTable is the one definition of each verb, in the CLI's help order
// (toolOrder is the MCP tools/list order). Show has no goto among its
// params, as noggin_show and RPC Show are read-only; RPC Call adds it.
//
// The hints describe a repeat call with the same arguments:
//   - show, where, providers, find, log, changes: read-only, hence idempotent.
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
		Tool:    "Start a side-quest: a new child of active, which becomes active.",
		Params:  []Param{bNoggin, required(pTitle), pIfRevision, uWindow, uMax, uFormat}, before: needTitle, run: push, lazy: always, recent: always},
	{Name: "add", decode: noggin.DecodeView, Synopsis: "<title…>", Flags: []string{"title", "before", "after", "into", "goto"},
		Summary: "create an item without moving the cursor (default: last child of the active item)",
		Tool:    "Capture a todo without moving the cursor (default: last child of active).",
		Params:  []Param{bNoggin, required(pTitle), pBefore, pAfter, pInto, pGoto, pIfRevision, uWindow, uMax, uFormat}, before: needTitle, run: add, lazy: always, recent: always},
	{Name: "move", decode: noggin.DecodeView, Synopsis: "[path]", Flags: []string{"before", "after", "into", "goto"},
		Summary: "move an item (default: the active one) and its subtree; needs one of --before, --after, --into",
		Tool:    "Move an item and its subtree: give one of before, after, into.", Destructive: true,
		Params: []Param{bNoggin, bPath, pBefore, pAfter, pInto, pGoto, pIfRevision, uWindow, uMax, uFormat}, before: atMostOnePath, run: move, lazy: always, recent: always},
	{Name: "goto", decode: noggin.DecodeView, Synopsis: "<path>",
		Summary: "make an item active",
		Tool:    "Make an item active.",
		Params:  []Param{bNoggin, required(bPath), pIfRevision, uWindow, uMax, uFormat}, before: needGotoPath, run: gotoVerb, lazy: always, recent: always},
	{Name: "done", decode: noggin.DecodeView, Synopsis: "[path]", Flags: []string{"force", "close-all"},
		Summary:     "close an item (default: the active one) and make its parent active",
		Tool:        "Close an item (default: active); its parent becomes active.",
		Destructive: true,
		Params:      []Param{bNoggin, bPath, pForce, pCloseAll, pIfRevision, hGoto, uWindow, uMax, uFormat}, before: atMostOnePath, run: done, lazy: always, recent: always},
	{Name: "pop", decode: noggin.DecodeView, Flags: []string{"force", "close-all"},
		Summary: "close the active item and make its parent active",
		Tool:    "Close the active item; its parent becomes active.", Destructive: true,
		Params: []Param{bNoggin, bForce, bCloseAll, pIfRevision, hPath, hGoto, uWindow, uMax, uFormat}, before: popChecks, run: pop, lazy: always, recent: always},
	{Name: "edit", decode: noggin.DecodeView, Synopsis: "[path]", Flags: []string{"done", "open", "title", "force", "close-all", "goto"},
		Summary:     "close (--done), reopen (--open) or rename (--title) an item without moving the cursor",
		Tool:        "Close or reopen (state) or rename (title) an item; the cursor stays.",
		Destructive: true, Idempotent: true,
		Params: []Param{bNoggin, bPath, pState, pNewTitle, bForce, bCloseAll, pGoto, pIfRevision, uWindow, uMax, uFormat}, before: editChecks, run: edit, lazy: always, recent: always},
	{Name: "show", decode: noggin.DecodeView, Synopsis: "[path]", Flags: []string{"no-children", "with-notes", "with-siblings", "with-descendants", "with-all", "goto", "watch"},
		Summary:  "print the tree around an item (default: the active one)",
		Tool:     "Show the view around an item (default: active): spine, siblings, children.",
		ReadOnly: true, Idempotent: true,
		Params: []Param{pNoggin, pPath, pNoChildren, pWithSiblings, pWithDescendants, pWithAll, pWithNotes, pWindow, pMaxBytes, pFormat}, run: show, lazy: showsFew},
	{Name: "note", decode: noggin.DecodeView, Synopsis: "[path] <text…>", Flags: []string{"goto"},
		Summary: "append a timestamped note to an item (default: the active one)",
		Tool:    "Append a timestamped note to an item (default: active).",
		Params:  []Param{bNoggin, bPath, required(pText), pGoto, pIfRevision, uWindow, uMax, uFormat}, run: note, lazy: always, recent: noteNamesNoKey},
	{Name: "delete", decode: noggin.DecodeDelete, Synopsis: "<path>", Flags: []string{"recursive"},
		Summary: "delete an item (with --recursive: and its subtree)",
		Tool:    "Delete an item (recursive: with its subtree).", Destructive: true,
		Params: []Param{bNoggin, required(bPath), pRecursive, pIfRevision, hGoto, uWindow, uMax, uFormat}, before: deleteChecks, run: deleteVerb, lazy: always, recent: always},
	{Name: "where", decode: noggin.DecodeLocation,
		Summary:  "print the noggin's location",
		Tool:     "Echo the noggin's canonical location (with your agent name).",
		ReadOnly: true, Idempotent: true,
		Params: []Param{bNoggin, uFormat}, run: where, lazy: always},
	{Name: "copy", decode: noggin.DecodeCopy, Synopsis: "<from> <to>",
		Summary: "append every item of one noggin to another (ignores --noggin)",
		Tool:    "Append every item of one noggin to another, with new keys.",
		Params:  []Param{pFrom, pTo, uMax, uFormat}, before: copyChecks, global: copyVerb},
	{Name: "providers", decode: noggin.DecodeProviders,
		Summary:  "list the registered location schemes",
		Tool:     "List the location schemes this server opens.",
		ReadOnly: true, Idempotent: true,
		Params: []Param{uFormat}, global: providers},
	{Name: "find", decode: noggin.DecodeFind, Synopsis: "<query…>", Flags: []string{"open", "done", "under", "limit", "by"},
		Summary:  "list the items whose title or notes hold every word of the query (any case)",
		Tool:     "Find items whose title or notes hold every word of query (tree order).",
		ReadOnly: true, Idempotent: true,
		Params: []Param{bNoggin, required(pQuery), pOpen, pDone, pUnder, pLimit, pBy, uFormat}, before: findChecks, run: findVerb},
	{Name: "log", decode: noggin.DecodeLog, Flags: []string{"limit", "by"},
		Summary:  "list the noggin's history of writes, newest first",
		Tool:     "List recent writes, newest first.",
		ReadOnly: true, Idempotent: true,
		Params: []Param{bNoggin, pLimit, pBy, uFormat}, before: logChecks, run: logVerb},
	{Name: "changes", decode: noggin.DecodeChanges, Flags: []string{"since", "limit"},
		Summary:  "list the writes since a revision, oldest first (--since REV: an answer's revision)",
		Tool:     "Writes since a revision (an answer's), oldest first; limit pages.",
		ReadOnly: true, Idempotent: true,
		Params: []Param{bNoggin, pSince, bare(pLimit), uFormat}, before: logChecks, run: changesVerb},
	{Name: "agents", decode: noggin.DecodeAgents, Flags: []string{"forget"},
		Summary:     "list the agents' cursors (--forget NAME drops one)",
		Tool:        "List the agents' cursors; forget drops one.",
		Destructive: true,
		Params:      []Param{bNoggin, pForget, pIfRevision, uFormat}, before: noPositionals, run: agentsVerb},
	{Name: "undo", decode: noggin.DecodeUndo,
		Summary:     "take back the newest write not yet undone (only if nothing changed since)",
		Tool:        "Take back the newest write, if nothing changed since.",
		Destructive: true,
		Params:      []Param{bNoggin, pIfRevision, uWindow, uMax, uFormat}, before: noPositionals, run: undo, recent: always},
	{Name: "redo", decode: noggin.DecodeUndo,
		Summary:     "apply again what the last undo took back",
		Tool:        "Apply again what the last undo took back.",
		Destructive: true,
		Params:      []Param{bNoggin, pIfRevision, uWindow, uMax, uFormat}, before: noPositionals, run: redo, recent: always},
}

// toolOrder is the order of the MCP tools/list answer (docs/mcp.md).
var toolOrder = []string{"show", "push", "add", "goto", "done", "pop", "edit", "note", "move", "delete",
	"where", "copy", "find", "log", "changes", "agents", "undo", "redo", "providers"}

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
