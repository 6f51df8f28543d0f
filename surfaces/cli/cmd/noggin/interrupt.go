package main

import (
	"context"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// interruptSignals are the signals that cancel a waiting noggin: Ctrl-C
// and a polite kill.
var interruptSignals = []os.Signal{os.Interrupt, syscall.SIGTERM}

// interruptContext is the CLI's context: it is cancelled by SIGINT or
// SIGTERM, but only once something waits on it (Done) — for the noggin's
// lock, a remote server, or changes (show --watch). Until then the two
// signals are ignored, so the few milliseconds of reading, planning and
// writing always complete (a write once begun is never cut in half).
//
// Watching lazily also spares most runs, which never wait, the thread the
// Go runtime starts to wait for signals (bench/mechanisms.md); but the
// reason it stays is the rule above: a run that does not wait is never
// cancelled, it completes (docs/cli.md).
type interruptContext struct {
	once    sync.Once
	watched atomic.Pointer[context.Context]
}

// newInterruptContext ignores the interrupt signals and returns the
// context that watches them from its first Done.
func newInterruptContext() *interruptContext {
	signal.Ignore(interruptSignals...)
	return &interruptContext{}
}

func (c *interruptContext) watch() context.Context {
	c.once.Do(func() {
		ctx, _ := signal.NotifyContext(context.Background(), interruptSignals...)
		c.watched.Store(&ctx)
	})
	return *c.watched.Load()
}

// Done starts watching the interrupt signals.
func (c *interruptContext) Done() <-chan struct{} { return c.watch().Done() }

// Err is nil until a watched signal arrived.
func (c *interruptContext) Err() error {
	if ctx := c.watched.Load(); ctx != nil {
		return (*ctx).Err()
	}
	return nil
}

// Deadline: there is none.
func (c *interruptContext) Deadline() (time.Time, bool) { return time.Time{}, false }

// Value holds nothing of its own (once watching, the signal context's,
// which context.Cause reads).
func (c *interruptContext) Value(key any) any {
	if ctx := c.watched.Load(); ctx != nil {
		return (*ctx).Value(key)
	}
	return nil
}
