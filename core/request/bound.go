package request

import (
	"bytes"
	"context"
	"math"
	"strconv"
	"strings"

	"github.com/noggin-go/noggin/core/envelope"
	"github.com/noggin-go/noggin/core/jstext"
	"github.com/noggin-go/noggin/core/noggin"
)

// AgentBudget is noggin-mcp's maxBytes when a call gives none: the
// largest answer a view narrows itself to by default for a model's
// context (docs/mcp.md, "Answer size"). A write on a noggin of 1,000
// roots answers in about 3 kB under it instead of 180 kB.
const AgentBudget = 8000

// MinBudget is the smallest maxBytes (0 aside): room for a view whose
// items are all left out.
const MinBudget = 1024

// Formats of an answer: the envelope, or the text the CLI prints.
const (
	FormatJSON = "json"
	FormatText = "text"
)

// viewOptions are a request's window, maxBytes and format, checked.
type viewOptions struct {
	window, maxBytes int
	format           string
}

func invalidOption(verb, option string, value any, expected string) error {
	return noggin.NewError(noggin.CodeInvalidOption, noggin.F("verb", verb), noggin.F("option", option),
		noggin.F("value", jstext.String(value)), noggin.F("expected", expected))
}

// count reads a whole number given as a JSON number or as digits (the
// CLI); ok false for anything else. More digits than an int holds read as
// math.MaxInt32.
func count(a Arg) (int, bool) {
	switch v := a.Value.(type) {
	case float64:
		if v < 0 || v != math.Trunc(v) {
			return 0, false
		}
		return int(min(v, math.MaxInt32)), true
	case string:
		t := jstext.TrimSpace(v)
		if t == "" || strings.Trim(t, "0123456789") != "" {
			return 0, false
		}
		n, err := strconv.Atoi(t)
		if err != nil {
			n = math.MaxInt32
		}
		return min(n, math.MaxInt32), true
	}
	return 0, false
}

// viewOpts checks the view options of req (absent: none).
func (req *Request) viewOpts() (viewOptions, error) {
	var o viewOptions
	if a := req.Window; a.Given && a.Value != nil {
		n, ok := count(a)
		if !ok || n < 1 {
			return o, invalidOption(req.Verb, "window", a.Value, "a whole number of at least 1")
		}
		o.window = n
	}
	if a := req.MaxBytes; a.Given && a.Value != nil {
		n, ok := count(a)
		if !ok || n != 0 && n < MinBudget {
			return o, invalidOption(req.Verb, "maxBytes", a.Value, "0 (no cap) or a whole number of at least "+strconv.Itoa(MinBudget))
		}
		o.maxBytes = n
	}
	if a := req.Format; a.Given && a.Value != nil {
		f, _ := a.Value.(string)
		if f = jstext.TrimSpace(f); f != FormatJSON && f != FormatText {
			return o, invalidOption(req.Verb, "format", a.Value, "json or text")
		}
		o.format = f
	}
	return o, nil
}

// bound applies the window and the byte budget to the views of a success
// envelope: the window first, then the budget's steps (narrower windows,
// no notes, no items) until the answer in its format fits. size measures
// an answer: the compact envelope, or the text.
func bound(env envelope.Envelope, o viewOptions, size func(envelope.Envelope) int) envelope.Envelope {
	if c, ok := env.Data.(*noggin.CopyResult); ok && c != nil && o.maxBytes > 0 && size(env) > o.maxBytes {
		env.Data = &noggin.CopyResult{Copied: c.Copied, Narrowed: noggin.NarrowMapping}
		return env
	}
	if !env.OK() || !noggin.HasViews(env.Data) || o.window == 0 && o.maxBytes == 0 {
		return env
	}
	if o.window > 0 {
		env.Data = noggin.MapViews(env.Data, func(v *noggin.View) *noggin.View { return v.Windowed(o.window) })
	}
	if o.maxBytes == 0 || size(env) <= o.maxBytes {
		return env
	}
	full := env.Data
	narrow := func(step string, f func(*noggin.View) *noggin.View) bool {
		env.Data = noggin.MapViews(env.Data, func(v *noggin.View) *noggin.View {
			v = f(v)
			v.Narrowed = step
			return v
		})
		return size(env) <= o.maxBytes
	}
	for _, w := range noggin.NarrowWindows {
		if o.window != 0 && w >= o.window {
			continue
		}
		env.Data = full
		if narrow(noggin.NarrowWindow, func(v *noggin.View) *noggin.View { return v.Windowed(w) }) {
			return env
		}
	}
	if narrow(noggin.NarrowNotes, (*noggin.View).WithoutNotes) {
		return env
	}
	narrow(noggin.NarrowItems, (*noggin.View).WithoutItems)
	return env
}

// compactSize is the length of env's compact form (what MCP carries).
func compactSize(env envelope.Envelope) int { return len(env.Compact()) }

// Text is the answer of a success as the CLI prints it for a person: the
// verb's human output (nil for an error envelope).
func (r *Runner) Text(ctx context.Context, req *Request, res Result) []byte {
	env := res.Envelope
	if !env.OK() {
		return nil
	}
	var b bytes.Buffer
	data := env.Data
	if data == nil {
		data, _ = DecodeData(req.Verb, nil) // the verb's null result
	}
	h := &noggin.Human{B: &b, Verb: req.Verb, WithNotes: req.WithNotes.truthy(), From: res.From, To: res.To,
		TreeEmpty: func() bool { return r.treeEmpty(ctx, req, res) }}
	if data != nil {
		data.Human(h)
	}
	return b.Bytes()
}

// treeEmpty reports whether a delete left no item at all (it printed no
// view because nothing is active): from the store for a local noggin; a
// remote one is asked whether it has a first root.
func (r *Runner) treeEmpty(ctx context.Context, req *Request, res Result) bool {
	if res.Store != nil {
		doc, err := res.Store.Load(ctx)
		return err == nil && len(doc.Items) == 0
	}
	probe := r.Run(ctx, &Request{Verb: "show", Location: req.Location, Path: String("/1")})
	return probe.Envelope.Err != nil && probe.Envelope.Err.Code == noggin.CodePathNotFound
}

// takesBudget reports whether verb takes maxBytes.
func takesBudget(verb string) bool {
	v, ok := verbs[verb]
	return ok && v.Takes("maxBytes")
}

// Takes reports whether the verb takes the argument name (an MCP
// argument: "maxBytes", "window").
func (v *Verb) Takes(name string) bool { return find(v.Params, name) != nil }

// Form is the answer form req asks for: FormatJSON, FormatText, or ""
// when it gives none or one Run refuses (invalid-option).
func (req *Request) Form() string {
	if o, err := req.viewOpts(); err == nil {
		return o.format
	}
	return ""
}
