package server

import (
	"context"
	"errors"

	"connectrpc.com/connect"

	"github.com/noggin-go/noggin/core/envelope"
	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/store"
	nogginv1 "github.com/noggin-go/noggin/surfaces/rpc/gen/noggin/v1"
	"github.com/noggin-go/noggin/surfaces/rpc/gen/noggin/v1/nogginv1connect"
	"github.com/noggin-go/noggin/surfaces/rpc/internal/convert"
)

// service implements nogginv1connect.NogginServiceHandler. It is stateless
// per request: every call opens its noggin through the per-location cache,
// whose stores notice external changes and serialise writes.
type service struct {
	eng     *noggin.Engine
	opts    store.Options
	cache   *store.Cache
	watches watchRegistry
	shows   showCache
}

var _ nogginv1connect.NogginServiceHandler = (*service)(nil)

func newService(eng *noggin.Engine, opts store.Options) *service {
	return &service{
		eng:     eng,
		opts:    opts,
		cache:   store.NewCache(opts),
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
	case e.Code == noggin.CodeLockTimeout:
		return connect.CodeUnavailable
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

func (s *service) open(verb, location string) (noggin.Store, error) {
	st, err := s.cache.Open(location)
	if err != nil {
		return nil, toConnectError(verb, err)
	}
	return st, nil
}

// viewCall runs a verb that returns a view.
func (s *service) viewCall(verb, location string, run func(noggin.Store) (*noggin.View, error)) (*nogginv1.View, error) {
	st, err := s.open(verb, location)
	if err != nil {
		return nil, err
	}
	v, err := run(st)
	if err != nil {
		return nil, toConnectError(verb, err)
	}
	return convert.ViewToProto(v), nil
}

func showOpts(path string, noChildren, withSiblings, withDescendants bool, g *nogginv1.Goto) noggin.ShowOpts {
	return noggin.ShowOpts{
		Path:            path,
		NoChildren:      noChildren,
		WithSiblings:    withSiblings,
		WithDescendants: withDescendants,
		Goto:            convert.GotoFromProto(g),
	}
}

func (s *service) Show(_ context.Context, req *connect.Request[nogginv1.ShowRequest]) (*connect.Response[nogginv1.ShowResponse], error) {
	m := req.Msg
	st, err := s.open("show", m.GetLocation())
	if err != nil {
		return nil, err
	}
	doc, err := st.Load()
	if err != nil {
		return nil, toConnectError("show", err)
	}
	k := showKey{m.GetPath(), m.GetNoChildren(), m.GetWithSiblings(), m.GetWithDescendants()}
	if v, ok := s.shows.get(st, doc, k); ok {
		return connect.NewResponse(&nogginv1.ShowResponse{View: v}), nil
	}
	view, err := s.eng.Show(pinnedStore{st, doc}, showOpts(k.path, k.noChildren, k.withSiblings, k.withDescendants, nil))
	if err != nil {
		return nil, toConnectError("show", err)
	}
	v := convert.ViewToProto(view)
	s.shows.put(st, doc, k, v)
	return connect.NewResponse(&nogginv1.ShowResponse{View: v}), nil
}

func (s *service) ShowGoto(_ context.Context, req *connect.Request[nogginv1.ShowGotoRequest]) (*connect.Response[nogginv1.ShowGotoResponse], error) {
	m := req.Msg
	v, err := s.viewCall("show", m.GetLocation(), func(st noggin.Store) (*noggin.View, error) {
		return s.eng.Show(st, showOpts(m.GetPath(), m.GetNoChildren(), m.GetWithSiblings(), m.GetWithDescendants(), m.GetGoto()))
	})
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&nogginv1.ShowGotoResponse{View: v}), nil
}

func (s *service) Push(_ context.Context, req *connect.Request[nogginv1.PushRequest]) (*connect.Response[nogginv1.PushResponse], error) {
	m := req.Msg
	v, err := s.viewCall("push", m.GetLocation(), func(st noggin.Store) (*noggin.View, error) {
		return s.eng.Push(st, noggin.PushOpts{Title: m.GetTitle()})
	})
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&nogginv1.PushResponse{View: v}), nil
}

