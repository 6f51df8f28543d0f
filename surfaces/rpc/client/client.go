// Package client is the Go client of noggin-rpc. It calls
// noggin.v1.NogginService and returns core types and core errors, so that
// envelope.Result(verb, client.Push(...)) encodes to the same bytes as the
// CLI's --json output for the same step.
//
// The client speaks the Connect protocol by default; pass
// WithConnectOptions(connect.WithGRPC()) or connect.WithGRPCWeb() for the
// other protocols (gRPC needs HTTP/2: use H2CClient for plaintext servers).
package client

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/noggin-go/noggin/core/noggin"
	nogginv1 "github.com/noggin-go/noggin/surfaces/rpc/gen/noggin/v1"
	"github.com/noggin-go/noggin/surfaces/rpc/gen/noggin/v1/nogginv1connect"
	"github.com/noggin-go/noggin/surfaces/rpc/internal/convert"
)

// Client calls a noggin-rpc server.
type Client struct {
	rpc nogginv1connect.NogginServiceClient
}

type options struct {
	token   string
	connect []connect.ClientOption
}

// Option configures a Client.
type Option func(*options)

// WithToken sends "Authorization: Bearer <token>" on every call.
func WithToken(token string) Option { return func(o *options) { o.token = token } }

// WithConnectOptions passes options to the generated Connect client (e.g.
// connect.WithGRPC(), connect.WithGRPCWeb(), connect.WithHTTPGet()).
func WithConnectOptions(opts ...connect.ClientOption) Option {
	return func(o *options) { o.connect = append(o.connect, opts...) }
}

// H2CClient returns an HTTP client speaking HTTP/2 without TLS (prior
// knowledge), as needed by gRPC against a plaintext noggin-rpc server.
func H2CClient() *http.Client {
	tr := &http.Transport{}
	tr.Protocols = new(http.Protocols)
	tr.Protocols.SetUnencryptedHTTP2(true)
	return &http.Client{Transport: tr}
}

// New returns a client of the server at baseURL (e.g. http://127.0.0.1:7777).
func New(httpClient connect.HTTPClient, baseURL string, opts ...Option) *Client {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	copts := append([]connect.ClientOption(nil), o.connect...)
	if o.token != "" {
		copts = append(copts, connect.WithInterceptors(tokenInterceptor("Bearer "+o.token)))
	}
	return &Client{rpc: nogginv1connect.NewNogginServiceClient(httpClient, baseURL, copts...)}
}

// tokenInterceptor sets the Authorization header of every call.
type tokenInterceptor string

func (t tokenInterceptor) WrapUnary(next connect.UnaryFunc) connect.UnaryFunc {
	return func(ctx context.Context, req connect.AnyRequest) (connect.AnyResponse, error) {
		req.Header().Set("Authorization", string(t))
		return next(ctx, req)
	}
}

func (t tokenInterceptor) WrapStreamingClient(next connect.StreamingClientFunc) connect.StreamingClientFunc {
	return func(ctx context.Context, spec connect.Spec) connect.StreamingClientConn {
		conn := next(ctx, spec)
		conn.RequestHeader().Set("Authorization", string(t))
		return conn
	}
}

func (t tokenInterceptor) WrapStreamingHandler(next connect.StreamingHandlerFunc) connect.StreamingHandlerFunc {
	return next
}

// Error turns an RPC failure back into the core error it carries (its
// noggin.v1.ErrorDetail). Errors without a detail (transport failures,
// Unauthenticated, …) are returned unchanged.
func Error(err error) error {
	if err == nil {
		return nil
	}
	var ce *connect.Error
	if !errors.As(err, &ce) {
		return err
	}
	for _, d := range ce.Details() {
		v, derr := d.Value()
		if derr != nil {
			continue
		}
		if ed, ok := v.(*nogginv1.ErrorDetail); ok {
			return convert.ErrorFromProto(ed)
		}
	}
	return err
}

