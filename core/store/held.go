package store

import (
	"os"
	"runtime"
	"sync"
	"sync/atomic"
)

// heldFile keeps the file a long-lived store last wrote open. Replacing a
// file by rename frees the old one's blocks and pages at once, in the
// rename, unless it is still open: 1.6 ms for a 4 MB noggin and 10 ms for
// a 39 MB one on this project's test machine, a tenth of a server's write
// and more than its directory fsync. Held open, the replaced file is
// freed by closing it in the background, after the write has answered.
// (A one-shot process maps the file it read, which holds it the same way
// until the process ends.)
//
// Not on Windows, where an open file cannot be renamed over; and at most
// maxHeld files per process, so a server writing many noggins stays far
// from its descriptor limit.
//
// Once another process replaced the file, the held one is an old version
// whose blocks only this process keeps: it is released as soon as the
// store reads the new file.
type heldFile struct {
	mu sync.Mutex
	f  *os.File // nil when none
}

// maxHeld bounds the files held open across all stores of the process.
const maxHeld = 256

// heldCount counts the files held open (or reserved by take).
var heldCount atomic.Int64

// take reserves room for one more held file; false when holding is off
// (Windows) or the process holds maxHeld already. A store holds at most
// one file, so a store that holds one reuses its room.
func (h *heldFile) take() bool {
	if runtime.GOOS == "windows" {
		return false
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.f != nil {
		return true
	}
	if heldCount.Add(1) > maxHeld {
		heldCount.Add(-1)
		return false
	}
	return true
}

// give settles a reservation: f (the new file, just renamed into place
// when replaced is true) becomes the held file and the one it replaces is
// closed in the background. When the rename failed, f is closed and the
// held file stays.
func (h *heldFile) give(f *os.File, replaced bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !replaced {
		_ = f.Close()
		if h.f == nil {
			heldCount.Add(-1)
		}
		return
	}
	old := h.f
	h.f = f
	if old != nil {
		go func() { _ = old.Close() }()
	}
}

// release closes the held file in the background, if there is one.
func (h *heldFile) release() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if old := h.f; old != nil {
		h.f = nil
		heldCount.Add(-1)
		go func() { _ = old.Close() }()
	}
}
