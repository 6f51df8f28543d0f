// Package request is the one place where noggin decides what a verb's
// input means. Every surface decodes its wire format — the CLI's argv, an
// MCP tool call's arguments, an RPC message — into a Request that holds the
// inputs as they were received (strings, JSON values, presence), and Run
// validates them in the documented order, trims with JavaScript semantics,
// opens the noggin, runs the verb and returns the envelope. No surface
// trims, defaults, checks a required field or builds a domain error itself,
// so the same input gives the same envelope and the same file everywhere.
package request

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/noggin-go/noggin/core/envelope"
	"github.com/noggin-go/noggin/core/jstext"
	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/store"
)

// Arg is one argument as a surface received it. Value is a value of the
// JSON model: nil (null), bool, float64, string, []any or map[string]any.
// The zero Arg is an argument that was not given.
type Arg struct {
	Given bool
	Value any
}

// String is a given string argument.
func String(s string) Arg { return Arg{Given: true, Value: s} }

// Flag is a presence flag: given (true) when on, absent when off.
func Flag(on bool) Arg {
	if !on {
		return Arg{}
	}
	return Arg{Given: true, Value: true}
}

// OptString is a string argument that is given when s is not nil.
func OptString(s *string) Arg {
	if s == nil {
		return Arg{}
	}
	return String(*s)
}

// isTrue is `value === true`.
func (a Arg) isTrue() bool { b, ok := a.Value.(bool); return a.Given && ok && b }

// truthy is JavaScript truthiness (an absent argument is falsy).
func (a Arg) truthy() bool { return a.Given && jstext.Truthy(a.Value) }

// text is the string form of a given, non-null argument, else "".
func (a Arg) text() string {
	if !a.Given || a.Value == nil {
		return ""
	}
	return jstext.String(a.Value)
}

// Request is one verb call as a surface received it. Surfaces fill the
// fields their wire format has; the CLI puts its positional words into
// Positionals, the structured surfaces use the named fields.
type Request struct {
	// Verb is the verb name ("push", "show", …).
	Verb string
	// Location is the noggin (CLI --noggin, MCP "noggin", RPC location).
	Location Arg
	// Positionals are the CLI's words after the verb: a path, title words,
	// a path and note words, or copy's two locations, depending on Verb.
	Positionals []string

	Path, Title, Text, State   Arg
	Before, After, Into, Goto  Arg
	Done, Open                 Arg // edit's CLI flags --done and --open
	Force, CloseAll, Recursive Arg
	NoChildren, WithSiblings   Arg
	WithDescendants, WithAll   Arg
	WithNotes                  Arg
	From, To                   Arg // copy's locations
	// Query, Under and Limit are find's words, subtree and cap (Limit is
	// log's too). find's Open and Done are the fields above.
	Query, Under, Limit Arg
	// PlacementKind and Anchor are a placement given as a kind and an
	// anchor (RPC) instead of by Before/After/Into.
	PlacementKind, Anchor Arg
	// Agent names the agent the verb runs for (CLI --agent or
	// $NOGGIN_AGENT, noggin-mcp's connection, an RPC request's agent or
	// Noggin-Agent header): its own cursor instead of the shared active
	// item (noggin.Through). Absent or "": the shared active item.
	Agent Arg
	// Forget is agents' agent whose cursor to drop; By is log's agent
	// whose writes to list.
	Forget, By Arg
	// Since is changes' revision to list the writes after.
	Since Arg
	// IfRevision is the revision the caller saw (CLI --if-revision, the
	// ifRevision argument): the verb fails with stale-revision, writing
	// nothing, unless the noggin is still at it.
	IfRevision Arg
	// Window, MaxBytes and Format are the view options (docs/envelope.md,
	// "Bounded views"): a cap on every row of a view, a byte budget the
	// answer narrows itself to, and the answer's form (json or text).
	Window, MaxBytes, Format Arg
	// ID is a remote client's request id (RPC Run): a write made for it
	// is recorded with its answer, and a retry with the same id gets that
	// answer instead of a second write (noggin.Receipt). Not part of the
	// request's JSON.
	ID string
}

