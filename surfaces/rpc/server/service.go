package server

import (
	"context"
	"errors"

	"connectrpc.com/connect"

	"github.com/noggin-go/noggin/core/envelope"
	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/request"
	"github.com/noggin-go/noggin/core/store"
	nogginv1 "github.com/noggin-go/noggin/surfaces/rpc/gen/noggin/v1"
	"github.com/noggin-go/noggin/surfaces/rpc/gen/noggin/v1/nogginv1connect"
	"github.com/noggin-go/noggin/surfaces/rpc/internal/convert"
)

// service implements nogginv1connect.NogginServiceHandler. It is stateless
// per request: every call opens its noggin through the opener (the
// per-location file cache, or a team database), whose stores notice
// changes made elsewhere and serialise writes.
type service struct {
	runner  *request.Runner
	opener  request.Opener
	watches watchRegistry
	shows   showCache
}

var _ nogginv1connect.NogginServiceHandler = (*service)(nil)

func newService(eng *noggin.Engine, opener request.Opener) *service {
	return &service{
		runner:  &request.Runner{Engine: eng, Opener: opener},
		opener:  opener,
		watches: watchRegistry{done: make(chan struct{})},
	}
}

func (s *service) close()        { s.watches.close() }
func (s *service) watchers() int { return s.watches.count() }

// ConnectCode maps a noggin error to the Connect code of its failure.
func ConnectCode(e *noggin.Error) connect.Code {
	switch {
	case e.Code == noggin.CodeLocationRefused:
		return connect.CodePermissionDenied
	case e.Code == noggin.CodePathNotFound:
		return connect.CodeNotFound
	case e.Code == noggin.CodeLockTimeout, e.Code == noggin.CodeUnavailable:
		return connect.CodeUnavailable
	case e.Code == noggin.CodeCancelled && e.Get("reason") == "deadline exceeded":
		return connect.CodeDeadlineExceeded
	case e.Code == noggin.CodeCancelled:
		return connect.CodeCanceled
	case e.ExitCode == 2:
		return connect.CodeInvalidArgument
	case e.Code == noggin.CodeNogginError:
		return connect.CodeInternal
	default:
		return connect.CodeFailedPrecondition
	}
}

// toConnectError turns a verb failure into a Connect error whose message is
// the rendered message and whose detail carries the exact core error.
func toConnectError(verb string, err error) error {
	var ce *connect.Error
	if errors.As(err, &ce) {
		return ce
	}
	ne := noggin.Wrap(err)
	out := connect.NewError(ConnectCode(ne), errors.New(ne.MessageFor(verb)))
	env := string(envelope.Failure(verb, ne).Text())
	if d, derr := connect.NewErrorDetail(convert.ErrorToProto(ne, verb, env)); derr == nil {
		out.AddDetail(d)
	}
	return out
}

func (s *service) open(ctx context.Context, verb, location string) (noggin.Store, error) {
	st, err := s.opener.Open(ctx, location)
	if err != nil {
		return nil, toConnectError(verb, err)
	}
	return st, nil
}

// run runs a typed request through core's request layer: core checks and
// trims every argument, exactly as for the CLI and MCP.
func (s *service) run(ctx context.Context, req *request.Request) (noggin.Result, error) {
	env := s.runner.Run(ctx, req).Envelope
	answered(ctx, req.Verb, env)
	if !env.OK() {
		return nil, toConnectError(req.Verb, env.Err)
	}
	if rev, ok := ctx.Value(revisionKey{}).(*string); ok {
		*rev = env.Revision
	}
	return env.Data, nil
}

// viewOf runs a verb whose result is a view (absent for no target).
func (s *service) viewOf(ctx context.Context, req *request.Request) (*nogginv1.View, error) {
	data, err := s.run(ctx, req)
	if err != nil {
		return nil, err
	}
	v, _ := data.(*noggin.View)
	return convert.ViewToProto(v), nil
}

// gotoArg is a Goto message as core's goto argument: absent, true (self),
// a path, or the falsy goto (self false, an empty path, neither).
func gotoArg(g *nogginv1.Goto) request.Arg {
	switch {
	case g == nil:
		return request.Arg{}
	case g.GetSelf():
		return request.Flag(true)
	case g.GetPath() != "":
		return request.String(g.GetPath())
	}
	return request.Arg{Given: true, Value: false}
}

// withPlacement sets a Placement message's kind and anchor on req.
func withPlacement(req *request.Request, p *nogginv1.Placement) *request.Request {
	if p != nil {
		req.PlacementKind, req.Anchor = request.String(p.GetKind()), request.String(p.GetAnchor())
	}
	return req
}

