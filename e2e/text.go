package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"time"

	"github.com/noggin-go/noggin/core/request"
)

// TextForm reports whether a step asks for its answer as the CLI's text
// (format text, as core reads the option).
func TextForm(st *Step) bool {
	o, ok := st.Get("format")
	if !ok || !o.HasVal {
		return false
	}
	return (&request.Request{Verb: st.Verb, Format: request.String(o.Val)}).Form() == request.FormatText
}

// errorLine is what a text answer compares for an error envelope: the
// line the CLI prints on stderr and the exit code, "noggin: MESSAGE\n(exit N)".
func errorLine(env []byte) ([]byte, error) {
	var e struct {
		Error *struct {
			Message  string `json:"message"`
			ExitCode int    `json:"exitCode"`
		} `json:"error"`
	}
	if err := json.Unmarshal(env, &e); err != nil || e.Error == nil {
		return nil, fmt.Errorf("not an error envelope: %q", env)
	}
	return fmt.Appendf(nil, "noggin: %s\n(exit %d)", e.Error.Message, e.Error.ExitCode), nil
}

// RunText runs the CLI with --with-json (args of a TextForm step) and
// returns its text answer: on success the human output (the envelope after
// it must be a success), on failure the stderr line and the exit code.
func (c *CLISurface) RunText(ctx context.Context, args []string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.Bin, args...)
	cmd.Dir, cmd.Env = c.Dir, c.Env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return nil, fmt.Errorf("running noggin %q: %w", args, err)
	}
	if ee != nil {
		line, ok := bytes.CutSuffix(stderr.Bytes(), []byte("\n"))
		if stdout.Len() != 0 || !ok || bytes.Contains(line, []byte("\n")) {
			return nil, fmt.Errorf("noggin %q exited %d: want one stderr line and no stdout: stdout %q, stderr %q", args, ee.ExitCode(), stdout.Bytes(), stderr.Bytes())
		}
		return fmt.Appendf(line, "\n(exit %d)", ee.ExitCode()), nil
	}
	// The human output (ending in a newline, or empty), an empty line,
	// then the pretty envelope and a newline.
	out := stdout.Bytes()
	p := bytes.LastIndex(out, []byte("{\n  \"status\": \"ok\",\n"))
	if stderr.Len() != 0 || p < 1 || out[p-1] != '\n' || p > 1 && out[p-2] != '\n' || !bytes.HasSuffix(out, []byte("}\n")) {
		return nil, fmt.Errorf("noggin %q: want text, an empty line and the envelope on stdout only: stdout %q, stderr %q", args, out, stderr.Bytes())
	}
	if code, err := envelopeExit(out[p : len(out)-1]); err != nil {
		return nil, fmt.Errorf("noggin %q: after the text: %w: %q", args, err, out[p:])
	} else if code != 0 {
		return nil, fmt.Errorf("noggin %q: the envelope after the text is not a success: %q", args, out[p:])
	}
	return bytes.TrimSuffix(out[:p-1], []byte("\n")), nil
}