// ValidID reports whether id may be a request id: 1 to 128 letters,
// digits and ".-_:".
func ValidID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for _, c := range []byte(id) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '-' || c == '_' || c == ':') {
			return false
		}
	}
	return true
}

// Opener opens a noggin location for a surface (its store options, cache
// and root) and returns the registered providers.
type Opener interface {
	// Open opens location (already trimmed and non-empty).
	Open(ctx context.Context, location string) (noggin.Store, error)
	// Providers lists the location schemes the surface can open.
	Providers() []noggin.Provider
}

// Lister is an Opener that can name the noggins it serves (a server's
// root directory, a team database).
type Lister interface {
	// List returns the locations of the noggins, sorted, at most max of
	// them; truncated says there were more.
	List(ctx context.Context, max int) (names []string, truncated bool, err error)
}

// Runner runs requests with one engine and one opener.
type Runner struct {
	Engine *noggin.Engine
	Opener Opener
	// DefaultLocation returns the noggin used when a request gives none
	// (the CLI: $NOGGIN, else ~/.noggin.yaml). Nil: a location is required.
	DefaultLocation func() string
	// Remote, if set, runs the requests whose noggin is a remote location
	// (http://HOST:PORT/NAME); without it such a location is no-provider.
	Remote Remote
	// DefaultMaxBytes is the maxBytes of a request that gives none (0:
	// none; noggin-mcp: AgentBudget).
	DefaultMaxBytes int
	// Panicked, if set, is told about a panic that Run turned into a
	// noggin-error envelope (for the surface's log).
	Panicked func(value any, stack []byte)
}

// Result is what Run returns: the envelope, and for surfaces that render
// it themselves (the CLI's human output) the store the verb ran on.
type Result struct {
	Envelope envelope.Envelope
	// Store is the noggin the verb ran on (nil when none was opened or the
	// noggin is remote; copy: the destination).
	Store noggin.Store
	// Source is copy's source noggin.
	Source noggin.Store
	// From and To name copy's noggins as its human output shows them (the
	// stores' descriptions, or the remote locations as given).
	From, To string
	// Text is the answer as the CLI prints it, for a success asked for in
	// format text (nil otherwise).
	Text []byte
	// revision is the noggin's after the verb ("" for none).
	revision string
}

// Run validates req, runs its verb and returns the result envelope. It
// never panics: an unexpected panic becomes a noggin-error envelope
// ("internal error: …", exit 1).
func (r *Runner) Run(ctx context.Context, req *Request) (res Result) {
	defer func() {
		if v := recover(); v != nil {
			if r.Panicked != nil {
				r.Panicked(v, debug.Stack())
			}
			res = Result{Envelope: envelope.Failure(req.Verb, noggin.Usage(noggin.CodeNogginError, 1, "internal error: "+fmt.Sprint(v)))}
		}
	}()
	if name, ok := ctx.Value(agentKey{}).(string); ok && !req.Agent.Given {
		req.Agent = String(name)
	}
	if err := checkSizes(req); err != nil {
		return Result{Envelope: envelope.Failure(req.Verb, err)}
	}
	if r.DefaultMaxBytes > 0 && !req.MaxBytes.Given && takesBudget(req.Verb) {
		req.MaxBytes = Arg{Given: true, Value: float64(r.DefaultMaxBytes)}
	}
	opts, err := req.viewOpts()
	if err != nil {
		return Result{Envelope: envelope.Failure(req.Verb, err)}
	}
	if env, remote := r.runRemote(ctx, req); remote {
		res = Result{Envelope: env}
		if req.Verb == "copy" {
			from, to := req.copyLocations()
			res.From, res.To = jstext.TrimSpace(from.text()), jstext.TrimSpace(to.text())
		}
		if opts.format == FormatText {
			res.Text = r.Text(ctx, req, res)
		}
		return res
	}
	var receipt *noggin.Receipt
	if req.ID != "" {
		receipt = noggin.NewReceipt(req.ID, req.Fingerprint())
		ctx = noggin.WithReceipt(ctx, receipt)
		defer receipt.Abort() // a panic: the write writes nothing
	}
	data, err := r.run(ctx, req, &res)
	var replied *noggin.Replied
	if errors.As(err, &replied) {
		return Result{Envelope: repliedEnvelope(req.Verb, replied)}
	}
	res.Envelope = envelope.Result(req.Verb, data, err)
	res.Envelope.Revision = res.revision
	size := compactSize
	if opts.format == FormatText {
		size = func(env envelope.Envelope) int { return len(r.Text(ctx, req, Result{Envelope: env, Store: res.Store})) }
	}
	res.Envelope = bound(res.Envelope, opts, size)
	if opts.format == FormatText {
		res.Text = r.Text(ctx, req, res)
	}
	if receipt != nil {
		if err := receipt.Commit(res.Envelope.Text()); err != nil {
			res = Result{Envelope: envelope.Failure(req.Verb, err)}
		}
	}
	return res
}

