//go:build !rpcclient

package e2e

import (
	"context"
	"errors"
)

// RPCSurface is a placeholder until the RPC client's generated code lands.
type RPCSurface struct{}

// NewRPCSurface reports that the RPC client is not available yet.
func NewRPCSurface(addr string) (*RPCSurface, error) {
	return nil, errors.New("the RPC Go client does not build yet (generated code missing)")
}

// Name implements Surface.
func (r *RPCSurface) Name() string { return RPC }

// Do implements Surface.
func (r *RPCSurface) Do(ctx context.Context, s *Scenario, st *Step) *Outcome {
	return &Outcome{Err: errors.New("not available")}
}
