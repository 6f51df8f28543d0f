package store

import (
	"errors"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/noggin-go/noggin/core/noggin"
)

// The original tool's lock protocol (spec/storage.md#lock-protocol).
const (
	defaultLockTimeout = 5 * time.Second
	staleAfterMillis   = 30000
)

// acquireLock takes the cross-process lock <name>.lock: a directory made
// with one non-recursive mkdir, holding a pid file "<pid>\n<epoch-ms>\n".
// Stale locks (holder dead, or older than 30 s) are reclaimed. It gives up
// with lock-timeout after timeout. display is the absolute file path used
// in the message. The returned func releases the lock.
func acquireLock(fsy fsys, name, display string, timeout time.Duration) (func(), error) {
	lock := name + ".lock"
	start := time.Now()
	for {
		err := fsy.Mkdir(lock, 0o777)
		if err == nil {
			pid := strconv.Itoa(os.Getpid()) + "\n" + strconv.FormatInt(time.Now().UnixMilli(), 10) + "\n"
			_ = fsy.WriteFile(lock+"/pid", []byte(pid), 0o666) // best effort
			return func() { _ = fsy.RemoveAll(lock) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		if lockIsStale(fsy, lock) {
			_ = fsy.RemoveAll(lock)
			continue
		}
		if time.Since(start) >= timeout {
			return nil, noggin.NewErrorDetail(noggin.CodeLockTimeout, display)
		}
		time.Sleep(time.Duration(25+rand.IntN(50)) * time.Millisecond)
	}
}

// lockIsStale applies the staleness rule: an unreadable or garbled pid file
// is not stale; a timestamp at least 30 s old or a dead holder is.
func lockIsStale(fsy fsys, lock string) bool {
	b, err := fsy.ReadFile(lock + "/pid")
	if err != nil {
		return false
	}
	lines := strings.Split(string(b), "\n")
	if len(lines) < 2 {
		return false
	}
	pid, ok1 := jsNumber(lines[0])
	ts, ok2 := jsNumber(lines[1])
	if !ok1 || !ok2 {
		return false
	}
	if float64(time.Now().UnixMilli())-ts >= staleAfterMillis {
		return true
	}
	return !pidAlive(pid)
}

// jsNumber parses like JavaScript's Number(): surrounding white space is
// ignored, the empty string is 0, the result must be finite.
func jsNumber(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false
	}
	return f, true
}

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