// repliedEnvelope is the first answer to a request whose write the noggin
// has already recorded.
func repliedEnvelope(verb string, r *noggin.Replied) envelope.Envelope {
	env, err := DecodeEnvelope(r.Reply)
	if r.Reply == nil || err != nil {
		return envelope.Failure(verb, noggin.NewError(noggin.CodeReplyLost))
	}
	return env
}

// MaxText is the longest text noggin takes as one argument (a title, a
// note, a path, a location…), in bytes of UTF-8: 4 MiB, room for a large
// log pasted into a note. Longer is too-large (exit 2) on every surface,
// before anything is read or written.
const MaxText = 4 << 20

// MaxRequest is the request size every transport carries at least (MCP
// over HTTP, RPC): MaxText escaped as JSON at its longest (\u0000 for a
// byte: 6×), with room for the rest of a request.
const MaxRequest = 32 << 20

// checkSizes refuses an argument longer than MaxText, naming it (as the
// wire form names it).
func checkSizes(req *Request) error {
	tooLarge := func(name string, n int) error {
		return noggin.NewError(noggin.CodeTooLarge, noggin.F("verb", req.Verb), noggin.F("field", name), noggin.F("size", n), noggin.F("limit", MaxText))
	}
	for _, a := range wireArgs {
		if n := len(a.field(req).text()); n > MaxText {
			return tooLarge(a.name, n)
		}
	}
	n := 0
	for _, p := range req.Positionals {
		n += len(p) + 1
	}
	if n-1 > MaxText {
		return tooLarge("arguments", n-1)
	}
	return nil
}

// UnknownVerb is the one error of a verb no surface knows (a CLI word, an
// MCP tool name, an RPC Call verb), named as the caller gave it.
func UnknownVerb(given string) error {
	return noggin.Usage(noggin.CodeNogginError, 2, "unknown verb '"+given+"' (the verbs: "+strings.Join(Verbs, ", ")+"; try 'help')")
}

// usage is an argument error whose message is complete as given.
func usage(msg string) error { return noggin.Usage(noggin.CodeNogginError, 2, msg) }

func (r *Runner) run(ctx context.Context, req *Request, res *Result) (noggin.Result, error) {
	v, ok := verbs[req.Verb]
	if !ok {
		return nil, UnknownVerb(req.Verb)
	}
	agent, err := req.agent()
	if err != nil {
		return nil, err
	}
	// (1) the checks that need no noggin.
	if v.before != nil {
		if err := v.before(req); err != nil {
			return nil, err
		}
	}
	if v.run == nil { // copy, providers: no noggin of their own
		return v.global(ctx, r, req, res)
	}
	// (2) open (and load) the noggin: a broken file is reported before
	// any check that looks at the tree.
	// if-revision is checked on the loaded noggin: the last commit.
	recent := v.recent != nil && v.recent(req) && req.IfRevision.text() == ""
	st, loaded, err := r.open(ctx, req.Location, v.lazy != nil && v.lazy(req), recent)
	if err != nil {
		return nil, err
	}
	res.Store = st
	doc, _ := loaded.Load(ctx) // the pinned document
	rec := &recorder{Store: loaded, doc: doc}
	verbStore := noggin.Store(rec)
	if rev := req.IfRevision.text(); rev != "" {
		if cur := doc.Revision(); cur != "" && cur != rev {
			return nil, noggin.NewError(noggin.CodeStaleRevision, noggin.F("expected", rev), noggin.F("revision", cur))
		}
		verbStore = noggin.Expecting(verbStore, rev)
	}
	// (3) the verb's own checks and the verb, on the document just loaded.
	principal, _ := ctx.Value(principalKey{}).(string)
	data, err := v.run(ctx, r.Engine, noggin.Through(noggin.Signed(verbStore, principal), agent), req)
	if err == nil {
		res.revision = rec.doc.Revision()
	}
	return data, err
}

