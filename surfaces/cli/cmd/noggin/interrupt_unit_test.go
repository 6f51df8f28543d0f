//go:build unix

package main

import (
	"context"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestInterruptContext: until something waits on the context, Ctrl-C is
// ignored (the run completes); once Done is asked for, the next one
// cancels it with the signal as its cause.
func TestInterruptContext(t *testing.T) {
	defer signal.Reset(interruptSignals...)
	ctx := newInterruptContext()
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond) // a signal not ignored would have ended the test binary
	if err := ctx.Err(); err != nil {
		t.Fatalf("Err before anything waited: %v", err)
	}
	if !signal.Ignored(syscall.SIGTERM) {
		t.Fatal("SIGTERM is not ignored while nothing waits")
	}
	done := ctx.Done()
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Ctrl-C did not cancel a context being waited on")
	}
	if ctx.Err() != context.Canceled {
		t.Fatalf("Err: %v", ctx.Err())
	}
	if c := context.Cause(ctx); c == nil || !strings.Contains(c.Error(), "interrupt") {
		t.Errorf("cause: %v", c)
	}
	// Contexts derived from it see the cancellation (the remote client's
	// timeouts are).
	sub, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if sub.Err() != context.Canceled {
		t.Errorf("derived context: %v", sub.Err())
	}
}
