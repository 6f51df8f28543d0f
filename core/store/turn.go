package store

import (
	"context"

	"github.com/noggin-go/noggin/core/noggin"
)

// turn is a mutex whose wait stops when the caller goes away: writers of
// one noggin in one process take turns through it, and a writer whose
// context is done while it waits gives up with the cancelled error.
// The zero value is not usable; make it with newTurn.
type turn chan struct{}

func newTurn() turn { return make(turn, 1) }

// take waits for the turn or for ctx to be done.
func (t turn) take(ctx context.Context) error {
	if err := noggin.Cancelled(ctx); err != nil {
		return err
	}
	select {
	case t <- struct{}{}:
		return nil
	case <-ctx.Done():
		return noggin.Cancelled(ctx)
	}
}

// give hands the turn on.
func (t turn) give() { <-t }