type agentKey struct{}

type principalKey struct{}

// WithPrincipal records who a server authenticated the caller of the
// requests run with ctx as: their writes' history entries name it.
func WithPrincipal(ctx context.Context, principal string) context.Context {
	return context.WithValue(ctx, principalKey{}, principal)
}

// WithAgent makes name the agent of the requests run with ctx that name
// none themselves: a surface's agent of a connection (noggin-mcp's, an
// RPC call's Noggin-Agent header). Core checks the name as any other.
func WithAgent(ctx context.Context, name string) context.Context {
	if name == "" {
		return ctx
	}
	return context.WithValue(ctx, agentKey{}, name)
}

// agent is the request's agent name ("" for none), invalid-agent for a
// value that cannot name one.
func (req *Request) agent() (string, error) {
	a := req.Agent
	if !a.Given || a.Value == nil {
		return "", nil
	}
	name, ok := a.Value.(string)
	if !ok || name != "" && !noggin.ValidAgent(name) {
		return "", noggin.NewError(noggin.CodeInvalidAgent, noggin.F("agent", a.text()))
	}
	return name, nil
}

// recorder is a verb's store that keeps the last document it handed out:
// the one the verb's answer is about, whose revision the envelope names.
type recorder struct {
	noggin.Store
	doc *noggin.Document
}

func (r *recorder) Load(ctx context.Context) (*noggin.Document, error) {
	doc, err := r.Store.Load(ctx)
	if err == nil {
		r.doc = doc
	}
	return doc, err
}

func (r *recorder) Update(ctx context.Context, w noggin.Write) (*noggin.Document, error) {
	doc, err := r.Store.Update(ctx, w)
	if err == nil {
		r.doc = doc
	}
	return doc, err
}

// location is the trimmed location of a, or the default.
func (r *Runner) location(a Arg) string {
	loc := ""
	if s, ok := a.Value.(string); a.Given && ok {
		loc = jstext.TrimSpace(s)
	}
	if loc == "" && r.DefaultLocation != nil {
		loc = r.DefaultLocation()
	}
	return loc
}

// open opens and loads a location (no-location when there is none). It
// returns the store and the same store pinned to the loaded document,
// which the verb runs on so that the file is looked at once per call.
// lazy loads it lazily where the store can (see store.LazyLoader), recent
// as last known where the store can (store.RecentLoader).
func (r *Runner) open(ctx context.Context, a Arg, lazy, recent bool) (st, loaded noggin.Store, err error) {
	loc := r.location(a)
	if loc == "" {
		return nil, nil, noggin.NewError(noggin.CodeNoLocation)
	}
	if st, err = r.Opener.Open(ctx, loc); err != nil {
		return nil, nil, err
	}
	var doc *noggin.Document
	lz, isLazy := st.(store.LazyLoader)
	rl, isRecent := st.(store.RecentLoader)
	switch {
	case lazy && isLazy:
		doc, err = lz.LoadLazy(ctx)
	case recent && isRecent:
		doc, err = rl.LoadRecent(ctx)
	default:
		doc, err = st.Load(ctx)
	}
	if err != nil {
		return nil, nil, err
	}
	return st, store.Pinned(st, doc), nil
}

// path is the verb's target path as given: the Path argument if it is
// truthy, else the first positional; "" means the active item. Not trimmed.
func (req *Request) path() string {
	if req.Path.truthy() {
		return jstext.String(req.Path.Value)
	}
	if len(req.Positionals) > 0 {
		return req.Positionals[0]
	}
	return ""
}