func (s *service) Add(_ context.Context, req *connect.Request[nogginv1.AddRequest]) (*connect.Response[nogginv1.AddResponse], error) {
	m := req.Msg
	v, err := s.viewCall("add", m.GetLocation(), func(st noggin.Store) (*noggin.View, error) {
		return s.eng.Add(st, noggin.AddOpts{
			Title:     m.GetTitle(),
			Placement: convert.PlacementFromProto(m.GetPlacement()),
			Goto:      convert.GotoFromProto(m.GetGoto()),
		})
	})
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&nogginv1.AddResponse{View: v}), nil
}

func (s *service) Move(_ context.Context, req *connect.Request[nogginv1.MoveRequest]) (*connect.Response[nogginv1.MoveResponse], error) {
	m := req.Msg
	v, err := s.viewCall("move", m.GetLocation(), func(st noggin.Store) (*noggin.View, error) {
		return s.eng.Move(st, noggin.MoveOpts{
			Path:      m.GetPath(),
			Placement: convert.PlacementFromProto(m.GetPlacement()),
			Goto:      convert.GotoFromProto(m.GetGoto()),
		})
	})
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&nogginv1.MoveResponse{View: v}), nil
}

func (s *service) Goto(_ context.Context, req *connect.Request[nogginv1.GotoRequest]) (*connect.Response[nogginv1.GotoResponse], error) {
	m := req.Msg
	v, err := s.viewCall("goto", m.GetLocation(), func(st noggin.Store) (*noggin.View, error) {
		return s.eng.Goto(st, noggin.GotoOpts{Path: m.GetPath()})
	})
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&nogginv1.GotoResponse{View: v}), nil
}

func (s *service) Done(_ context.Context, req *connect.Request[nogginv1.DoneRequest]) (*connect.Response[nogginv1.DoneResponse], error) {
	m := req.Msg
	v, err := s.viewCall("done", m.GetLocation(), func(st noggin.Store) (*noggin.View, error) {
		return s.eng.Done(st, noggin.DoneOpts{
			Path:     m.GetPath(),
			Force:    m.GetForce(),
			CloseAll: m.GetCloseAll(),
			Goto:     convert.GotoFromProto(m.GetGoto()),
		})
	})
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&nogginv1.DoneResponse{View: v}), nil
}

func (s *service) Pop(_ context.Context, req *connect.Request[nogginv1.PopRequest]) (*connect.Response[nogginv1.PopResponse], error) {
	m := req.Msg
	v, err := s.viewCall("pop", m.GetLocation(), func(st noggin.Store) (*noggin.View, error) {
		return s.eng.Pop(st, noggin.PopOpts{
			HasPath:  m.Path != nil,
			Force:    m.GetForce(),
			CloseAll: m.GetCloseAll(),
			Goto:     convert.GotoFromProto(m.GetGoto()),
		})
	})
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&nogginv1.PopResponse{View: v}), nil
}

func (s *service) Edit(_ context.Context, req *connect.Request[nogginv1.EditRequest]) (*connect.Response[nogginv1.EditResponse], error) {
	m := req.Msg
	v, err := s.viewCall("edit", m.GetLocation(), func(st noggin.Store) (*noggin.View, error) {
		return s.eng.Edit(st, noggin.EditOpts{
			Path:     m.GetPath(),
			Done:     m.Done,
			Title:    m.Title,
			Force:    m.GetForce(),
			CloseAll: m.GetCloseAll(),
			Goto:     convert.GotoFromProto(m.GetGoto()),
		})
	})
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&nogginv1.EditResponse{View: v}), nil
}

func (s *service) Note(_ context.Context, req *connect.Request[nogginv1.NoteRequest]) (*connect.Response[nogginv1.NoteResponse], error) {
	m := req.Msg
	v, err := s.viewCall("note", m.GetLocation(), func(st noggin.Store) (*noggin.View, error) {
		return s.eng.Note(st, noggin.NoteOpts{
			Path: m.GetPath(),
			Text: m.GetText(),
			Goto: convert.GotoFromProto(m.GetGoto()),
		})
	})
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&nogginv1.NoteResponse{View: v}), nil
}

