package noggin

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Error codes (the stable strings of docs/envelope.md). Codes are additive.
const (
	CodeNogginError       = "noggin-error"
	CodeNoActiveItem      = "no-active-item"
	CodeNoLocation        = "no-location"
	CodeNoScheme          = "no-scheme"
	CodeNoProvider        = "no-provider"
	CodePathNotFound      = "path-not-found"
	CodePathRequired      = "path-required"
	CodeCycle             = "cycle"
	CodePlacementMissing  = "placement-missing"
	CodePlacementInvalid  = "placement-invalid"
	CodeTitleRequired     = "title-required"
	CodeTextRequired      = "text-required"
	CodeNothingToEdit     = "nothing-to-edit"
	CodeOptionMisused     = "option-misused"
	CodeGotoUnsupported   = "goto-unsupported"
	CodeGotoBaseMissing   = "goto-base-missing"
	CodeGotoPathRequired  = "goto-path-required"
	CodeGotoUnresolved    = "goto-unresolved"
	CodeHasDescendants    = "has-descendants"
	CodeOpenDescendants   = "open-descendants"
	CodePopNoPath         = "pop-no-path"
	CodeInvalidNote       = "invalid-note"
	CodeInvalidOp         = "invalid-op"
	CodeInvalidDocument   = "invalid-document"
	CodeUnsupportedSchema = "unsupported-schema"
	CodeLockTimeout       = "lock-timeout"
	CodeIO                = "io"
	CodeSourceRequired    = "source-required"
	CodeDestRequired      = "dest-required"
	CodeUsage             = "usage"
	CodeDisposed          = "disposed"
	CodeReadOnly          = "read-only"
	// CodeLocationRefused is new in noggin for Go: a server refused a location
	// outside its root directory (exit 2, data {location, detail}).
	CodeLocationRefused = "location-refused"
	// CodeUnknownArgument is new in noggin for Go: a structured call (MCP
	// tool arguments, RPC Call) named an argument the verb does not take
	// (exit 2, data {verb, argument, known}).
	CodeUnknownArgument = "unknown-argument"
	// CodeCancelled is new in noggin for Go: the caller went away (Ctrl-C,
	// a cancelled MCP request, a disconnected RPC client) before the verb
	// finished; nothing was written (exit 130, as after SIGINT; data
	// {reason}: "canceled" or "deadline exceeded").
	CodeCancelled = "cancelled"
	// CodeUnavailable is new in noggin for Go: a remote noggin's server
	// could not be reached or did not answer as a noggin server does (down,
	// unreachable, TLS failure, timeout, an incompatible version); exit 1,
	// data {server, detail}.
	CodeUnavailable = "unavailable"
	// CodeUnauthenticated is new in noggin for Go: a remote noggin's server
	// wants a bearer token (noggin login, or $NOGGIN_SERVER with
	// $NOGGIN_TOKEN) and got none or another one;
	// exit 1, data {server}.
	CodeUnauthenticated = "unauthenticated"
	// CodeQueryRequired is new in noggin for Go: find was given no query
	// words (exit 2).
	CodeQueryRequired = "query-required"
	// CodeInvalidLimit is new in noggin for Go: a limit (find, log) that is
	// not a whole number of at least 1 (exit 2, data {limit}).
	CodeInvalidLimit = "invalid-limit"
	// CodeUndoConflict is new in noggin for Go: the noggin is no longer in
	// the state the write to undo (or redo) left it in — it was changed
	// outside noggin's history, e.g. by the JavaScript tool or by hand —
	// so nothing was changed (exit 1, data {seq, write, time}).
	CodeUndoConflict = "undo-conflict"
	// CodeNothingToUndo is new in noggin for Go: the history holds no
	// write left to take back (exit 1, data {reason}: "empty", "missing"
	// or "unreadable").
	CodeNothingToUndo = "nothing-to-undo"
	// CodeNothingToRedo is new in noggin for Go: no undo to take back since
	// the last write (exit 1).
	CodeNothingToRedo = "nothing-to-redo"
	// CodeHistoryUnavailable is new in noggin for Go: the noggin's history
	// could not be read (exit 1, data {detail}); the noggin itself works.
	CodeHistoryUnavailable = "history-unavailable"
	// CodeLockLost is new in noggin for Go: while a write held the noggin's
	// lock, another process took it (the JavaScript tool takes a lock
	// older than 30 s); nothing was written (exit 1, data {path}).
	CodeLockLost = "lock-lost"
	// CodeTooLarge is new in noggin for Go: a text or a request is over
	// the size noggin accepts; nothing was written (exit 2, data {field,
	// size, limit}).
	CodeTooLarge = "too-large"
	// CodeReplyLost is new in noggin for Go: a retried request was applied
	// once already, but its answer was not recorded; it was not applied
	// again (exit 1).
	CodeReplyLost = "reply-lost"
	// CodeRequestIDReused is new in noggin for Go: a request id the noggin
	// has recorded for another request came with this one; nothing was
	// written (exit 2, data {requestId}). A retry sends the same request.
	CodeRequestIDReused = "request-id-reused"
	// CodeInvalidArgument is new in noggin for Go: a structured call (MCP
	// tool arguments, RPC Call) gave an argument a value of another type
	// than the one its schema declares (exit 2, data {verb, argument,
	// expected, got}); the original converted it silently.
	CodeInvalidArgument = "invalid-argument"
	// CodeInvalidAgent is new in noggin for Go: an agent name (CLI --agent,
	// $NOGGIN_AGENT, noggin-mcp --agent, an RPC request's agent) that is not
	// 1 to 64 letters, digits and ".-_", starting with a letter or digit
	// (exit 2, data {agent}).
	CodeInvalidAgent = "invalid-agent"
	// CodeUnknownAgent is new in noggin for Go: agents --forget named an
	// agent the noggin has no cursor for (exit 1, data {agent}).
	CodeUnknownAgent = "unknown-agent"
	// CodeStaleRevision is new in noggin for Go: a write given a revision
	// (--if-revision, ifRevision) found the noggin changed since; nothing
	// was written (exit 1, data {expected, revision}: the current one).
	CodeStaleRevision = "stale-revision"
	// CodeInvalidOption is new in noggin for Go: a view option (window,
	// maxBytes, format) with a value it does not take (exit 2, data
	// {verb, option, value, expected}).
	CodeInvalidOption = "invalid-option"
	// CodeRevisionRequired is new in noggin for Go: changes without the
	// revision to list the changes since (exit 2).
	CodeRevisionRequired = "revision-required"
	// CodeRevisionUnknown is new in noggin for Go: changes since a
	// revision the noggin's history cannot account for — older than the
	// kept history, never this noggin's, or followed by a write of a tool
	// that keeps no history (the original, an editor); the caller reads
	// the view again (exit 1, data {since, revision}: the current one).
	CodeRevisionUnknown = "revision-unknown"
)