// trimmedPath is path trimmed (goto and delete).
func (req *Request) trimmedPath() string { return jstext.TrimSpace(req.path()) }

// title is push's and add's title: the Title argument's string form when it
// is given and not empty or null, else the positional words joined by one
// space; trimmed.
func (req *Request) title() string {
	t := req.Title.text()
	if t == "" {
		t = strings.Join(req.Positionals, " ")
	}
	return jstext.TrimSpace(t)
}

func needTitle(req *Request) error {
	if req.title() == "" {
		return noggin.Usage(noggin.CodeTitleRequired, 2, req.Verb+": title required (CLI: --title or words)")
	}
	return nil
}

func atMostOnePath(req *Request) error {
	if len(req.Positionals) > 1 {
		return usage(req.Verb + ": accepts at most one path")
	}
	return nil
}

func needGotoPath(req *Request) error {
	if req.trimmedPath() == "" {
		return noggin.NewError(noggin.CodePathRequired, noggin.F("verb", "goto"))
	}
	return nil
}

func popChecks(req *Request) error {
	if len(req.Positionals) > 0 || req.Path.Given {
		return noggin.NewError(noggin.CodePopNoPath, noggin.F("verb", "pop"))
	}
	if req.Goto.Given {
		return noggin.NewError(noggin.CodeGotoUnsupported, noggin.F("verb", "pop"))
	}
	return nil
}

func editChecks(req *Request) error {
	if req.Done.truthy() && req.Open.truthy() {
		return usage("edit: --done and --open are mutually exclusive")
	}
	return atMostOnePath(req)
}

func deleteChecks(req *Request) error {
	switch {
	case req.Goto.Given:
		return noggin.NewError(noggin.CodeGotoUnsupported, noggin.F("verb", "delete"))
	case req.trimmedPath() == "":
		return noggin.NewError(noggin.CodePathRequired, noggin.F("verb", "delete"))
	case len(req.Positionals) > 1:
		return usage("delete: accepts at most one path")
	}
	return nil
}

// gotoOpt maps the goto argument: absent → none; true → the verb's target;
// a falsy value (false, null, "", 0) → present but falsy
// (goto-path-required); anything else → its string form as a path.
func (req *Request) gotoOpt() noggin.Goto {
	a := req.Goto
	switch {
	case !a.Given:
		return noggin.Goto{}
	case a.isTrue():
		return noggin.Goto{Present: true, Self: true}
	case !a.truthy():
		return noggin.Goto{Present: true}
	}
	return noggin.Goto{Present: true, Path: jstext.String(a.Value)}
}

// placement maps before/after/into: the kinds whose value is truthy (an
// empty anchor counts as absent); more than one is an error; none is nil.
func (req *Request) placement() (*noggin.Placement, error) {
	var p *noggin.Placement
	for _, c := range [...]struct {
		kind string
		a    Arg
	}{{"before", req.Before}, {"after", req.After}, {"into", req.Into}} {
		if !c.a.truthy() {
			continue
		}
		if p != nil {
			return nil, usage(req.Verb + ": choose at most one of before, after and into (CLI: --before, --after, --into)")
		}
		p = &noggin.Placement{Kind: c.kind, Anchor: jstext.String(c.a.Value)}
	}
	if p == nil && req.Anchor.truthy() {
		// The engine checks the kind (placement-missing, placement-invalid).
		p = &noggin.Placement{Kind: req.PlacementKind.text(), Anchor: jstext.String(req.Anchor.Value)}
	}
	return p, nil
}

func view(v *noggin.View, err error) (noggin.Result, error) {
	if err != nil {
		return nil, err
	}
	return v, nil // a nil view is null data
}

func push(ctx context.Context, e *noggin.Engine, st noggin.Store, req *Request) (noggin.Result, error) {
	return view(e.Push(ctx, st, noggin.PushOpts{Title: req.title()}))
}