func showRequest(location, path string, noChildren, withSiblings, withDescendants bool, g *nogginv1.Goto) *request.Request {
	return &request.Request{Verb: "show", Location: request.String(location), Path: request.String(path),
		NoChildren: request.Flag(noChildren), WithSiblings: request.Flag(withSiblings),
		WithDescendants: request.Flag(withDescendants), Goto: gotoArg(g)}
}

// pinnedOpener opens one store pinned to one document (store.Pinned), so
// that a view is computed from exactly the document it is cached under.
type pinnedOpener struct {
	store.Opener
	st noggin.Store
}

func (p pinnedOpener) Open(context.Context, string) (noggin.Store, error) { return p.st, nil }

func (s *service) Show(ctx context.Context, req *connect.Request[nogginv1.ShowRequest]) (*connect.Response[nogginv1.ShowResponse], error) {
	m := req.Msg
	st, err := s.open(ctx, "show", m.GetLocation())
	if err != nil {
		return nil, err
	}
	doc, err := st.Load(ctx)
	if err != nil {
		return nil, toConnectError("show", err)
	}
	k := showKey{m.GetPath(), m.GetNoChildren(), m.GetWithSiblings(), m.GetWithDescendants()}
	if v, ok := s.shows.get(st, doc, k); ok {
		return connect.NewResponse(&nogginv1.ShowResponse{View: v}), nil
	}
	// The view is computed on the document just loaded, so that it can be
	// cached for exactly that document.
	r := *s.runner
	r.Opener = pinnedOpener{st: store.Pinned(st, doc)}
	env := r.Run(ctx, showRequest(m.GetLocation(), k.path, k.noChildren, k.withSiblings, k.withDescendants, nil)).Envelope
	if !env.OK() {
		return nil, toConnectError("show", env.Err)
	}
	view, _ := env.Data.(*noggin.View)
	v := convert.ViewToProto(view)
	s.shows.put(st, doc, k, v)
	return connect.NewResponse(&nogginv1.ShowResponse{View: v}), nil
}

func (s *service) ShowGoto(ctx context.Context, req *connect.Request[nogginv1.ShowGotoRequest]) (*connect.Response[nogginv1.ShowGotoResponse], error) {
	m := req.Msg
	v, err := s.viewOf(ctx, showRequest(m.GetLocation(), m.GetPath(), m.GetNoChildren(), m.GetWithSiblings(), m.GetWithDescendants(), m.GetGoto()))
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&nogginv1.ShowGotoResponse{View: v}), nil
}

func (s *service) Push(ctx context.Context, req *connect.Request[nogginv1.PushRequest]) (*connect.Response[nogginv1.PushResponse], error) {
	m := req.Msg
	v, err := s.viewOf(ctx, &request.Request{Verb: "push", Location: request.String(m.GetLocation()), IfRevision: request.OptString(m.IfRevision), Title: request.String(m.GetTitle())})
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&nogginv1.PushResponse{View: v}), nil
}

func (s *service) Add(ctx context.Context, req *connect.Request[nogginv1.AddRequest]) (*connect.Response[nogginv1.AddResponse], error) {
	m := req.Msg
	v, err := s.viewOf(ctx, withPlacement(&request.Request{Verb: "add", Location: request.String(m.GetLocation()), IfRevision: request.OptString(m.IfRevision),
		Title: request.String(m.GetTitle()), Goto: gotoArg(m.GetGoto())}, m.GetPlacement()))
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&nogginv1.AddResponse{View: v}), nil
}

func (s *service) Move(ctx context.Context, req *connect.Request[nogginv1.MoveRequest]) (*connect.Response[nogginv1.MoveResponse], error) {
	m := req.Msg
	v, err := s.viewOf(ctx, withPlacement(&request.Request{Verb: "move", Location: request.String(m.GetLocation()), IfRevision: request.OptString(m.IfRevision),
		Path: request.String(m.GetPath()), Goto: gotoArg(m.GetGoto())}, m.GetPlacement()))
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&nogginv1.MoveResponse{View: v}), nil
}

func (s *service) Goto(ctx context.Context, req *connect.Request[nogginv1.GotoRequest]) (*connect.Response[nogginv1.GotoResponse], error) {
	m := req.Msg
	v, err := s.viewOf(ctx, &request.Request{Verb: "goto", Location: request.String(m.GetLocation()), IfRevision: request.OptString(m.IfRevision), Path: request.String(m.GetPath())})
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&nogginv1.GotoResponse{View: v}), nil
}

