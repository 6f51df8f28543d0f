package app

import (
	"strings"

	"github.com/noggin-go/noggin/core/noggin"
)

// flagKind is how the grammar treats a flag (docs/cli.md).
type flagKind int

const (
	boolFlag  flagKind = iota // present = true; an inline value is ignored
	valueFlag                 // takes the inline value or the next token
	gotoFlag                  // optional value, taken only when it looks like a path
)

// flagKinds lists every flag the grammar knows. "version" is an addition of
// noggin for Go (the reference rejects it as an unknown flag).
var flagKinds = map[string]flagKind{
	"noggin": valueFlag, "title": valueFlag,
	"before": valueFlag, "after": valueFlag, "into": valueFlag,
	"goto": gotoFlag,
	"json": boolFlag, "with-json": boolFlag, "help": boolFlag,
	"no-children": boolFlag, "with-notes": boolFlag, "with-siblings": boolFlag,
	"with-descendants": boolFlag, "with-all": boolFlag,
	"done": boolFlag, "open": boolFlag, "recursive": boolFlag,
	"force": boolFlag, "close-all": boolFlag,
	"version": boolFlag,
	"under":   valueFlag, "limit": valueFlag, "watch": boolFlag,
	"agent": valueFlag, "forget": valueFlag, "by": valueFlag, "since": valueFlag, "if-revision": valueFlag,
	"window": valueFlag, "max-bytes": valueFlag, "format": valueFlag,
}

// Goto is the parsed optional-value --goto: Self for a bare --goto (or
// --goto=), else Path.
type Goto struct {
	Self bool
	Path string
}

// Flags are the parsed flags. Value flags are nil when absent; a present
// value flag may hold "" (--title=).
type Flags struct {
	Noggin, Title, Before, After, Into *string
	Under, Limit, Agent, Forget, By    *string
	Since                              *string
	IfRevision                         *string
	Window, MaxBytes, Format           *string
	Goto                               *Goto

	JSON, WithJSON, Help, Version                                 bool
	NoChildren, WithNotes, WithSiblings, WithDescendants, WithAll bool
	Done, Open, Recursive, Force, CloseAll                        bool
	Watch                                                         bool
}

// Args is the result of the two-pass grammar.
type Args struct {
	// Verb is the first token not consumed by leading flags; HasVerb is false
	// when there is none.
	Verb    string
	HasVerb bool
	Flags   Flags
	// Positionals are the non-flag tokens after the verb, in order.
	Positionals []string
}

// ParseError is an argument-parse error (unknown flag, missing value).
// Verb/HasVerb tell whether pass 1 had already found the verb.
type ParseError struct {
	Message string
	Verb    string
	HasVerb bool
}

func (e *ParseError) Error() string { return e.Message }

// LooksLikePath is core's heuristic that tells a path from a word
// (docs/cli.md); the grammar uses it for --goto's
// optional value.
func LooksLikePath(s string) bool { return noggin.LooksLikePath(s) }

func requiresValue(name string) *ParseError {
	return &ParseError{Message: "flag --" + name + " requires a value"}
}

// Parse runs the two passes of docs/cli.md over argv (without the
// program name).
func Parse(argv []string) (*Args, *ParseError) {
	a := &Args{}
	// Pass 1: find the verb.
	i := 0
	for i < len(argv) && argv[i] != "--" && (strings.HasPrefix(argv[i], "--") || argv[i] == "-h") {
		tok := argv[i]
		i++
		if tok == "-h" {
			continue
		}
		name, _, hasEq := strings.Cut(tok[2:], "=")
		if hasEq {
			continue
		}
		switch flagKinds[name] {
		case valueFlag:
			if i >= len(argv) || strings.HasPrefix(argv[i], "--") {
				return nil, requiresValue(name)
			}
			i++
		case gotoFlag:
			if i < len(argv) && !strings.HasPrefix(argv[i], "--") && LooksLikePath(argv[i]) {
				i++
			}
		case boolFlag: // takes no value
		}
	}
	rest := argv
	if i < len(argv) {
		v := i
		if argv[i] == "--" { // "noggin -- VERB …": the verb follows the separator
			v = i + 1
		}
		if v < len(argv) {
			a.Verb, a.HasVerb = argv[v], true
			rest = make([]string, 0, len(argv)-1)
			rest = append(append(rest, argv[:v]...), argv[v+1:]...)
		}
	}
	// Pass 2: flags and positionals.
	if err := a.pass2(rest); err != nil {
		err.Verb, err.HasVerb = a.Verb, a.HasVerb
		return nil, err
	}
	return a, nil
}

