package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/noggin-go/noggin/core/noggin"
)

// Surface runs steps on one noggin surface.
type Surface interface {
	Name() string
	// Do runs one step of scenario s and returns its envelope text.
	Do(ctx context.Context, s *Scenario, st *Step) *Outcome
}

// CLISurface runs the noggin binary once per step.
type CLISurface struct {
	Bin string
	Dir string // working directory (the work directory)
	Env []string
}

// Name implements Surface.
func (c *CLISurface) Name() string { return CLI }

// CLIArgs renders a step to the noggin argv (without the program name).
func CLIArgs(s *Scenario, st *Step) ([]string, error) {
	if st.Has("extra") {
		return nil, errors.New("the CLI's flags are global: it has no argument a verb does not take")
	}
	args := []string{"--json"}
	if TextForm(st) { // the text, then the envelope; errors: the stderr line
		args[0] = "--with-json"
	}
	if st.Verb != "copy" && st.Verb != "providers" {
		args = append(args, "--noggin", s.NogginLocation(st))
	}
	if o, ok := st.Get("agent"); ok {
		args = append(args, "--agent="+o.Val)
	}
	if o, ok := st.Get("ifRevision"); ok {
		args = append(args, "--if-revision="+o.Val)
	}
	for _, f := range [][2]string{{"window", "window"}, {"maxBytes", "max-bytes"}, {"format", "format"}} {
		if o, ok := st.Get(f[0]); ok {
			args = append(args, "--"+f[1]+"="+o.Val)
		}
	}
	args = append(args, st.Verb)
	var flags, words []string
	pos := func(key string) error {
		if o, ok := st.Get(key); ok {
			words = append(words, o.Val)
		}
		return nil
	}
	val := func(key, flag string) {
		if o, ok := st.Get(key); ok {
			flags = append(flags, "--"+flag+"="+o.Val)
		}
	}
	boolean := func(key, flag string) error {
		if o, ok := st.Get(key); ok {
			if o.HasVal && o.Val != "true" {
				return fmt.Errorf("option %s=%s: the CLI has only presence flags", key, o.Val)
			}
			flags = append(flags, "--"+flag)
		}
		return nil
	}
	var gotoFlag []string
	if o, ok := st.Get("goto"); ok {
		switch {
		case !o.HasVal:
			gotoFlag = []string{"--goto"}
		case o.Val == "":
			return nil, errors.New(`goto="" (a falsy goto) cannot be expressed: the CLI's --goto= means true`)
		default:
			gotoFlag = []string{"--goto=" + o.Val}
		}
	}
	var err error
	switch st.Verb {
	case "push", "add":
		// Both forms of a title: --title=T, or T as the one positional word
		// (chosen by the title's length, so each step has one fixed argv).
		if o, ok := st.Get("title"); ok && len(o.Val)%2 == 1 {
			words = append(words, o.Val)
		} else {
			val("title", "title")
		}
		val("before", "before")
		val("after", "after")
		val("into", "into")
	case "note":
		text := st.Str("text")
		if st.Has("path") {
			p := st.Str("path")
			if !LooksLikePath(p) {
				return nil, fmt.Errorf("note path %q does not look like a path to the CLI", p)
			}
			words = append(words, p)
		} else if LooksLikePath(text) {
			return nil, fmt.Errorf("note text %q looks like a path to the CLI", text)
		}
		if st.Has("text") && text != "" {
			words = append(words, text)
		}
	case "copy":
		if err = pos("from"); err == nil {
			err = pos("to")
		}
		if st.Has("to") && !st.Has("from") {
			err = errors.New("copy with to but no from")
		}
		// from/to are scenario-relative names.
		for i, a := range words {
			words[i] = s.Location(a)
		}
	default: // move, goto, done, pop, edit, show, delete — and any verb of that shape: [path] and flags
		err = pos("path")
		if e := pos("query"); e != nil { // find: the query is its words
			err = e
		}
		val("under", "under")
		val("limit", "limit")
		val("before", "before")
		val("after", "after")
		val("into", "into")
		val("title", "title")
		val("forget", "forget")
		val("by", "by")
		val("since", "since")
		for _, b := range [][2]string{{"force", "force"}, {"closeAll", "close-all"}, {"done", "done"}, {"open", "open"},
			{"noChildren", "no-children"}, {"withSiblings", "with-siblings"}, {"withDescendants", "with-descendants"},
			{"withAll", "with-all"}, {"withNotes", "with-notes"}, {"recursive", "recursive"}} {
			if e := boolean(b[0], b[1]); e != nil {
				err = e
			}
		}
	}
	if err != nil {
		return nil, err
	}
	for _, w := range words {
		if strings.HasPrefix(w, "-") {
			// "--" ends the options: the words that follow are never flags
			// (nor -h).
			args = append(append(append(args, flags...), gotoFlag...), "--")
			return append(args, words...), nil
		}
	}
	// Words first: a bare --goto would take a path-like word after it.
	args = append(append(args, words...), flags...)
	return append(args, gotoFlag...), nil
}