func (s *service) Done(ctx context.Context, req *connect.Request[nogginv1.DoneRequest]) (*connect.Response[nogginv1.DoneResponse], error) {
	m := req.Msg
	v, err := s.viewOf(ctx, &request.Request{Verb: "done", Location: request.String(m.GetLocation()), IfRevision: request.OptString(m.IfRevision), Path: request.String(m.GetPath()),
		Force: request.Flag(m.GetForce()), CloseAll: request.Flag(m.GetCloseAll()), Goto: gotoArg(m.GetGoto())})
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&nogginv1.DoneResponse{View: v}), nil
}

func (s *service) Pop(ctx context.Context, req *connect.Request[nogginv1.PopRequest]) (*connect.Response[nogginv1.PopResponse], error) {
	m := req.Msg
	v, err := s.viewOf(ctx, &request.Request{Verb: "pop", Location: request.String(m.GetLocation()), IfRevision: request.OptString(m.IfRevision), Path: request.OptString(m.Path),
		Force: request.Flag(m.GetForce()), CloseAll: request.Flag(m.GetCloseAll()), Goto: gotoArg(m.GetGoto())})
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&nogginv1.PopResponse{View: v}), nil
}

func (s *service) Edit(ctx context.Context, req *connect.Request[nogginv1.EditRequest]) (*connect.Response[nogginv1.EditResponse], error) {
	m := req.Msg
	r := &request.Request{Verb: "edit", Location: request.String(m.GetLocation()), IfRevision: request.OptString(m.IfRevision), Path: request.String(m.GetPath()),
		Title: request.OptString(m.Title), Force: request.Flag(m.GetForce()), CloseAll: request.Flag(m.GetCloseAll()),
		Goto: gotoArg(m.GetGoto())}
	if m.Done != nil {
		r.Done, r.Open = request.Flag(*m.Done), request.Flag(!*m.Done)
	}
	v, err := s.viewOf(ctx, r)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&nogginv1.EditResponse{View: v}), nil
}

func (s *service) Note(ctx context.Context, req *connect.Request[nogginv1.NoteRequest]) (*connect.Response[nogginv1.NoteResponse], error) {
	m := req.Msg
	v, err := s.viewOf(ctx, &request.Request{Verb: "note", Location: request.String(m.GetLocation()), IfRevision: request.OptString(m.IfRevision), Path: request.String(m.GetPath()),
		Text: request.String(m.GetText()), Goto: gotoArg(m.GetGoto())})
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&nogginv1.NoteResponse{View: v}), nil
}

func (s *service) Delete(ctx context.Context, req *connect.Request[nogginv1.DeleteRequest]) (*connect.Response[nogginv1.DeleteResponse], error) {
	m := req.Msg
	data, err := s.run(ctx, &request.Request{Verb: "delete", Location: request.String(m.GetLocation()), IfRevision: request.OptString(m.IfRevision), Path: request.String(m.GetPath()),
		Recursive: request.Flag(m.GetRecursive()), Goto: gotoArg(m.GetGoto())})
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(convert.DeleteToProto(data.(*noggin.DeleteResult))), nil
}

func (s *service) Copy(ctx context.Context, req *connect.Request[nogginv1.CopyRequest]) (*connect.Response[nogginv1.CopyResponse], error) {
	m := req.Msg
	data, err := s.run(ctx, &request.Request{Verb: "copy", From: request.String(m.GetSourceLocation()), To: request.String(m.GetDestLocation())})
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(convert.CopyToProto(data.(*noggin.CopyResult))), nil
}

func (s *service) Where(ctx context.Context, req *connect.Request[nogginv1.WhereRequest]) (*connect.Response[nogginv1.WhereResponse], error) {
	data, err := s.run(ctx, &request.Request{Verb: "where", Location: request.String(req.Msg.GetLocation())})
	if err != nil {
		return nil, err
	}
	if l, ok := data.(noggin.AgentLocation); ok {
		return connect.NewResponse(&nogginv1.WhereResponse{Location: l.Location, Agent: &l.Agent}), nil
	}
	return connect.NewResponse(&nogginv1.WhereResponse{Location: string(data.(noggin.Location))}), nil
}

func (s *service) Providers(ctx context.Context, _ *connect.Request[nogginv1.ProvidersRequest]) (*connect.Response[nogginv1.ProvidersResponse], error) {
	data, err := s.run(ctx, &request.Request{Verb: "providers"})
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&nogginv1.ProvidersResponse{Providers: convert.ProvidersToProto(data.(noggin.Providers))}), nil
}

// limitArg is an optional limit as core's limit argument.
func limitArg(l *int32) request.Arg {
	if l == nil {
		return request.Arg{}
	}
	return request.Arg{Given: true, Value: float64(*l)}
}