// Error is the one error type of noggin. Message is the catalog wording
// without the "<verb>: " prefix; MessageFor adds the prefix.
type Error struct {
	Code     string
	ExitCode int
	Message  string
	// Data are the structured fields, in emission order.
	Data []Field
	// Literal marks a message that is complete as is (usage errors): no
	// "<verb>: " prefix is ever added.
	Literal bool
}

// Error implements error with the unprefixed message.
func (e *Error) Error() string { return e.Message }

// Get returns the value of a data field, or nil.
func (e *Error) Get(name string) any {
	for _, f := range e.Data {
		if f.Name == name {
			return f.Value
		}
	}
	return nil
}

// MessageFor renders the message as every surface shows it: prefixed with
// "<verb>: " where verb is data.verb if present, else the surface verb
// (no prefix if neither, or if the message is literal).
func (e *Error) MessageFor(verb string) string {
	if e.Literal {
		return e.Message
	}
	if v, ok := e.Get("verb").(string); ok && v != "" {
		verb = v
	}
	if verb == "" {
		return e.Message
	}
	return verb + ": " + e.Message
}

// F is shorthand for a Field.
func F(name string, value any) Field { return Field{Name: name, Value: value} }

// exitCodes maps each code to its exit code.
var exitCodes = map[string]int{
	CodeNogginError: 1, CodeNoActiveItem: 1, CodeNoLocation: 2, CodeNoScheme: 2,
	CodeNoProvider: 2, CodePathNotFound: 1, CodePathRequired: 2, CodeCycle: 1,
	CodePlacementMissing: 2, CodePlacementInvalid: 2, CodeTitleRequired: 2,
	CodeTextRequired: 2, CodeNothingToEdit: 2, CodeOptionMisused: 2,
	CodeGotoUnsupported: 2, CodeGotoBaseMissing: 1, CodeGotoPathRequired: 1,
	CodeGotoUnresolved: 1, CodeHasDescendants: 1, CodeOpenDescendants: 1,
	CodePopNoPath: 2, CodeInvalidNote: 2, CodeInvalidOp: 2, CodeInvalidDocument: 2,
	CodeUnsupportedSchema: 2, CodeLockTimeout: 1, CodeIO: 2, CodeSourceRequired: 2,
	CodeDestRequired: 2, CodeUsage: 2, CodeDisposed: 2, CodeReadOnly: 2,
	CodeLocationRefused: 2, CodeUnknownArgument: 2, CodeCancelled: 130,
	CodeUnavailable: 1, CodeUnauthenticated: 1, CodeQueryRequired: 2, CodeInvalidLimit: 2,
	CodeUndoConflict: 1, CodeNothingToUndo: 1, CodeNothingToRedo: 1, CodeHistoryUnavailable: 1,
	CodeLockLost: 1, CodeTooLarge: 2, CodeReplyLost: 1, CodeInvalidArgument: 2, CodeRequestIDReused: 2,
	CodeInvalidAgent: 2, CodeUnknownAgent: 1, CodeStaleRevision: 1, CodeInvalidOption: 2,
	CodeRevisionRequired: 2, CodeRevisionUnknown: 1,
}