// Show runs show. A show with a goto is sent as ShowGoto (it may write);
// without one it is the read-only Show. The view is nil when show has no
// target.
func (c *Client) Show(ctx context.Context, location string, o noggin.ShowOpts) (*noggin.View, error) {
	if o.Goto.Present {
		res, err := c.rpc.ShowGoto(ctx, connect.NewRequest(&nogginv1.ShowGotoRequest{
			Location: location, Path: o.Path, NoChildren: o.NoChildren,
			WithSiblings: o.WithSiblings, WithDescendants: o.WithDescendants,
			Goto: convert.GotoToProto(o.Goto),
		}))
		if err != nil {
			return nil, Error(err)
		}
		return convert.ViewFromProto(res.Msg.GetView()), nil
	}
	res, err := c.rpc.Show(ctx, connect.NewRequest(&nogginv1.ShowRequest{
		Location: location, Path: o.Path, NoChildren: o.NoChildren,
		WithSiblings: o.WithSiblings, WithDescendants: o.WithDescendants,
	}))
	if err != nil {
		return nil, Error(err)
	}
	return convert.ViewFromProto(res.Msg.GetView()), nil
}

// Push runs push.
func (c *Client) Push(ctx context.Context, location string, o noggin.PushOpts) (*noggin.View, error) {
	res, err := c.rpc.Push(ctx, connect.NewRequest(&nogginv1.PushRequest{Location: location, Title: o.Title}))
	if err != nil {
		return nil, Error(err)
	}
	return convert.ViewFromProto(res.Msg.GetView()), nil
}

// Add runs add.
func (c *Client) Add(ctx context.Context, location string, o noggin.AddOpts) (*noggin.View, error) {
	res, err := c.rpc.Add(ctx, connect.NewRequest(&nogginv1.AddRequest{
		Location: location, Title: o.Title,
		Placement: convert.PlacementToProto(o.Placement), Goto: convert.GotoToProto(o.Goto),
	}))
	if err != nil {
		return nil, Error(err)
	}
	return convert.ViewFromProto(res.Msg.GetView()), nil
}

// Move runs move.
func (c *Client) Move(ctx context.Context, location string, o noggin.MoveOpts) (*noggin.View, error) {
	res, err := c.rpc.Move(ctx, connect.NewRequest(&nogginv1.MoveRequest{
		Location: location, Path: o.Path,
		Placement: convert.PlacementToProto(o.Placement), Goto: convert.GotoToProto(o.Goto),
	}))
	if err != nil {
		return nil, Error(err)
	}
	return convert.ViewFromProto(res.Msg.GetView()), nil
}

// Goto runs goto.
func (c *Client) Goto(ctx context.Context, location string, o noggin.GotoOpts) (*noggin.View, error) {
	res, err := c.rpc.Goto(ctx, connect.NewRequest(&nogginv1.GotoRequest{Location: location, Path: o.Path}))
	if err != nil {
		return nil, Error(err)
	}
	return convert.ViewFromProto(res.Msg.GetView()), nil
}

// Done runs done.
func (c *Client) Done(ctx context.Context, location string, o noggin.DoneOpts) (*noggin.View, error) {
	res, err := c.rpc.Done(ctx, connect.NewRequest(&nogginv1.DoneRequest{
		Location: location, Path: o.Path, Force: o.Force, CloseAll: o.CloseAll,
		Goto: convert.GotoToProto(o.Goto),
	}))
	if err != nil {
		return nil, Error(err)
	}
	return convert.ViewFromProto(res.Msg.GetView()), nil
}

// Pop runs pop (o.HasPath sends an empty path, which is pop-no-path).
func (c *Client) Pop(ctx context.Context, location string, o noggin.PopOpts) (*noggin.View, error) {
	req := &nogginv1.PopRequest{
		Location: location, Force: o.Force, CloseAll: o.CloseAll,
		Goto: convert.GotoToProto(o.Goto),
	}
	if o.HasPath {
		empty := ""
		req.Path = &empty
	}
	res, err := c.rpc.Pop(ctx, connect.NewRequest(req))
	if err != nil {
		return nil, Error(err)
	}
	return convert.ViewFromProto(res.Msg.GetView()), nil
}