func (s *service) Find(ctx context.Context, req *connect.Request[nogginv1.FindRequest]) (*connect.Response[nogginv1.FindResponse], error) {
	m := req.Msg
	data, err := s.run(ctx, &request.Request{Verb: "find", Location: request.String(m.GetLocation()), By: request.OptString(m.By), Query: request.String(m.GetQuery()),
		Open: request.Flag(m.GetOpen()), Done: request.Flag(m.GetDone()), Under: request.String(m.GetUnder()), Limit: limitArg(m.Limit)})
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(convert.FindToProto(data.(*noggin.FindResult))), nil
}

func (s *service) Log(ctx context.Context, req *connect.Request[nogginv1.LogRequest]) (*connect.Response[nogginv1.LogResponse], error) {
	m := req.Msg
	data, err := s.run(ctx, &request.Request{Verb: "log", Location: request.String(m.GetLocation()), Limit: limitArg(m.Limit), By: request.OptString(m.By)})
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(convert.LogToProto(data.(*noggin.LogResult))), nil
}

func (s *service) Changes(ctx context.Context, req *connect.Request[nogginv1.ChangesRequest]) (*connect.Response[nogginv1.ChangesResponse], error) {
	m := req.Msg
	data, err := s.run(ctx, &request.Request{Verb: "changes", Location: request.String(m.GetLocation()), Since: request.String(m.GetSince()), Limit: limitArg(m.Limit)})
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(convert.FeedToProto(data.(*noggin.ChangesResult))), nil
}

func (s *service) Agents(ctx context.Context, req *connect.Request[nogginv1.AgentsRequest]) (*connect.Response[nogginv1.AgentsResponse], error) {
	data, err := s.run(ctx, &request.Request{Verb: "agents", Location: request.String(req.Msg.GetLocation()), IfRevision: request.OptString(req.Msg.IfRevision), Forget: request.OptString(req.Msg.Forget)})
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(convert.AgentsToProto(data.(*noggin.AgentsResult))), nil
}

func (s *service) Undo(ctx context.Context, req *connect.Request[nogginv1.UndoRequest]) (*connect.Response[nogginv1.UndoResponse], error) {
	data, err := s.run(ctx, &request.Request{Verb: "undo", Location: request.String(req.Msg.GetLocation()), IfRevision: request.OptString(req.Msg.IfRevision)})
	if err != nil {
		return nil, err
	}
	r := data.(*noggin.UndoResult)
	return connect.NewResponse(&nogginv1.UndoResponse{Entry: convert.EntryToProto(r.Entry), View: convert.ViewToProto(r.View)}), nil
}

func (s *service) Redo(ctx context.Context, req *connect.Request[nogginv1.RedoRequest]) (*connect.Response[nogginv1.RedoResponse], error) {
	data, err := s.run(ctx, &request.Request{Verb: "redo", Location: request.String(req.Msg.GetLocation()), IfRevision: request.OptString(req.Msg.IfRevision)})
	if err != nil {
		return nil, err
	}
	r := data.(*noggin.UndoResult)
	return connect.NewResponse(&nogginv1.RedoResponse{Entry: convert.EntryToProto(r.Entry), View: convert.ViewToProto(r.View)}), nil
}

// Call runs a verb with its MCP tool's arguments and answers the canonical
// envelope, success or failure, as the server encoded it (and the CLI's
// text of a success asked for in format text).
func (s *service) Call(ctx context.Context, req *connect.Request[nogginv1.CallRequest]) (*connect.Response[nogginv1.CallResponse], error) {
	res := s.runner.RunCall(ctx, req.Msg.GetVerb(), req.Msg.GetArguments().AsMap())
	env := res.Envelope
	answered(ctx, req.Msg.GetVerb(), env)
	return connect.NewResponse(&nogginv1.CallResponse{Envelope: string(env.Text()), Ok: env.OK(), Text: string(res.Text)}), nil
}

// maxList is the most names List answers.
const maxList = 1000

func (s *service) List(ctx context.Context, _ *connect.Request[nogginv1.ListRequest]) (*connect.Response[nogginv1.ListResponse], error) {
	l, ok := s.opener.(request.Lister)
	if !ok {
		return nil, connect.NewError(connect.CodeUnimplemented, errors.New("list: this server cannot name its noggins"))
	}
	names, truncated, err := l.List(ctx, maxList)
	if err != nil {
		return nil, connect.NewError(connect.CodeUnavailable, errors.New("list: the noggins cannot be listed"))
	}
	return connect.NewResponse(&nogginv1.ListResponse{Names: names, Truncated: truncated}), nil
}

