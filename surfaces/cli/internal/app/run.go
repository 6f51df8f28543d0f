// Package app is the noggin command-line tool: the grammar of docs/cli.md,
// the per-verb argument checks, the human renderers and the envelope output.
// cmd/noggin only calls Main.
package app

import (
	"bytes"
	"context"
	"io"
	"slices"

	"github.com/noggin-go/noggin/core/envelope"
	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/request"
	"github.com/noggin-go/noggin/core/store"
	"github.com/noggin-go/noggin/surfaces/rpc/remote"
)

// Main runs noggin with argv (without the program name), writing to stdout
// and stderr and reading the environment through getenv. It returns the
// process exit code. When ctx is done (Ctrl-C) before the verb has begun
// writing, it stops with the cancelled error (exit 130), nothing written.
func Main(ctx context.Context, argv []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	r := &runner{ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr, getenv: getenv}
	return r.run(argv)
}

type runner struct {
	ctx            context.Context
	runner         *request.Runner
	req            *request.Request
	stdin          io.Reader
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
	r.req = requestOf(a)
	r.json = f.JSON || r.req.Form() == request.FormatJSON
	r.withJSON = f.WithJSON && !r.json
	switch a.Verb {
	case "help":
		if len(a.Positionals) > 0 && a.Positionals[0] != "help" && findVerb(a.Positionals[0]) != nil {
			writeVerbHelp(r.stdout, a.Positionals[0])
			return 0
		}
		return r.help()
	case "completion":
		return r.completion(a)
	case "login", "logout":
		return r.login(a)
	}
	if !a.HasVerb || !isVerb(a.Verb) {
		token := a.Verb
		if !a.HasVerb {
			token = "undefined"
		}
		return r.fail(request.UnknownVerb(token))
	}
	eng, err := noggin.EngineFromEnv(r.getenv)
	if err != nil {
		return r.fail(err)
	}
	runner := &request.Runner{
		Engine:          eng,
		Opener:          store.Opener{Options: store.Options{MapFiles: true}},
		DefaultLocation: func() string { return store.Resolve("", r.getenv) },
		Remote:          remote.New(r.getenv),
	}
	r.runner = runner
	if a.Flags.Agent == nil {
		r.req.Agent = request.String(r.getenv("NOGGIN_AGENT"))
	}
	if f.Watch {
		switch {
		case a.Verb != "show":
			return r.fail(usage(a.Verb + ": --watch only applies to show"))
		case f.Goto != nil:
			return r.fail(usage("show: --watch cannot move the cursor (--goto)"))
		case r.withJSON:
			return r.fail(usage("show: --watch prints the view or, with --json, one envelope per line; not --with-json"))
		}
		// One store for the whole watch, re-read only when the file
		// changes: the one-shot opener maps the file anew on every open
		// and never unmaps it, which a long watch must not do.
		runner.Opener = store.NewCache(store.Options{})
		return r.watchShow()
	}
	return r.out(runner.Run(r.ctx, r.req))
}

// isVerb reports whether name is a verb core runs.
func isVerb(name string) bool { return slices.Contains(request.Verbs, name) }

// requestOf carries the parsed argv into a core request, unchanged: core
// decides what the words and flags mean.
func requestOf(a *Args) *request.Request {
	f := &a.Flags
	req := &request.Request{
		Verb:            a.Verb,
		Location:        request.OptString(f.Noggin),
		Positionals:     a.Positionals,
		Title:           request.OptString(f.Title),
		Before:          request.OptString(f.Before),
		After:           request.OptString(f.After),
		Into:            request.OptString(f.Into),
		Done:            request.Flag(f.Done),
		Open:            request.Flag(f.Open),
		Force:           request.Flag(f.Force),
		CloseAll:        request.Flag(f.CloseAll),
		Recursive:       request.Flag(f.Recursive),
		NoChildren:      request.Flag(f.NoChildren),
		WithSiblings:    request.Flag(f.WithSiblings),
		WithDescendants: request.Flag(f.WithDescendants),
		WithAll:         request.Flag(f.WithAll),
		WithNotes:       request.Flag(f.WithNotes),
		Under:           request.OptString(f.Under),
		Limit:           request.OptString(f.Limit),
		Agent:           request.OptString(f.Agent),
		Forget:          request.OptString(f.Forget),
		By:              request.OptString(f.By),
		Since:           request.OptString(f.Since),
		IfRevision:      request.OptString(f.IfRevision),
		Window:          request.OptString(f.Window),
		MaxBytes:        request.OptString(f.MaxBytes),
		Format:          request.OptString(f.Format),
	}
	if f.Format == nil && !f.JSON { // a person's answer: core's text (a budget measures it)
		req.Format = request.String(request.FormatText)
	}
	switch g := f.Goto; {
	case g == nil:
	case g.Self:
		req.Goto = request.Flag(true)
	default:
		req.Goto = request.String(g.Path)
	}
	return req
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

// fail reports err (see failEnv).
func (r *runner) fail(err error) int { return r.failEnv(envelope.Failure(r.verb, err)) }

// failEnv reports an error envelope: on stderr with --json, else
// "noggin: <message>". It returns the error's exit code.
func (r *runner) failEnv(env envelope.Envelope) int {
	if r.json {
		r.write(r.stderr, env.Encode())
	} else {
		// Messages quote titles and paths: neutralised like every human line.
		r.write(r.stderr, []byte("noggin: "+noggin.Safe(env.Message())+"\n"))
	}
	return env.ExitCode()
}

// out prints a result: an error (see failEnv), or a success as the
// envelope with --json, else the verb's human output (followed by an empty
// line and the envelope with --with-json).
func (r *runner) out(res request.Result) int {
	env := res.Envelope
	if !env.OK() {
		return r.failEnv(env)
	}
	var b bytes.Buffer
	if r.json {
		b.Write(env.Encode())
	} else {
		r.human(&b, res)
		if r.withJSON {
			b.WriteByte('\n')
			b.Write(env.Encode())
		}
	}
	r.write(r.stdout, b.Bytes())
	return 0
}

// human renders a success for a person: core's text of the answer.
func (r *runner) human(b *bytes.Buffer, res request.Result) {
	if res.Text == nil {
		res.Text = r.runner.Text(r.ctx, r.req, res)
	}
	b.Write(res.Text)
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