// Edit runs edit.
func (c *Client) Edit(ctx context.Context, location string, o noggin.EditOpts) (*noggin.View, error) {
	res, err := c.rpc.Edit(ctx, connect.NewRequest(&nogginv1.EditRequest{
		Location: location, Path: o.Path, Done: o.Done, Title: o.Title,
		Force: o.Force, CloseAll: o.CloseAll, Goto: convert.GotoToProto(o.Goto),
	}))
	if err != nil {
		return nil, Error(err)
	}
	return convert.ViewFromProto(res.Msg.GetView()), nil
}

// Note runs note.
func (c *Client) Note(ctx context.Context, location string, o noggin.NoteOpts) (*noggin.View, error) {
	res, err := c.rpc.Note(ctx, connect.NewRequest(&nogginv1.NoteRequest{
		Location: location, Path: o.Path, Text: o.Text, Goto: convert.GotoToProto(o.Goto),
	}))
	if err != nil {
		return nil, Error(err)
	}
	return convert.ViewFromProto(res.Msg.GetView()), nil
}

// Delete runs delete.
func (c *Client) Delete(ctx context.Context, location string, o noggin.DeleteOpts) (*noggin.DeleteResult, error) {
	res, err := c.rpc.Delete(ctx, connect.NewRequest(&nogginv1.DeleteRequest{
		Location: location, Path: o.Path, Recursive: o.Recursive, Goto: convert.GotoToProto(o.Goto),
	}))
	if err != nil {
		return nil, Error(err)
	}
	return convert.DeleteFromProto(res.Msg), nil
}

// Copy appends every item of the noggin at source to the one at dest.
func (c *Client) Copy(ctx context.Context, source, dest string) (*noggin.CopyResult, error) {
	res, err := c.rpc.Copy(ctx, connect.NewRequest(&nogginv1.CopyRequest{SourceLocation: source, DestLocation: dest}))
	if err != nil {
		return nil, Error(err)
	}
	return convert.CopyFromProto(res.Msg), nil
}

// Where returns the location as supplied (it opens the noggin).
func (c *Client) Where(ctx context.Context, location string) (noggin.Location, error) {
	res, err := c.rpc.Where(ctx, connect.NewRequest(&nogginv1.WhereRequest{Location: location}))
	if err != nil {
		return "", Error(err)
	}
	return noggin.Location(res.Msg.GetLocation()), nil
}

// Providers lists the registered schemes.
func (c *Client) Providers(ctx context.Context) (noggin.Providers, error) {
	res, err := c.rpc.Providers(ctx, connect.NewRequest(&nogginv1.ProvidersRequest{}))
	if err != nil {
		return nil, Error(err)
	}
	return noggin.Providers(convert.ProvidersFromProto(res.Msg.GetProviders())), nil
}

// Find runs find. A Limit of 0 sends none (the server's default).
func (c *Client) Find(ctx context.Context, location string, o noggin.FindOpts) (*noggin.FindResult, error) {
	m := &nogginv1.FindRequest{Location: location, Query: o.Query, Open: o.Open, Done: o.Done, Under: o.Under, Limit: limit(o.Limit)}
	res, err := c.rpc.Find(ctx, connect.NewRequest(m))
	if err != nil {
		return nil, Error(err)
	}
	return convert.FindFromProto(res.Msg), nil
}

// Log runs log. A Limit of 0 sends none (the server's default).
func (c *Client) Log(ctx context.Context, location string, o noggin.LogOpts) (*noggin.LogResult, error) {
	res, err := c.rpc.Log(ctx, connect.NewRequest(&nogginv1.LogRequest{Location: location, Limit: limit(o.Limit)}))
	if err != nil {
		return nil, Error(err)
	}
	return convert.LogFromProto(res.Msg), nil
}

// Changes runs changes. A Limit of 0 sends none (the server's default).
func (c *Client) Changes(ctx context.Context, location string, o noggin.ChangesOpts) (*noggin.ChangesResult, error) {
	res, err := c.rpc.Changes(ctx, connect.NewRequest(&nogginv1.ChangesRequest{Location: location, Since: o.Since, Limit: limit(o.Limit)}))
	if err != nil {
		return nil, Error(err)
	}
	return convert.FeedFromProto(res.Msg), nil
}

