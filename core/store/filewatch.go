package store

// Watching a noggin file for changes made by other processes.

import (
	"context"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/noggin-go/noggin/core/noggin"
)

// Watch streams change events until ctx is done. While anyone watches,
// changes by other processes are noticed (see startPolling).
func (s *fileStore) Watch(ctx context.Context) <-chan noggin.Event {
	// Make sure there is a baseline to diff external changes against.
	_, _ = s.Load(ctx)
	return s.hub.watch(ctx)
}

// settle is how long a watched file must be quiet after a change
// notification before it is re-read.
const settle = 20 * time.Millisecond

// startPolling and stopPolling run under the hub's lock. While anyone
// watches, the store re-reads the file when the kernel reports a change to
// it (inotify, kqueue or ReadDirectoryChangesW through fsnotify, on the
// file's directory, since an atomic write replaces the file) and, as a
// safety net for file systems that report nothing (network mounts), every
// poll interval times ten. Without notifications it polls every interval.
//
// A re-read publishes one event for everything that changed since the last
// look: writes of this process are one event each (they publish
// themselves), while several writes of another process that land before
// the re-read arrive coalesced, as one event whose document is the latest.
func (s *fileStore) startPolling() {
	stop := make(chan struct{})
	s.stopPoll = stop
	interval := s.poll
	var events <-chan fsnotify.Event
	var errs <-chan error
	w, err := fsnotify.NewWatcher()
	if err == nil {
		if err = w.Add(filepath.Dir(s.abs)); err != nil {
			_ = w.Close()
			w = nil
		}
	}
	if w != nil {
		events, errs = w.Events, w.Errors
		interval *= 10
	}
	base := filepath.Base(s.abs)
	go func() {
		t := time.NewTicker(interval)
		defer t.Stop()
		if w != nil {
			defer w.Close()
		}
		// A notification is acted on once the file has been quiet for
		// settle: a writer that truncates and then writes in place (an
		// editor, a shell redirect) is read when it is done, not half-way.
		settled := time.NewTimer(time.Hour)
		settled.Stop()
		defer settled.Stop()
		for {
			select {
			case <-stop:
				return
			case ev, ok := <-events:
				if !ok {
					events = nil
					continue
				}
				if filepath.Base(ev.Name) == base {
					settled.Reset(settle)
				}
			case <-settled.C:
				_, _ = s.Load(context.Background())
			case _, ok := <-errs:
				if !ok {
					errs = nil
				}
				// A dropped notification (queue overflow): look now.
				_, _ = s.Load(context.Background())
			case <-t.C:
				_, _ = s.Load(context.Background())
			}
		}
	}()
}

func (s *fileStore) stopPolling() {
	if s.stopPoll != nil {
		close(s.stopPoll)
		s.stopPoll = nil
	}
}