// Cancelled returns the cancelled error when ctx is done, else nil. Stores
// call it before each step that may wait or write.
func Cancelled(ctx context.Context) error {
	err := ctx.Err()
	if err == nil {
		return nil
	}
	reason := "canceled"
	if errors.Is(err, context.DeadlineExceeded) {
		reason = "deadline exceeded"
	}
	return NewError(CodeCancelled, F("reason", reason))
}

// Codes lists every error code, sorted.
func Codes() []string { return slices.Sorted(maps.Keys(exitCodes)) }

// ExitCodeOf returns the exit code of a code (1 for unknown codes).
func ExitCodeOf(code string) int {
	if c, ok := exitCodes[code]; ok {
		return c
	}
	return 1
}

// NewError builds an Error with the catalog message for code, computed from
// data. It is the only way engine code creates errors.
func NewError(code string, data ...Field) *Error {
	return NewErrorDetail(code, "", data...)
}

// NewErrorDetail is NewError for codes whose wording needs a detail that is
// not part of data: the engine reason of a cycle ("cannot move item next to
// its own descendant"), the option of option-misused ("force" or
// "closeAll"), the absolute file of lock-timeout.
func NewErrorDetail(code, detail string, data ...Field) *Error {
	e := &Error{Code: code, ExitCode: ExitCodeOf(code), Data: data}
	e.Message = catalog(e, detail)
	return e
}

// Errorf builds an Error with an explicit (unprefixed) message, for codes
// whose wording comes from the situation (invalid-document, invalid-op, io).
func Errorf(code string, format string, args ...any) *Error {
	return &Error{Code: code, ExitCode: ExitCodeOf(code), Message: fmt.Sprintf(format, args...)}
}

