//go:build unix

package store

import (
	"errors"
	"math"
	"os"
	"syscall"
	"time"
)

// pidAlive probes pid with signal 0: alive unless the probe fails for a
// reason other than "permission denied". Our own pid is alive.
func pidAlive(pid float64) bool {
	if pid == float64(os.Getpid()) {
		return true
	}
	if pid != math.Trunc(pid) || pid > math.MaxInt32 || pid < math.MinInt32 {
		return false
	}
	err := syscall.Kill(int(pid), 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// holderLives reports whether the holder of a lock with pid and timestamp
// ts (epoch ms) lives on this host: its pid is alive and, where the
// process's start can be seen (Linux), it started no later than the lock
// (else the pid was reused, or the lock is from before the last boot).
// Where it cannot be seen, the original's 30 s age rule applies.
func holderLives(pid, ts float64) bool {
	if !pidAlive(pid) {
		return false
	}
	if after, known := startedAfter(int(pid), ts); known {
		return !after
	}
	return float64(time.Now().UnixMilli())-ts < float64(staleAfter.Milliseconds())
}
