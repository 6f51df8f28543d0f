package server

import (
	"context"
	"errors"
	"sync"
	"time"

	"connectrpc.com/connect"

	"github.com/noggin-go/noggin/core/request"
	nogginv1 "github.com/noggin-go/noggin/surfaces/rpc/gen/noggin/v1"
)

// Run runs a remote client's request with the same request layer the
// client would use locally, so the envelope is the local one. A request id
// seen in the last replayWindow answers the first answer again: a client
// that lost a response retries without applying the verb twice.
func (s *service) Run(ctx context.Context, req *connect.Request[nogginv1.RunRequest]) (*connect.Response[nogginv1.RunResponse], error) {
	id := req.Msg.GetRequestId()
	if id != "" {
		if r, ok := s.replays.get(id); ok {
			return connect.NewResponse(r), nil
		}
	}
	var r request.Request
	if err := r.UnmarshalJSON([]byte(req.Msg.GetRequest())); err != nil {
		return nil, connect.NewError(connect.CodeInvalidArgument, errors.New("run: "+err.Error()+" (is the client newer than this server?)"))
	}
	if id != "" {
		// One run per id, even when the retry arrives while the first
		// attempt still runs.
		unlock := s.replays.lock(id)
		defer unlock()
		if res, ok := s.replays.get(id); ok {
			return connect.NewResponse(res), nil
		}
	}
	env := s.runner.Run(ctx, &r).Envelope
	res := &nogginv1.RunResponse{Envelope: string(env.Text()), Ok: env.OK()}
	if id != "" {
		s.replays.put(id, res)
	}
	return connect.NewResponse(res), nil
}

// replayWindow is how long a request id is remembered.
const replayWindow = 10 * time.Minute

// maxReplays bounds the remembered answers (the oldest go first).
const maxReplays = 10000

// replays remembers the answers of recent request ids.
type replays struct {
	mu    sync.Mutex
	byID  map[string]replay
	order []string
	locks map[string]*sync.Mutex
}

type replay struct {
	res *nogginv1.RunResponse
	at  time.Time
}

func (r *replays) get(id string) (*nogginv1.RunResponse, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e, ok := r.byID[id]
	if !ok || time.Since(e.at) > replayWindow {
		return nil, false
	}
	return e.res, true
}

func (r *replays) put(id string, res *nogginv1.RunResponse) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.byID == nil {
		r.byID = map[string]replay{}
	}
	now := time.Now()
	for len(r.order) > 0 && (len(r.order) >= maxReplays || now.Sub(r.byID[r.order[0]].at) > replayWindow) {
		delete(r.byID, r.order[0])
		r.order = r.order[1:]
	}
	r.byID[id] = replay{res: res, at: now}
	r.order = append(r.order, id)
}

// lock serialises the attempts of one id.
func (r *replays) lock(id string) func() {
	r.mu.Lock()
	if r.locks == nil {
		r.locks = map[string]*sync.Mutex{}
	}
	m := r.locks[id]
	if m == nil {
		m = &sync.Mutex{}
		r.locks[id] = m
	}
	r.mu.Unlock()
	m.Lock()
	return func() {
		m.Unlock()
		r.mu.Lock()
		delete(r.locks, id)
		r.mu.Unlock()
	}
}
