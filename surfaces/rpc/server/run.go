package server

import (
	"context"
	"errors"

	"connectrpc.com/connect"

	"github.com/noggin-go/noggin/core/request"
	nogginv1 "github.com/noggin-go/noggin/surfaces/rpc/gen/noggin/v1"
)

// Run runs a remote client's request with the same request layer the
// client would use locally, so the envelope is the local one. A write made
// for a request id is recorded with its answer in the noggin's history,
// and a retry with that id gets that answer instead of a second write,
// whichever replica receives it and after a restart too.
func (s *service) Run(ctx context.Context, req *connect.Request[nogginv1.RunRequest]) (*connect.Response[nogginv1.RunResponse], error) {
	var r request.Request
	if err := r.UnmarshalJSON([]byte(req.Msg.GetRequest())); err != nil {
		return nil, connect.NewError(connect.CodeInvalidArgument, errors.New("run: "+err.Error()+" (is the client newer than this server?)"))
	}
	if id := req.Msg.GetRequestId(); id != "" {
		if !request.ValidID(id) {
			return nil, connect.NewError(connect.CodeInvalidArgument, errors.New("run: a request id is 1 to 128 of the characters a-z A-Z 0-9 . - _ and : (colon)"))
		}
		r.ID = id
	}
	env := s.runner.Run(ctx, &r).Envelope
	answered(ctx, r.Verb, env)
	return connect.NewResponse(&nogginv1.RunResponse{Envelope: string(env.Text()), Ok: env.OK()}), nil
}