func add(ctx context.Context, e *noggin.Engine, st noggin.Store, req *Request) (noggin.Result, error) {
	p, err := req.placement()
	if err != nil {
		return nil, err
	}
	return view(e.Add(ctx, st, noggin.AddOpts{Title: req.title(), Placement: p, Goto: req.gotoOpt()}))
}

func move(ctx context.Context, e *noggin.Engine, st noggin.Store, req *Request) (noggin.Result, error) {
	p, err := req.placement()
	if err != nil {
		return nil, err
	}
	return view(e.Move(ctx, st, noggin.MoveOpts{Path: req.path(), Placement: p, Goto: req.gotoOpt()}))
}

func gotoVerb(ctx context.Context, e *noggin.Engine, st noggin.Store, req *Request) (noggin.Result, error) {
	return view(e.Goto(ctx, st, noggin.GotoOpts{Path: req.trimmedPath()}))
}

func done(ctx context.Context, e *noggin.Engine, st noggin.Store, req *Request) (noggin.Result, error) {
	return view(e.Done(ctx, st, noggin.DoneOpts{Path: req.path(), Force: req.Force.isTrue(),
		CloseAll: req.CloseAll.isTrue(), Goto: req.gotoOpt()}))
}

func pop(ctx context.Context, e *noggin.Engine, st noggin.Store, req *Request) (noggin.Result, error) {
	return view(e.Pop(ctx, st, noggin.PopOpts{Force: req.Force.isTrue(), CloseAll: req.CloseAll.isTrue()}))
}

// edit: the state comes from --done/--open or from state ("done"/"open");
// the title counts when it is a string with non-blank content (the engine
// trims it). A state that is neither, beside a title, is an error.
func edit(ctx context.Context, e *noggin.Engine, st noggin.Store, req *Request) (noggin.Result, error) {
	o := noggin.EditOpts{Path: req.path(), Force: req.Force.isTrue(), CloseAll: req.CloseAll.isTrue(), Goto: req.gotoOpt()}
	state, _ := req.State.Value.(string)
	switch {
	case req.Done.truthy() || req.State.Given && state == "done":
		o.Done = ptr(true)
	case req.Open.truthy() || req.State.Given && state == "open":
		o.Done = ptr(false)
	}
	if t, ok := req.Title.Value.(string); req.Title.Given && ok {
		o.Title = &t
	}
	if req.State.Given && o.Done == nil && o.Title != nil && jstext.TrimSpace(*o.Title) != "" {
		return nil, noggin.Usage(noggin.CodeNogginError, 2, `edit: state must be "done" or "open"`)
	}
	return view(e.Edit(ctx, st, o))
}

func ptr[T any](v T) *T { return &v }

// always: the verb reads, changes and shows few items (the target, its
// ancestors and their rows, the items it closes or moves), decoding each
// as it reads it (see noggin.Undecoded).
func always(*Request) bool { return true }

// showsFew: a show without goto (a read only) and without every
// descendant shows the target's ancestors and their rows (Engine.Show).
func showsFew(req *Request) bool {
	return !req.Goto.Given && !req.WithDescendants.isTrue() && !req.WithAll.isTrue()
}

func show(ctx context.Context, e *noggin.Engine, st noggin.Store, req *Request) (noggin.Result, error) {
	withDesc := req.WithDescendants.isTrue() || req.WithAll.isTrue()
	if withDesc && req.NoChildren.isTrue() {
		return nil, usage("show: withDescendants (or withAll) and noChildren exclude each other (CLI: --with-descendants, --with-all, --no-children)")
	}
	return view(e.Show(ctx, st, noggin.ShowOpts{
		Path:            req.path(),
		NoChildren:      req.NoChildren.isTrue(),
		WithSiblings:    req.WithSiblings.isTrue() || req.WithAll.isTrue(),
		WithDescendants: withDesc,
		Goto:            req.gotoOpt(),
	}))
}