// With returns a copy of e with extra data fields appended.
func (e *Error) With(data ...Field) *Error {
	c := *e
	c.Data = append(append([]Field(nil), e.Data...), data...)
	return &c
}

// Usage builds a usage error whose message is complete as given
// (code noggin-error unless another is named, e.g. title-required, usage).
func Usage(code string, exitCode int, message string) *Error {
	return &Error{Code: code, ExitCode: exitCode, Message: message, Literal: true}
}

// Wrap turns any error into a noggin *Error: noggin errors are returned as
// they are, anything else becomes noggin-error, exit 1, no data.
func Wrap(err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Code: CodeNogginError, ExitCode: 1, Message: err.Error(), Literal: true}
}

func str(e *Error, name string) string {
	switch v := e.Get(name).(type) {
	case string:
		return v
	case nil:
		return ""
	default:
		return fmt.Sprint(v)
	}
}

// catalog is the one message catalog: the CLI wording of docs/envelope.md,
// without the "<verb>: " prefix.
func catalog(e *Error, detail string) string { //nolint:gocyclo // one case per error code: a table read top to bottom
	switch e.Code {
	case CodeNoActiveItem:
		return "no active item; pass a path"
	case CodeNoLocation:
		return "location required"
	case CodeNoScheme:
		return fmt.Sprintf("location '%s' has no scheme (expected scheme://…)", str(e, "location"))
	case CodeNoProvider:
		return fmt.Sprintf("no provider registered for scheme '%s://'", str(e, "scheme"))
	case CodePathNotFound:
		return str(e, "detail")
	case CodePathRequired:
		return "path required"
	case CodeCycle:
		// The reference tests the title's JavaScript truthiness: any
		// non-empty title (even whitespace) selects the long form.
		if str(e, "placementKind") == "into" && str(e, "title") != "" {
			return fmt.Sprintf("cannot move %s into itself or its subtree (would create a cycle)", str(e, "path"))
		}
		return detail
	case CodePlacementMissing:
		return "choose exactly one of before, after or into (CLI: --before, --after, --into)"
	case CodePlacementInvalid:
		return fmt.Sprintf("unknown placement kind '%s'", str(e, "kind"))
	case CodeTextRequired:
		return "text required"
	case CodeNothingToEdit:
		return "nothing to edit; pass a state or a title (CLI: --done, --open, --title)"
	case CodeOptionMisused:
		if detail == "closeAll" {
			return "closeAll (CLI: --close-all) only applies when closing (state done; CLI: --done)"
		}
		return "force (CLI: --force) only applies when closing (state done; CLI: --done)"
	case CodeGotoUnsupported:
		return "goto is not supported"
	case CodeGotoBaseMissing:
		return "goto has no base item"
	case CodeGotoPathRequired:
		return "goto requires a path"
	case CodeGotoUnresolved:
		return "goto " + str(e, "detail")
	case CodeHasDescendants:
		return fmt.Sprintf("%s has %s descendant(s); pass recursive (CLI: --recursive) to delete the whole subtree", str(e, "path"), str(e, "descendantCount"))
	case CodeOpenDescendants:
		return fmt.Sprintf("%s has %s open descendant(s); pass closeAll to close them too, or force to close %s anyway (CLI: --close-all, --force)", str(e, "path"), str(e, "openCount"), str(e, "title"))
	case CodePopNoPath:
		return "takes no path; pop always operates on the active item"
	case CodeInvalidNote:
		return "invalid note object"
	case CodeUnavailable:
		return "cannot use the noggin server at " + str(e, "server") + ": " + str(e, "detail")
	case CodeUnauthenticated:
		return "the noggin server at " + str(e, "server") + " refused the request: log in with `noggin login " + str(e, "server") + "` (it reads the token from standard input), or set $NOGGIN_SERVER=" + str(e, "server") + " and $NOGGIN_TOKEN"
	case CodeCancelled:
		return "cancelled (" + str(e, "reason") + ") before it finished; nothing was written"
	case CodeLockTimeout:
		return fmt.Sprintf("could not acquire lock on %s within 5000ms", detail)
	case CodeSourceRequired:
		return "source noggin required"
	case CodeDestRequired:
		return "dest noggin required"
	case CodeDisposed:
		return "noggin is disposed"
	case CodeReadOnly:
		if p := str(e, "path"); p != "" {
			return p + " is read-only: you may not write it (" + str(e, "detail") + "); nothing was written"
		}
		return "noggin is read-only"
	case CodeInvalidArgument:
		article := "a"
		if strings.HasPrefix(str(e, "expected"), "integer") {
			article = "an"
		}
		return fmt.Sprintf("argument '%s' must be %s %s, not %s", str(e, "argument"), article, str(e, "expected"), str(e, "got"))
	case CodeReplyLost:
		return "this request was applied once already, but its answer was lost; it was not applied again: look with show or log"
	case CodeInvalidAgent:
		return "agent name '" + str(e, "agent") + "' is not 1 to 64 letters, digits and .-_ starting with a letter or digit"
	case CodeInvalidOption:
		return fmt.Sprintf("%s must be %s, not '%s'", str(e, "option"), str(e, "expected"), str(e, "value"))
	case CodeStaleRevision:
		return "the noggin changed since revision " + str(e, "expected") + " (it is now at " + str(e, "revision") + "); nothing was written: read it again"
	case CodeRevisionRequired:
		return "a revision required: the one to list the changes since (an answer's \"revision\"; CLI --since)"
	case CodeRevisionUnknown:
		return "the history cannot say what changed since revision " + str(e, "since") + " (older than the history kept, not this noggin's, or a tool that keeps no history wrote since): read the noggin again (it is now at " + str(e, "revision") + ")"
	case CodeUnknownAgent:
		return "no agent '" + str(e, "agent") + "' has a cursor in this noggin"
	case CodeRequestIDReused:
		return "request id '" + str(e, "requestId") + "' was used for another request; nothing was written: give each request an id of its own, and a retry the same request"
	case CodeLockLost:
		return "another process took the lock on " + str(e, "path") + " while this write held it (the JavaScript noggin takes a lock older than 30 s); nothing was written; try again"
	case CodeTooLarge:
		return fmt.Sprintf("%s is %s bytes, over the limit of %s bytes; nothing was written", str(e, "field"), str(e, "size"), str(e, "limit"))
	case CodeUnknownArgument:
		if str(e, "known") == "" {
			return fmt.Sprintf("unknown argument '%s'; it takes none", str(e, "argument"))
		}
		return fmt.Sprintf("unknown argument '%s'; it takes: %s", str(e, "argument"), str(e, "known"))
	case CodeLocationRefused:
		return fmt.Sprintf("location '%s' refused: %s", str(e, "location"), str(e, "detail"))
	case CodeQueryRequired:
		return "query required: the words to look for in titles and notes"
	case CodeInvalidLimit:
		return fmt.Sprintf("limit must be a whole number of at least 1, not '%s'", str(e, "limit"))
	case CodeUndoConflict:
		return fmt.Sprintf("the noggin changed since #%s (%s at %s) outside noggin's history (another tool, such as the JavaScript noggin, or an edit by hand); nothing was changed. Check it with show; log lists the history", str(e, "seq"), str(e, "write"), str(e, "time"))
	case CodeNothingToUndo:
		switch str(e, "reason") {
		case "missing":
			return "nothing to undo: this noggin has no history yet (it starts with the next write made by noggin for Go)"
		case "unreadable":
			return "nothing to undo: the noggin's history is damaged; the next write starts it again"
		}
		return "nothing to undo: every write in the history is already undone"
	case CodeNothingToRedo:
		return "nothing to redo: no undo since the last write"
	case CodeHistoryUnavailable:
		return "cannot read the noggin's history: " + str(e, "detail")
	}
	return e.Code
}