func (a *Args) pass2(args []string) *ParseError {
	f := &a.Flags
	for i := 0; i < len(args); i++ {
		tok := args[i]
		if tok == "--" { // the end of the options: the rest are words
			a.Positionals = append(a.Positionals, args[i+1:]...)
			return nil
		}
		if tok == "-h" {
			f.Help = true
			continue
		}
		if !strings.HasPrefix(tok, "--") {
			a.Positionals = append(a.Positionals, tok)
			continue
		}
		name, inline, hasEq := strings.Cut(tok[2:], "=")
		kind, known := flagKinds[name]
		if !known {
			return &ParseError{Message: "unknown flag: --" + name}
		}
		switch kind {
		case boolFlag:
			a.setBool(name)
		case gotoFlag:
			switch {
			case hasEq && inline != "":
				f.Goto = &Goto{Path: inline}
			case hasEq:
				f.Goto = &Goto{Self: true}
			case i+1 < len(args) && !strings.HasPrefix(args[i+1], "--") && LooksLikePath(args[i+1]):
				i++
				f.Goto = &Goto{Path: args[i]}
			default:
				f.Goto = &Goto{Self: true}
			}
		case valueFlag:
			v := inline
			if !hasEq {
				if i+1 >= len(args) || strings.HasPrefix(args[i+1], "--") {
					return requiresValue(name)
				}
				i++
				v = args[i]
			}
			a.setValue(name, v)
		}
	}
	return nil
}

func (a *Args) setBool(name string) {
	f := &a.Flags
	switch name {
	case "json":
		f.JSON = true
	case "with-json":
		f.WithJSON = true
	case "help":
		f.Help = true
	case "version":
		f.Version = true
	case "no-children":
		f.NoChildren = true
	case "with-notes":
		f.WithNotes = true
	case "with-siblings":
		f.WithSiblings = true
	case "with-descendants":
		f.WithDescendants = true
	case "with-all":
		f.WithAll = true
	case "done":
		f.Done = true
	case "open":
		f.Open = true
	case "recursive":
		f.Recursive = true
	case "force":
		f.Force = true
	case "close-all":
		f.CloseAll = true
	case "watch":
		f.Watch = true
	}
}

func (a *Args) setValue(name, v string) {
	f := &a.Flags
	p := &v
	switch name {
	case "noggin":
		f.Noggin = p
	case "title":
		f.Title = p
	case "before":
		f.Before = p
	case "after":
		f.After = p
	case "into":
		f.Into = p
	case "under":
		f.Under = p
	case "limit":
		f.Limit = p
	case "agent":
		f.Agent = p
	case "forget":
		f.Forget = p
	case "by":
		f.By = p
	case "since":
		f.Since = p
	case "if-revision":
		f.IfRevision = p
	case "window":
		f.Window = p
	case "max-bytes":
		f.MaxBytes = p
	case "format":
		f.Format = p
	}
}

// wantsJSON reports whether argv asks for JSON output (a token --json or
// --json=…). It is used for parse errors, which happen before the flags are
// known: no value can start with "--", so such a token before "--" is
// always the flag.
func wantsJSON(argv []string) bool {
	for _, t := range argv {
		if t == "--" {
			return false
		}
		if t == "--json" || strings.HasPrefix(t, "--json=") {
			return true
		}
	}
	return false
}
