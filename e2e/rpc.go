package e2e

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/noggin-go/noggin/surfaces/rpc/client"
)

// RPCSurface calls a running noggin-rpc server's Call method through its
// Go client: the envelope compared is the one the server encoded.
type RPCSurface struct {
	c *client.Client
}

// NewRPCSurface returns a surface talking to the server at addr.
func NewRPCSurface(addr string) (*RPCSurface, error) {
	return &RPCSurface{c: client.New(&http.Client{Timeout: 2 * time.Minute}, "http://"+addr)}, nil
}

// Name implements Surface.
func (r *RPCSurface) Name() string { return RPC }

// Do implements Surface.
func (r *RPCSurface) Do(ctx context.Context, s *Scenario, st *Step) *Outcome {
	args, err := ToolArgs(s, st)
	if err != nil {
		return &Outcome{Err: fmt.Errorf("not expressible on RPC: %w", err)}
	}
	text, answer, err := r.c.CallAnswer(ctx, st.Str("agent"), st.Verb, args)
	if err != nil {
		return &Outcome{Err: fmt.Errorf("RPC Call failed: %w", err)}
	}
	code, err := envelopeExit(text)
	if err != nil {
		return &Outcome{Err: fmt.Errorf("RPC Call %s: %w: %q", st.Verb, err, text)}
	}
	switch {
	case !TextForm(st) && answer != nil:
		return &Outcome{Err: fmt.Errorf("RPC Call %s: a text answer not asked for: %q", st.Verb, answer)}
	case !TextForm(st):
		return &Outcome{Text: text}
	case code != 0:
		line, err := errorLine(text)
		return &Outcome{Text: line, Err: err}
	}
	return &Outcome{Text: bytes.TrimSuffix(answer, []byte("\n"))}
}