func (s *service) Delete(_ context.Context, req *connect.Request[nogginv1.DeleteRequest]) (*connect.Response[nogginv1.DeleteResponse], error) {
	m := req.Msg
	st, err := s.open("delete", m.GetLocation())
	if err != nil {
		return nil, err
	}
	r, err := s.eng.Delete(st, noggin.DeleteOpts{
		Path:      m.GetPath(),
		Recursive: m.GetRecursive(),
		Goto:      convert.GotoFromProto(m.GetGoto()),
	})
	if err != nil {
		return nil, toConnectError("delete", err)
	}
	return connect.NewResponse(convert.DeleteToProto(r)), nil
}

func (s *service) Copy(_ context.Context, req *connect.Request[nogginv1.CopyRequest]) (*connect.Response[nogginv1.CopyResponse], error) {
	m := req.Msg
	src, err := s.open("copy", m.GetSourceLocation())
	if err != nil {
		return nil, err
	}
	dst, err := s.open("copy", m.GetDestLocation())
	if err != nil {
		return nil, err
	}
	r, err := s.eng.Copy(src, dst)
	if err != nil {
		return nil, toConnectError("copy", err)
	}
	return connect.NewResponse(convert.CopyToProto(r)), nil
}

func (s *service) Where(_ context.Context, req *connect.Request[nogginv1.WhereRequest]) (*connect.Response[nogginv1.WhereResponse], error) {
	st, err := s.open("where", req.Msg.GetLocation())
	if err != nil {
		return nil, err
	}
	if _, err := st.Load(); err != nil {
		return nil, toConnectError("where", err)
	}
	return connect.NewResponse(&nogginv1.WhereResponse{Location: st.Describe()}), nil
}

func (s *service) Providers(context.Context, *connect.Request[nogginv1.ProvidersRequest]) (*connect.Response[nogginv1.ProvidersResponse], error) {
	return connect.NewResponse(&nogginv1.ProvidersResponse{Providers: convert.ProvidersToProto(store.Providers(s.opts))}), nil
}

func (s *service) Snapshot(_ context.Context, req *connect.Request[nogginv1.SnapshotRequest]) (*connect.Response[nogginv1.SnapshotResponse], error) {
	st, err := s.open("snapshot", req.Msg.GetLocation())
	if err != nil {
		return nil, err
	}
	doc, err := st.Load()
	if err != nil {
		return nil, toConnectError("snapshot", err)
	}
	return connect.NewResponse(&nogginv1.SnapshotResponse{Document: s.shows.document(st, doc)}), nil
}

func (s *service) Watch(ctx context.Context, req *connect.Request[nogginv1.WatchRequest], stream *connect.ServerStream[nogginv1.WatchResponse]) error {
	done, ok := s.watches.enter()
	if !ok {
		return connect.NewError(connect.CodeUnavailable, errors.New("server is shutting down"))
	}
	defer s.watches.leave()
	st, err := s.open("watch", req.Msg.GetLocation())
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
	doc, err := st.Load()
	if err != nil {
		return toConnectError("watch", err)
	}
	if err := stream.Send(&nogginv1.WatchResponse{Initial: true, Document: s.shows.document(st, doc)}); err != nil {
		return err
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-done:
			return nil
		case ev, ok := <-events:
			if !ok {
				return nil
			}
			msg := &nogginv1.WatchResponse{}
			if ev.Err != nil {
				ne := noggin.Wrap(ev.Err)
				msg.Error = convert.ErrorToProto(ne, "watch", string(envelope.Failure("watch", ne).Text()))
			} else {
				if len(ev.Changes) == 0 {
					continue
				}
				msg.Changes = convert.ChangesToProto(ev.Changes)
				msg.Document = s.shows.document(st, ev.Doc)
			}
			if err := stream.Send(msg); err != nil {
				return err
			}
		}
	}
}
