//go:build unix

package store

import (
	"errors"
	"math"
	"os"
	"syscall"
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
