// Package app is the noggin command-line tool: the grammar of spec/cli.md,
// the per-verb argument checks, the human renderers and the envelope output.
// cmd/noggin only calls Main.
package app

import (
	"bytes"
	"io"
	"strings"

	"github.com/noggin-go/noggin/core/envelope"
	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/store"
)

// Main runs noggin with argv (without the program name), writing to stdout
// and stderr and reading the environment through getenv. It returns the
// process exit code.
func Main(argv []string, stdout, stderr io.Writer, getenv func(string) string) int {
	r := &runner{stdout: stdout, stderr: stderr, getenv: getenv}
	return r.run(argv)
}

type runner struct {
	stdout, stderr io.Writer
	getenv         func(string) string

	verb     string // the envelope verb ("" = null)
	json     bool   // --json: envelopes on stdout/stderr
	withJSON bool   // --with-json (without --json)
}

func (r *runner) run(argv []string) int {
	if n := len(argv); n > 0 && argv[n-1] == completionMarker {
		for _, c := range completions(argv[:n-1]) {
			r.write(r.stdout, []byte(c+"\n"))
		}
		return 0
	}
	if len(argv) == 0 {
		return r.help()
	}
	a, perr := Parse(argv)
	if perr != nil {
		// noggin for Go: with --json, parse errors are envelopes too.
		r.json = wantsJSON(argv)
		if perr.HasVerb {
			r.verb = perr.Verb
		}
		return r.fail(usage(perr.Message))
	}
	f := &a.Flags
	if f.Help {
		if a.HasVerb && a.Verb != "help" && findVerb(a.Verb) != nil {
			writeVerbHelp(r.stdout, a.Verb)
			return 0
		}
		return r.help()
	}
	if f.Version {
		writeVersion(r.stdout)
		return 0
	}
	r.verb = a.Verb
	r.json = f.JSON
	r.withJSON = f.WithJSON && !f.JSON
	switch a.Verb {
	case "push":
		return r.push(a)
	case "add":
		return r.add(a)
	case "move":
		return r.move(a)
	case "goto":
		return r.gotoVerb(a)
	case "done":
		return r.done(a)
	case "pop":
		return r.pop(a)
	case "edit":
		return r.edit(a)
	case "show":
		return r.show(a)
	case "note":
		return r.note(a)
	case "delete":
		return r.delete(a)
	case "where":
		return r.where(a)
	case "copy":
		return r.copy(a)
	case "providers":
		return r.providers()
	case "help":
		if len(a.Positionals) > 0 && a.Positionals[0] != "help" && findVerb(a.Positionals[0]) != nil {
			writeVerbHelp(r.stdout, a.Positionals[0])
			return 0
		}
		return r.help()
	case "completion":
		return r.completion(a)
	}
	token := a.Verb
	if !a.HasVerb {
		token = "undefined"
	}
	return r.fail(usage("unknown command: " + token + " (try 'help')"))
}

// usage is a CLI usage error: noggin-error, exit 2, literal message.
func usage(msg string) error { return noggin.Usage(noggin.CodeNogginError, 2, msg) }

func (r *runner) write(w io.Writer, b []byte) {
	_, _ = w.Write(b)
}

func (r *runner) help() int {
	r.write(r.stdout, []byte(HelpText()))
	return 0
}

// fail reports err: the error envelope on stderr with --json, else
// "noggin: <message>". It returns the error's exit code.
func (r *runner) fail(err error) int {
	env := envelope.Failure(r.verb, err)
	if r.json {
		r.write(r.stderr, env.Encode())
	} else {
		r.write(r.stderr, []byte("noggin: "+env.Message()+"\n"))
	}
	return env.ExitCode()
}

// ok prints a success: the envelope with --json, else the human output
// (followed by an empty line and the envelope with --with-json).
func (r *runner) ok(data any, human func(b *bytes.Buffer)) int {
	var b bytes.Buffer
	if r.json {
		b.Write(envelope.Success(r.verb, data).Encode())
	} else {
		human(&b)
		if r.withJSON {
			b.WriteByte('\n')
			b.Write(envelope.Success(r.verb, data).Encode())
		}
	}
	r.write(r.stdout, b.Bytes())
	return 0
}

// okView prints a verb's view.
func (r *runner) okView(v *noggin.View, err error) int {
	if err != nil {
		return r.fail(err)
	}
	return r.ok(v, func(b *bytes.Buffer) { RenderView(b, v, false) })
}