// note: with positional words, a first word that looks like a path is the
// path and the rest is the text; the engine trims the text.
func note(ctx context.Context, e *noggin.Engine, st noggin.Store, req *Request) (noggin.Result, error) {
	path := ""
	if req.Path.truthy() {
		path = jstext.String(req.Path.Value)
	}
	words := req.Positionals
	if !req.Path.Given && len(words) > 0 && (noggin.LooksLikePath(words[0]) || mayNameKey(req) && namesItem(ctx, st, words[0])) {
		path, words = words[0], words[1:]
	}
	text := req.Text.text()
	if !req.Text.Given || req.Text.Value == nil {
		text = strings.Join(words, " ")
	}
	return view(e.Note(ctx, st, noggin.NoteOpts{Path: path, Text: text, Goto: req.gotoOpt()}))
}

// mayNameKey reports whether note's first positional word is a key form
// ("@…") that is its path only if the noggin has that item.
func mayNameKey(req *Request) bool {
	return !req.Path.Given && len(req.Positionals) > 0 && strings.HasPrefix(req.Positionals[0], "@")
}

// noteNamesNoKey: a note reads the loaded noggin only to tell whether its
// first word names an item's key.
func noteNamesNoKey(req *Request) bool { return !mayNameKey(req) }

// namesItem reports whether word is the key form of an item of the noggin.
func namesItem(ctx context.Context, st noggin.Store, word string) bool {
	doc, err := st.Load(ctx) // the pinned document: no second read
	return err == nil && noggin.NamesItem(doc, word)
}

func deleteVerb(ctx context.Context, e *noggin.Engine, st noggin.Store, req *Request) (noggin.Result, error) {
	r, err := e.Delete(ctx, st, noggin.DeleteOpts{Path: req.trimmedPath(), Recursive: req.Recursive.isTrue()})
	if err != nil {
		return nil, err
	}
	return r, nil
}

func where(_ context.Context, _ *noggin.Engine, st noggin.Store, req *Request) (noggin.Result, error) {
	if agent, _ := req.agent(); agent != "" { // checked before
		return noggin.AgentLocation{Location: st.Describe(), Agent: agent}, nil
	}
	return noggin.Location(st.Describe()), nil
}

func agentsVerb(ctx context.Context, e *noggin.Engine, st noggin.Store, req *Request) (noggin.Result, error) {
	forget := ""
	if req.Forget.Given && req.Forget.Value != nil {
		forget = req.Forget.text()
		if !noggin.ValidAgent(forget) {
			return nil, noggin.NewError(noggin.CodeInvalidAgent, noggin.F("agent", forget))
		}
	}
	r, err := e.Agents(ctx, st, noggin.AgentsOpts{Forget: forget})
	if err != nil {
		return nil, err
	}
	return r, nil
}

// copyLocations are copy's source and destination: the From/To arguments,
// else the first two positionals.
func (req *Request) copyLocations() (from, to Arg) {
	from, to = req.From, req.To
	if len(req.Positionals) > 0 && !from.Given {
		from = String(req.Positionals[0])
	}
	if len(req.Positionals) > 1 && !to.Given {
		to = String(req.Positionals[1])
	}
	return from, to
}

func copyChecks(req *Request) error {
	from, to := req.copyLocations()
	if jstext.TrimSpace(from.text()) == "" || !isString(from) {
		return noggin.NewError(noggin.CodeSourceRequired, noggin.F("verb", "copy"))
	}
	if jstext.TrimSpace(to.text()) == "" || !isString(to) {
		return noggin.NewError(noggin.CodeDestRequired, noggin.F("verb", "copy"))
	}
	return nil
}

func isString(a Arg) bool { _, ok := a.Value.(string); return ok }