// limit is a limit as the requests carry it: none for 0 (the default).
func limit(n int) *int32 {
	if n <= 0 {
		return nil
	}
	return proto.Int32(int32(min(n, math.MaxInt32)))
}

// Agents runs agents: every agent's cursor, after dropping o.Forget's
// (when set).
func (c *Client) Agents(ctx context.Context, location string, o noggin.AgentsOpts) (*noggin.AgentsResult, error) {
	m := &nogginv1.AgentsRequest{Location: location}
	if o.Forget != "" {
		m.Forget = &o.Forget
	}
	res, err := c.rpc.Agents(ctx, connect.NewRequest(m))
	if err != nil {
		return nil, Error(err)
	}
	return convert.AgentsFromProto(res.Msg), nil
}

// Undo runs undo (redo false) or redo.
func (c *Client) Undo(ctx context.Context, location string, redo bool) (*noggin.UndoResult, error) {
	if redo {
		res, err := c.rpc.Redo(ctx, connect.NewRequest(&nogginv1.RedoRequest{Location: location}))
		if err != nil {
			return nil, Error(err)
		}
		return &noggin.UndoResult{Entry: convert.EntryFromProto(res.Msg.GetEntry()), View: convert.ViewFromProto(res.Msg.GetView())}, nil
	}
	res, err := c.rpc.Undo(ctx, connect.NewRequest(&nogginv1.UndoRequest{Location: location}))
	if err != nil {
		return nil, Error(err)
	}
	return &noggin.UndoResult{Entry: convert.EntryFromProto(res.Msg.GetEntry()), View: convert.ViewFromProto(res.Msg.GetView())}, nil
}

// Call runs a verb with its MCP tool's arguments (e.g. {"noggin":
// "team.yaml", "title": "x"}) and returns the envelope exactly as the
// server encoded it (without trailing newline). Verb failures are error
// envelopes with a nil error; err is set only when the call itself failed
// (transport, authentication, arguments that are not JSON values).
func (c *Client) Call(ctx context.Context, verb string, args map[string]any) ([]byte, error) {
	return c.CallAs(ctx, "", verb, args)
}

// CallAs is Call made for agent (its own cursor; "" for the shared active
// item), sent as the Noggin-Agent header.
func (c *Client) CallAs(ctx context.Context, agent, verb string, args map[string]any) ([]byte, error) {
	env, _, err := c.CallAnswer(ctx, agent, verb, args)
	return env, err
}

// CallAnswer is CallAs with the text of a success asked for in format
// text (the CLI's words; nil otherwise) beside the envelope.
func (c *Client) CallAnswer(ctx context.Context, agent, verb string, args map[string]any) (env, text []byte, err error) {
	st, err := structpb.NewStruct(args)
	if err != nil {
		return nil, nil, err
	}
	req := connect.NewRequest(&nogginv1.CallRequest{Verb: verb, Arguments: st})
	if agent != "" {
		req.Header().Set(convert.AgentHeader, agent)
	}
	res, err := c.rpc.Call(ctx, req)
	if err != nil {
		return nil, nil, Error(err)
	}
	if t := res.Msg.GetText(); t != "" {
		text = []byte(t)
	}
	return []byte(res.Msg.GetEnvelope()), text, nil
}

// Snapshot returns the current document (accessor fields only).
func (c *Client) Snapshot(ctx context.Context, location string) (*noggin.Document, error) {
	res, err := c.rpc.Snapshot(ctx, connect.NewRequest(&nogginv1.SnapshotRequest{Location: location}))
	if err != nil {
		return nil, Error(err)
	}
	return convert.DocumentFromProto(res.Msg.GetDocument()), nil
}

// Watcher is an open Watch stream. When the server ends it as unavailable
// (a restart, a replica going away), Next subscribes again by itself.
type Watcher struct {
	stream *connect.ServerStreamForClient[nogginv1.WatchResponse]
	// Initial is the document when the subscription started.
	Initial *noggin.Document

	c        *Client
	ctx      context.Context
	location string
	last     *noggin.Document // the document after the last event
}