func (s *service) Snapshot(ctx context.Context, req *connect.Request[nogginv1.SnapshotRequest]) (*connect.Response[nogginv1.SnapshotResponse], error) {
	st, err := s.open(ctx, "snapshot", req.Msg.GetLocation())
	if err != nil {
		return nil, err
	}
	doc, err := st.Load(ctx)
	if err != nil {
		return nil, toConnectError("snapshot", err)
	}
	return connect.NewResponse(&nogginv1.SnapshotResponse{Document: s.shows.document(ctx, st, doc)}), nil
}

// patchMessage is the incremental Watch message from last, the document
// the client has, to next: the changes from last (merged events hold
// several diffs in a row; Patch takes one), the items they touch and the
// cursors, or the document when there are more than maxPatch changes; nil
// when nothing changed.
func (s *service) patchMessage(ctx context.Context, st noggin.Store, last, next *noggin.Document) *nogginv1.WatchResponse {
	changes := noggin.Diff(last, next)
	msg := &nogginv1.WatchResponse{Revision: next.Revision(), Changes: convert.ChangesToProto(changes)}
	if len(changes) == 0 && msg.Revision == last.Revision() {
		return nil
	}
	if len(changes) > maxPatch {
		msg.Document = s.shows.document(ctx, st, next)
		return msg
	}
	for _, it := range noggin.Touched(next, changes) {
		msg.Items = append(msg.Items, convert.ItemToProto(it))
	}
	msg.Cursors = convert.CursorsToProto(next.Cursors())
	return msg
}

// maxPatch is the most changes an incremental Watch message carries
// without the document: more (a client that fell behind, a delete that
// shifts many siblings) and the whole document is cheaper to apply.
const maxPatch = 64

func (s *service) Watch(ctx context.Context, req *connect.Request[nogginv1.WatchRequest], stream *connect.ServerStream[nogginv1.WatchResponse]) error {
	done, ok := s.watches.enter()
	if !ok {
		return connect.NewError(connect.CodeUnavailable, errors.New("server is shutting down"))
	}
	defer s.watches.leave()
	st, err := s.open(ctx, "watch", req.Msg.GetLocation())
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	events := st.Watch(ctx)
	defer func() {
		cancel()
		// The store closes the channel once it sees ctx done; drain it so
		// its sender never blocks on a subscriber that has gone.
		go func() {
			for range events {
			}
		}()
	}()
	doc, err := st.Load(ctx)
	if err != nil {
		return toConnectError("watch", err)
	}
	window := int(min(req.Msg.GetWindow(), maxWindow))
	// send sends msg with the document full, whole or (window) in parts.
	send := func(msg *nogginv1.WatchResponse, full *nogginv1.Document) error {
		if window == 0 {
			msg.Document = full
			return stream.Send(msg)
		}
		msg.Document, msg.Shape = windowed(full, window)
		if err := stream.Send(msg); err != nil {
			return err
		}
		if len(msg.Shape.Indexes) == len(full.GetItems()) {
			return nil // the window holds every item
		}
		for _, part := range documentParts(full) {
			if err := stream.Send(&nogginv1.WatchResponse{Part: part, Revision: msg.Revision}); err != nil {
				return err
			}
		}
		return nil
	}
	if err := send(&nogginv1.WatchResponse{Initial: true, Revision: doc.Revision()}, s.shows.document(ctx, st, doc)); err != nil {
		return err
	}
	incremental, last := req.Msg.GetIncremental(), doc // the document the client has
	// A stream that the server ends (shutdown) ends unavailable: the
	// client should reconnect, to this server or another replica.
	shutdown := connect.NewError(connect.CodeUnavailable, errors.New("watch: the server is shutting down; reconnect"))
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-done:
			return shutdown
		case ev, ok := <-events:
			if !ok {
				return shutdown
			}
			msg := &nogginv1.WatchResponse{}
			switch {
			case ev.Err != nil:
				ne := noggin.Wrap(ev.Err)
				msg.Error = convert.ErrorToProto(ne, "watch", string(envelope.Failure("watch", ne).Text()))
			case incremental:
				if msg = s.patchMessage(ctx, st, last, ev.Doc); msg == nil {
					continue
				}
				last = ev.Doc
			case len(ev.Changes) == 0:
				continue
			default:
				msg.Changes = convert.ChangesToProto(ev.Changes)
				msg.Document = s.shows.document(ctx, st, ev.Doc)
				msg.Revision = ev.Doc.Revision()
			}
			full := msg.Document
			msg.Document = nil
			if full == nil {
				err = stream.Send(msg)
			} else {
				err = send(msg, full)
			}
			if err != nil {
				return err
			}
		}
	}
}
