package e2e

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/noggin-go/noggin/core/envelope"
	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/surfaces/rpc/client"
)

// RPCSurface calls a running noggin-rpc server through its Go client and
// turns the core results and errors into envelopes with core/envelope.
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
	call, err := RPCCall(s, st)
	if err != nil {
		return &Outcome{Err: fmt.Errorf("not expressible on RPC: %v", err)}
	}
	data, err := call(ctx, r.c)
	env := envelope.Result(st.Verb, data, err)
	if err != nil && env.Err.Code == noggin.CodeNogginError && !errors.As(err, new(*noggin.Error)) {
		return &Outcome{Err: fmt.Errorf("RPC transport failure: %v", err)}
	}
	return &Outcome{Text: env.Text()}
}

// RPCCall renders a step to a client call with engine-level options.
func RPCCall(s *Scenario, st *Step) (func(context.Context, *client.Client) (any, error), error) {
	loc := s.NogginLocation(st)
	g := noggin.Goto{}
	if o, ok := st.Get("goto"); ok {
		g.Present = true
		if o.HasVal {
			g.Path = o.Val
		} else {
			g.Self = true
		}
	}
	var placement *noggin.Placement
	for _, k := range []string{"before", "after", "into"} {
		if o, ok := st.Get(k); ok {
			if placement != nil {
				return nil, errors.New("the RPC API takes one placement")
			}
			placement = &noggin.Placement{Kind: k, Anchor: o.Val}
		}
	}
	for _, k := range []string{"force", "closeAll", "done", "open", "noChildren", "withSiblings", "withDescendants", "withAll", "withNotes", "recursive"} {
		if o, ok := st.Get(k); ok && o.HasVal && o.Val != "true" {
			return nil, fmt.Errorf("option %s=%s: only presence flags", k, o.Val)
		}
	}
	path, title, text := st.Str("path"), st.Str("title"), st.Str("text")
	force, closeAll := st.Flag("force"), st.Flag("closeAll")
	view := func(v *noggin.View, err error) (any, error) {
		if v == nil {
			return nil, err
		}
		return v, err
	}
	switch st.Verb {
	case "push":
		return func(ctx context.Context, c *client.Client) (any, error) {
			return view(c.Push(ctx, loc, noggin.PushOpts{Title: title}))
		}, nil
	case "add":
		return func(ctx context.Context, c *client.Client) (any, error) {
			return view(c.Add(ctx, loc, noggin.AddOpts{Title: title, Placement: placement, Goto: g}))
		}, nil
	case "move":
		return func(ctx context.Context, c *client.Client) (any, error) {
			return view(c.Move(ctx, loc, noggin.MoveOpts{Path: path, Placement: placement, Goto: g}))
		}, nil
	case "goto":
		return func(ctx context.Context, c *client.Client) (any, error) {
			return view(c.Goto(ctx, loc, noggin.GotoOpts{Path: path}))
		}, nil
	case "done":
		return func(ctx context.Context, c *client.Client) (any, error) {
			return view(c.Done(ctx, loc, noggin.DoneOpts{Path: path, Force: force, CloseAll: closeAll, Goto: g}))
		}, nil
	case "pop":
		return func(ctx context.Context, c *client.Client) (any, error) {
			return view(c.Pop(ctx, loc, noggin.PopOpts{HasPath: st.Has("path"), Force: force, CloseAll: closeAll, Goto: g}))
		}, nil
	case "edit":
		o := noggin.EditOpts{Path: path, Force: force, CloseAll: closeAll, Goto: g}
		switch {
		case st.Has("done") && st.Has("open"):
			return nil, errors.New("edit takes one of done/open")
		case st.Has("done"):
			o.Done = new(bool)
			*o.Done = true
		case st.Has("open"):
			o.Done = new(bool)
		}
		if st.Has("title") {
			o.Title = &title
		}
		return func(ctx context.Context, c *client.Client) (any, error) {
			return view(c.Edit(ctx, loc, o))
		}, nil
	case "show":
		o := noggin.ShowOpts{Path: path, NoChildren: st.Flag("noChildren"),
			WithSiblings:    st.Flag("withSiblings") || st.Flag("withAll"),
			WithDescendants: st.Flag("withDescendants") || st.Flag("withAll"), Goto: g}
		return func(ctx context.Context, c *client.Client) (any, error) {
			return view(c.Show(ctx, loc, o))
		}, nil
	case "note":
		return func(ctx context.Context, c *client.Client) (any, error) {
			return view(c.Note(ctx, loc, noggin.NoteOpts{Path: path, Text: text, Goto: g}))
		}, nil
	case "delete":
		return func(ctx context.Context, c *client.Client) (any, error) {
			res, err := c.Delete(ctx, loc, noggin.DeleteOpts{Path: path, Recursive: st.Flag("recursive"), Goto: g})
			if res == nil {
				return nil, err
			}
			return res, err
		}, nil
	case "where":
		return func(ctx context.Context, c *client.Client) (any, error) {
			w, err := c.Where(ctx, loc)
			if err != nil {
				return nil, err
			}
			return w, nil
		}, nil
	case "providers":
		return func(ctx context.Context, c *client.Client) (any, error) {
			p, err := c.Providers(ctx)
			if err != nil {
				return nil, err
			}
			return p, nil
		}, nil
	case "copy":
		if !st.Has("from") || !st.Has("to") {
			return nil, errors.New("copy needs from and to")
		}
		from, to := s.Location(st.Str("from")), s.Location(st.Str("to"))
		return func(ctx context.Context, c *client.Client) (any, error) {
			res, err := c.Copy(ctx, from, to)
			if res == nil {
				return nil, err
			}
			return res, err
		}, nil
	}
	return nil, fmt.Errorf("unknown verb %s", st.Verb)
}