func copyVerb(ctx context.Context, r *Runner, req *Request, res *Result) (noggin.Result, error) {
	from, to := req.copyLocations()
	src, pinnedSrc, err := r.openCopy(ctx, from)
	if err != nil {
		return nil, err
	}
	dst, pinnedDst, err := r.openCopy(ctx, to)
	if err != nil {
		return nil, err
	}
	res.Source, res.Store = src, dst
	res.From, res.To = src.Describe(), dst.Describe()
	c, err := r.Engine.Copy(ctx, pinnedSrc, pinnedDst)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// openCopy opens one side of copy: no default location applies.
func (r *Runner) openCopy(ctx context.Context, a Arg) (st, loaded noggin.Store, err error) {
	c := *r
	c.DefaultLocation = nil
	return c.open(ctx, a, false, false)
}

func providers(_ context.Context, r *Runner, _ *Request, _ *Result) (noggin.Result, error) {
	ps := r.Opener.Providers()
	if r.Remote != nil {
		for _, s := range remoteSchemes {
			ps = append(ps, noggin.Provider{Scheme: s})
		}
	}
	return noggin.Providers(ps), nil
}

// query is find's query: the Query argument's string form when it is given
// and not empty or null, else the positional words joined by one space.
func (req *Request) query() string {
	q := req.Query.text()
	if q == "" {
		q = strings.Join(req.Positionals, " ")
	}
	return q
}

// limit is the Limit argument: 0 when absent; a whole number of at least 1
// (a JSON number, or digits from the CLI), else invalid-limit.
func (req *Request) limit() (int, error) {
	a := req.Limit
	if !a.Given {
		return 0, nil
	}
	n, ok := count(a)
	if !ok || n < 1 {
		return 0, noggin.NewError(noggin.CodeInvalidLimit, noggin.F("verb", req.Verb), noggin.F("limit", jstext.String(a.Value)))
	}
	return n, nil
}

func findChecks(req *Request) error {
	if jstext.TrimSpace(req.query()) == "" {
		return noggin.NewError(noggin.CodeQueryRequired, noggin.F("verb", "find"))
	}
	_, err := req.limit()
	return err
}

func logChecks(req *Request) error {
	if err := noPositionals(req); err != nil {
		return err
	}
	_, err := req.limit()
	return err
}

func noPositionals(req *Request) error {
	if len(req.Positionals) > 0 {
		return usage(req.Verb + ": takes no arguments")
	}
	return nil
}

func findVerb(ctx context.Context, e *noggin.Engine, st noggin.Store, req *Request) (noggin.Result, error) {
	limit, _ := req.limit() // checked before
	by, err := req.by()
	if err != nil {
		return nil, err
	}
	r, err := e.Find(ctx, st, noggin.FindOpts{Query: req.query(), Open: req.Open.isTrue(), Done: req.Done.isTrue(),
		Under: jstext.TrimSpace(req.Under.text()), Limit: limit, By: by})
	if err != nil {
		return nil, err
	}
	return r, nil
}

// by is find's and log's agent to filter by ("" for all).
func (req *Request) by() (string, error) {
	if !req.By.Given || req.By.Value == nil {
		return "", nil
	}
	by := req.By.text()
	if !noggin.ValidAgent(by) {
		return "", noggin.NewError(noggin.CodeInvalidAgent, noggin.F("agent", by))
	}
	return by, nil
}

func logVerb(ctx context.Context, e *noggin.Engine, st noggin.Store, req *Request) (noggin.Result, error) {
	limit, _ := req.limit() // checked before
	by, err := req.by()
	if err != nil {
		return nil, err
	}
	r, err := e.Log(ctx, st, noggin.LogOpts{Limit: limit, By: by})
	if err != nil {
		return nil, err
	}
	return r, nil
}

func changesVerb(ctx context.Context, e *noggin.Engine, st noggin.Store, req *Request) (noggin.Result, error) {
	limit, _ := req.limit() // checked before
	if jstext.TrimSpace(req.Since.text()) == "" {
		return nil, noggin.NewError(noggin.CodeRevisionRequired, noggin.F("verb", "changes"))
	}
	r, err := e.Changes(ctx, st, noggin.ChangesOpts{Since: jstext.TrimSpace(req.Since.text()), Limit: limit})
	if err != nil {
		return nil, err
	}
	return r, nil
}

func undo(ctx context.Context, e *noggin.Engine, st noggin.Store, _ *Request) (noggin.Result, error) {
	return recall(e.Undo(ctx, st, false))
}

func redo(ctx context.Context, e *noggin.Engine, st noggin.Store, _ *Request) (noggin.Result, error) {
	return recall(e.Undo(ctx, st, true))
}

func recall(r *noggin.UndoResult, err error) (noggin.Result, error) {
	if err != nil {
		return nil, err
	}
	return r, nil
}