// LooksLikePath is the CLI's heuristic (docs/cli.md).
func LooksLikePath(t string) bool { return noggin.LooksLikePath(t) }

// Do implements Surface.
func (c *CLISurface) Do(ctx context.Context, s *Scenario, st *Step) *Outcome {
	args, err := CLIArgs(s, st)
	if err != nil {
		return &Outcome{Err: fmt.Errorf("not expressible on the CLI: %w", err)}
	}
	run := c.Run
	if TextForm(st) {
		run = c.RunText
	}
	text, err := run(ctx, args)
	return &Outcome{Text: text, Err: err}
}

// Run runs the CLI with args and returns the envelope text after checking
// the stream discipline: success on stdout with exit 0, errors on stderr
// with the envelope's exit code, exactly one trailing newline.
func (c *CLISurface) Run(ctx context.Context, args []string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.Bin, args...)
	cmd.Dir = c.Dir
	cmd.Env = c.Env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return nil, fmt.Errorf("running noggin %q: %w", args, err)
		}
		code = ee.ExitCode()
	}
	out, other, stream := stdout.Bytes(), stderr.Bytes(), "stdout"
	if code != 0 {
		out, other, stream = stderr.Bytes(), stdout.Bytes(), "stderr"
	}
	if len(other) != 0 {
		return nil, fmt.Errorf("noggin %q exited %d and wrote to the wrong stream: stdout %q, stderr %q", args, code, stdout.Bytes(), stderr.Bytes())
	}
	if len(out) == 0 || out[len(out)-1] != '\n' || len(out) > 1 && out[len(out)-2] == '\n' {
		return nil, fmt.Errorf("noggin %q exited %d: %s is not one envelope plus one newline: %q", args, code, stream, out)
	}
	text := out[:len(out)-1]
	want, err := envelopeExit(text)
	if err != nil {
		return nil, fmt.Errorf("noggin %q exited %d: %w: %q", args, code, err, out)
	}
	if want != code {
		return nil, fmt.Errorf("noggin %q exited %d but the envelope says exitCode %d", args, code, want)
	}
	return text, nil
}

// envelopeExit returns the exit code an envelope implies (0 for success).
func envelopeExit(text []byte) (int, error) {
	var env struct {
		Status string `json:"status"`
		Error  *struct {
			ExitCode int `json:"exitCode"`
		} `json:"error"`
	}
	if err := json.Unmarshal(text, &env); err != nil {
		return 0, fmt.Errorf("not JSON: %w", err)
	}
	switch {
	case env.Status == "ok" && env.Error == nil:
		return 0, nil
	case env.Status == "error" && env.Error != nil:
		return env.Error.ExitCode, nil
	}
	return 0, fmt.Errorf("not an envelope (status %q)", env.Status)
}