// openLocation opens a location. store.Open loads the document once, so a
// broken or unreadable noggin is reported before any after-open check.
func openLocation(loc string) (noggin.Store, error) {
	return store.Open(loc, store.Options{MapFiles: true})
}

// open builds the engine and opens the noggin of --noggin / $NOGGIN / the default.
func (r *runner) open(a *Args) (*noggin.Engine, noggin.Store, error) {
	eng, err := noggin.EngineFromEnv(r.getenv)
	if err != nil {
		return nil, nil, err
	}
	s, err := openLocation(store.Resolve(deref(a.Flags.Noggin), r.getenv))
	if err != nil {
		return nil, nil, err
	}
	return eng, s, nil
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// first returns the first positional ("" when none).
func first(a *Args) string {
	if len(a.Positionals) == 0 {
		return ""
	}
	return a.Positionals[0]
}

// titleOf is --title if non-empty, else the positionals joined, trimmed.
func titleOf(a *Args) string {
	t := deref(a.Flags.Title)
	if t == "" {
		t = strings.Join(a.Positionals, " ")
	}
	return strings.TrimSpace(t)
}

// gotoOf maps the parsed --goto to the engine option.
func gotoOf(a *Args) noggin.Goto {
	g := a.Flags.Goto
	switch {
	case g == nil:
		return noggin.Goto{}
	case g.Self:
		return noggin.Goto{Present: true, Self: true}
	default:
		return noggin.Goto{Present: true, Path: g.Path}
	}
}

// placementOf returns the placement among --before/--after/--into (nil if
// none); more than one is a usage error.
func placementOf(a *Args, verb string) (*noggin.Placement, error) {
	var p *noggin.Placement
	n := 0
	for _, c := range []struct {
		kind string
		v    *string
	}{{"before", a.Flags.Before}, {"after", a.Flags.After}, {"into", a.Flags.Into}} {
		if c.v != nil {
			n++
			p = &noggin.Placement{Kind: c.kind, Anchor: *c.v}
		}
	}
	if n > 1 {
		return nil, usage(verb + ": --before, --after, and --into are mutually exclusive")
	}
	return p, nil
}

func (r *runner) push(a *Args) int {
	title := titleOf(a)
	if title == "" {
		return r.fail(noggin.Usage(noggin.CodeTitleRequired, 2, "push: title required (--title or positional)"))
	}
	eng, s, err := r.open(a)
	if err != nil {
		return r.fail(err)
	}
	return r.okView(eng.Push(s, noggin.PushOpts{Title: title}))
}

func (r *runner) add(a *Args) int {
	title := titleOf(a)
	if title == "" {
		return r.fail(noggin.Usage(noggin.CodeTitleRequired, 2, "add: title required (--title or positional)"))
	}
	eng, s, err := r.open(a)
	if err != nil {
		return r.fail(err)
	}
	p, err := placementOf(a, "add")
	if err != nil {
		return r.fail(err)
	}
	return r.okView(eng.Add(s, noggin.AddOpts{Title: title, Placement: p, Goto: gotoOf(a)}))
}

func (r *runner) move(a *Args) int {
	if len(a.Positionals) > 1 {
		return r.fail(usage("move: accepts at most one path"))
	}
	eng, s, err := r.open(a)
	if err != nil {
		return r.fail(err)
	}
	p, err := placementOf(a, "move")
	if err != nil {
		return r.fail(err)
	}
	return r.okView(eng.Move(s, noggin.MoveOpts{Path: first(a), Placement: p, Goto: gotoOf(a)}))
}

func (r *runner) gotoVerb(a *Args) int {
	if first(a) == "" {
		return r.fail(usage("goto: path required"))
	}
	eng, s, err := r.open(a)
	if err != nil {
		return r.fail(err)
	}
	return r.okView(eng.Goto(s, noggin.GotoOpts{Path: first(a)}))
}

func (r *runner) done(a *Args) int {
	if len(a.Positionals) > 1 {
		return r.fail(usage("done: accepts at most one path"))
	}
	eng, s, err := r.open(a)
	if err != nil {
		return r.fail(err)
	}
	f := &a.Flags
	return r.okView(eng.Done(s, noggin.DoneOpts{Path: first(a), Force: f.Force, CloseAll: f.CloseAll, Goto: gotoOf(a)}))
}

func (r *runner) pop(a *Args) int {
	if len(a.Positionals) > 0 {
		return r.fail(usage("pop: takes no path; pop always operates on the active item"))
	}
	if a.Flags.Goto != nil {
		return r.fail(usage("pop: --goto is not supported; pop always moves to the active item's parent"))
	}
	eng, s, err := r.open(a)
	if err != nil {
		return r.fail(err)
	}
	return r.okView(eng.Pop(s, noggin.PopOpts{Force: a.Flags.Force, CloseAll: a.Flags.CloseAll}))
}

func (r *runner) edit(a *Args) int {
	f := &a.Flags
	if f.Done && f.Open {
		return r.fail(usage("edit: --done and --open are mutually exclusive"))
	}
	if len(a.Positionals) > 1 {
		return r.fail(usage("edit: accepts at most one path"))
	}
	eng, s, err := r.open(a)
	if err != nil {
		return r.fail(err)
	}
	o := noggin.EditOpts{Path: first(a), Title: f.Title, Force: f.Force, CloseAll: f.CloseAll, Goto: gotoOf(a)}
	if f.Done || f.Open {
		done := f.Done
		o.Done = &done
	}
	return r.okView(eng.Edit(s, o))
}

func (r *runner) show(a *Args) int {
	eng, s, err := r.open(a)
	if err != nil {
		return r.fail(err)
	}
	f := &a.Flags
	withDesc := f.WithDescendants || f.WithAll
	if withDesc && f.NoChildren {
		return r.fail(usage("show: --with-descendants and --no-children are mutually exclusive"))
	}
	v, err := eng.Show(s, noggin.ShowOpts{
		Path:            first(a),
		NoChildren:      f.NoChildren,
		WithSiblings:    f.WithSiblings || f.WithAll,
		WithDescendants: withDesc,
		Goto:            gotoOf(a),
	})
	if err != nil {
		return r.fail(err)
	}
	return r.ok(v, func(b *bytes.Buffer) { RenderShow(b, v, f.WithNotes) })
}

func (r *runner) note(a *Args) int {
	words := a.Positionals
	path := ""
	if len(words) > 0 && LooksLikePath(words[0]) {
		path, words = words[0], words[1:]
	}
	text := strings.TrimSpace(strings.Join(words, " "))
	eng, s, err := r.open(a)
	if err != nil {
		return r.fail(err)
	}
	return r.okView(eng.Note(s, noggin.NoteOpts{Path: path, Text: text, Goto: gotoOf(a)}))
}

func (r *runner) delete(a *Args) int {
	switch {
	case a.Flags.Goto != nil:
		return r.fail(usage("delete: --goto is not supported"))
	case len(a.Positionals) == 0:
		return r.fail(usage("delete: path required"))
	case len(a.Positionals) > 1:
		return r.fail(usage("delete: accepts at most one path"))
	}
	eng, s, err := r.open(a)
	if err != nil {
		return r.fail(err)
	}
	res, err := eng.Delete(s, noggin.DeleteOpts{Path: first(a), Recursive: a.Flags.Recursive})
	if err != nil {
		return r.fail(err)
	}
	return r.ok(res, func(b *bytes.Buffer) {
		empty := false
		if res.View == nil {
			doc, err := s.Load()
			empty = err == nil && len(doc.Items) == 0
		}
		RenderDelete(b, res, empty)
	})
}

func (r *runner) where(a *Args) int {
	_, s, err := r.open(a)
	if err != nil {
		return r.fail(err)
	}
	loc := s.Describe()
	return r.ok(loc, func(b *bytes.Buffer) { RenderLine(b, loc) })
}

func (r *runner) copy(a *Args) int {
	if len(a.Positionals) < 2 {
		return r.fail(noggin.Usage(noggin.CodeUsage, 2, "copy: usage: noggin copy <from> <to>"))
	}
	eng, err := noggin.EngineFromEnv(r.getenv)
	if err != nil {
		return r.fail(err)
	}
	src, err := openLocation(a.Positionals[0])
	if err != nil {
		return r.fail(err)
	}
	dst, err := openLocation(a.Positionals[1])
	if err != nil {
		return r.fail(err)
	}
	res, err := eng.Copy(src, dst)
	if err != nil {
		return r.fail(err)
	}
	return r.ok(res, func(b *bytes.Buffer) { RenderCopy(b, res, src.Describe(), dst.Describe()) })
}

func (r *runner) providers() int {
	ps := store.Providers(store.Options{})
	return r.ok(ps, func(b *bytes.Buffer) { RenderProviders(b, ps) })
}

func (r *runner) completion(a *Args) int {
	if len(a.Positionals) == 1 {
		if s, ok := completionScript(a.Positionals[0]); ok {
			r.write(r.stdout, []byte(s))
			return 0
		}
	}
	return r.fail(usage("completion: usage: noggin completion bash|zsh|fish"))
}
