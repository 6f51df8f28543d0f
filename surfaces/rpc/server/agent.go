package server

import (
	"context"

	"connectrpc.com/connect"

	"github.com/noggin-go/noggin/core/request"
	"github.com/noggin-go/noggin/surfaces/rpc/internal/convert"
)

// agentInterceptor hands a call's Noggin-Agent header to core, which
// checks it (invalid-agent) and runs the verb on that agent's cursor, and
// answers a typed call's revision (the envelope's, which typed messages
// do not carry) in the Noggin-Revision header.
type agentInterceptor struct{}

// revisionKey holds a typed call's *string revision, set by service.run.
type revisionKey struct{}

var _ connect.Interceptor = agentInterceptor{}

func (agentInterceptor) WrapUnary(next connect.UnaryFunc) connect.UnaryFunc {
	return func(ctx context.Context, req connect.AnyRequest) (connect.AnyResponse, error) {
		rev := new(string)
		ctx = context.WithValue(request.WithAgent(ctx, req.Header().Get(convert.AgentHeader)), revisionKey{}, rev)
		res, err := next(ctx, req)
		if err == nil && *rev != "" {
			res.Header().Set(convert.RevisionHeader, *rev)
		}
		return res, err
	}
}

func (agentInterceptor) WrapStreamingClient(next connect.StreamingClientFunc) connect.StreamingClientFunc {
	return next
}

func (agentInterceptor) WrapStreamingHandler(next connect.StreamingHandlerFunc) connect.StreamingHandlerFunc {
	return func(ctx context.Context, conn connect.StreamingHandlerConn) error {
		return next(request.WithAgent(ctx, conn.RequestHeader().Get(convert.AgentHeader)), conn)
	}
}
