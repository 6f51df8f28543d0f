package store

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/noggin-go/noggin/core/noggin"
)

// TestCancelWhileWaitingForLock: a write waiting for a lock held by a live
// process (or for another writer of this process) stops as soon as its
// caller goes away, with cancelled (exit 130), and writes nothing.
func TestCancelWhileWaitingForLock(t *testing.T) {
	for _, tc := range []struct {
		name   string
		hold   func(t *testing.T, s noggin.Store, p string) (release func())
		reason string
		cancel func(ctx context.Context) (context.Context, context.CancelFunc)
	}{
		{"process lock, cancelled", holdFileLock, "canceled", func(ctx context.Context) (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(ctx)
			time.AfterFunc(100*time.Millisecond, cancel)
			return ctx, cancel
		}},
		{"process lock, deadline", holdFileLock, "deadline exceeded", func(ctx context.Context) (context.Context, context.CancelFunc) {
			return context.WithTimeout(ctx, 100*time.Millisecond)
		}},
		{"writer of this process", holdTurn, "canceled", func(ctx context.Context) (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(ctx)
			time.AfterFunc(100*time.Millisecond, cancel)
			return ctx, cancel
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "n.yaml")
			s := mustOpen(t, p, Options{LockTimeout: time.Minute})
			mustAdd(t, s, "k1")
			before, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			release := tc.hold(t, s, p)
			defer release()
			ctx, cancel := tc.cancel(context.Background())
			defer cancel()
			start := time.Now()
			_, err = s.Update(ctx, planOf(func(*noggin.Document) ([]noggin.Op, error) {
				return []noggin.Op{addOp("k2")}, nil
			}))
			took := time.Since(start)
			e := asError(t, err)
			if e.Code != noggin.CodeCancelled || e.ExitCode != 130 || e.Get("reason") != tc.reason {
				t.Fatalf("error = %+v", e)
			}
			if took > 2*time.Second { // the lock wait alone would be a minute
				t.Errorf("returned after %v", took)
			}
			if after, _ := os.ReadFile(p); !bytes.Equal(after, before) {
				t.Errorf("file changed:\n%s", after)
			}
		})
	}
	// A call that is cancelled before it starts does nothing at all.
	p := filepath.Join(t.TempDir(), "n.yaml")
	s := mustOpen(t, p, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Load(ctx); errCode(err) != noggin.CodeCancelled {
		t.Errorf("Load: %v", err)
	}
	if err := addItemCtx(ctx, s, "k1"); errCode(err) != noggin.CodeCancelled {
		t.Errorf("Update: %v", err)
	}
	if _, err := os.Stat(p); !os.IsNotExist(err) {
		t.Errorf("file exists: %v", err)
	}
}

// holdFileLock plants the lock of a live process (this one's parent).
func holdFileLock(t *testing.T, _ noggin.Store, p string) func() {
	t.Helper()
	plantLock(t, p, pidFile(os.Getppid(), time.Now().UnixMilli()))
	return func() { _ = os.RemoveAll(p + ".lock") }
}

// holdTurn takes the write turn as another writer of this process would.
func holdTurn(t *testing.T, s noggin.Store, _ string) func() {
	t.Helper()
	fs := s.(*fileStore)
	if err := fs.wmu.take(context.Background()); err != nil {
		t.Fatal(err)
	}
	return fs.wmu.give
}

func addItemCtx(ctx context.Context, s noggin.Store, key string) error {
	_, err := s.Update(ctx, planOf(func(*noggin.Document) ([]noggin.Op, error) {
		return []noggin.Op{addOp(key)}, nil
	}))
	return err
}
