package server

import (
	"context"

	"connectrpc.com/connect"

	"github.com/noggin-go/noggin/core/request"
	"github.com/noggin-go/noggin/surfaces/rpc/internal/convert"
)

// agentInterceptor hands a call's Noggin-Agent header to core, which
// checks it (invalid-agent) and runs the verb on that agent's cursor.
type agentInterceptor struct{}

var _ connect.Interceptor = agentInterceptor{}

func (agentInterceptor) WrapUnary(next connect.UnaryFunc) connect.UnaryFunc {
	return func(ctx context.Context, req connect.AnyRequest) (connect.AnyResponse, error) {
		return next(request.WithAgent(ctx, req.Header().Get(convert.AgentHeader)), req)
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