// reconnectFor bounds how long Next tries to subscribe again.
const reconnectFor = time.Minute

// Watch subscribes to the change events of the noggin at location. It
// returns once the server has confirmed the subscription (its initial
// document), so every change applied after Watch returns is delivered.
// Cancel ctx or call Close to unsubscribe.
func (c *Client) Watch(ctx context.Context, location string) (*Watcher, error) {
	stream, doc, err := c.subscribe(ctx, location)
	if err != nil {
		return nil, err
	}
	return &Watcher{stream: stream, Initial: doc, c: c, ctx: ctx, location: location, last: doc}, nil
}

// subscribe opens a Watch stream and reads its initial document.
func (c *Client) subscribe(ctx context.Context, location string) (*connect.ServerStreamForClient[nogginv1.WatchResponse], *noggin.Document, error) {
	stream, err := c.rpc.Watch(ctx, connect.NewRequest(&nogginv1.WatchRequest{Location: location, Incremental: true}))
	if err != nil {
		return nil, nil, Error(err)
	}
	if !stream.Receive() {
		err := stream.Err()
		_ = stream.Close()
		if err == nil {
			err = errors.New("watch: stream ended before the subscription was confirmed")
		}
		return nil, nil, Error(err)
	}
	return stream, convert.DocumentFromProto(stream.Msg().GetDocument()), nil
}

// Next blocks for the next event: a change list with the document after it,
// or (Err set) an error that happened outside a request. A stream the
// server ended as unavailable is opened again (for up to a minute), and
// what changed meanwhile is the next event. It returns an error when the
// stream ends otherwise.
func (w *Watcher) Next() (noggin.Event, error) {
	for {
		for w.stream.Receive() {
			m := w.stream.Msg()
			if m.GetInitial() {
				continue
			}
			if m.GetError() != nil {
				return noggin.Event{Err: convert.ErrorFromProto(m.GetError())}, nil
			}
			ev := noggin.Event{Changes: convert.ChangesFromProto(m.GetChanges())}
			if m.GetDocument() != nil {
				ev.Doc = convert.DocumentFromProto(m.GetDocument())
			} else { // the changes, applied to the document the watcher has
				items := make(map[string]*noggin.Item, len(m.GetItems()))
				for _, it := range m.GetItems() {
					items[it.GetKey()] = convert.ItemFromProto(it)
				}
				doc, err := noggin.Patch(w.last, ev.Changes, items, convert.CursorsFromProto(m.GetCursors()))
				if err != nil {
					return noggin.Event{}, fmt.Errorf("watch: the server's changes do not apply: %w", err)
				}
				ev.Doc = doc
			}
			w.last = ev.Doc
			return ev, nil
		}
		err := w.stream.Err()
		if err == nil {
			return noggin.Event{}, errors.New("watch: stream closed")
		}
		if connect.CodeOf(err) != connect.CodeUnavailable {
			return noggin.Event{}, Error(err)
		}
		if err := w.resubscribe(); err != nil {
			return noggin.Event{}, err
		}
		if changes := noggin.Diff(w.last, w.Initial); len(changes) > 0 {
			w.last = w.Initial
			return noggin.Event{Changes: changes, Doc: w.Initial}, nil
		}
	}
}

// resubscribe opens the stream again, with growing pauses, until it is
// open, the watcher's context is done or reconnectFor has passed.
func (w *Watcher) resubscribe() error {
	_ = w.stream.Close()
	deadline := time.Now().Add(reconnectFor)
	wait := 100 * time.Millisecond
	for {
		stream, doc, err := w.c.subscribe(w.ctx, w.location)
		if err == nil {
			w.stream, w.Initial = stream, doc
			return nil
		}
		if w.ctx.Err() != nil || time.Now().After(deadline) {
			return err
		}
		select {
		case <-time.After(wait):
		case <-w.ctx.Done():
			return err
		}
		wait = min(2*wait, 2*time.Second)
	}
}

// Close unsubscribes.
func (w *Watcher) Close() error { return w.stream.Close() }
