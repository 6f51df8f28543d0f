package store

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/noggin-go/noggin/core/jstext"

	"github.com/noggin-go/noggin/core/noggin"
)

// The original tool's lock protocol (docs/file-format.md).
const (
	defaultLockTimeout = 5 * time.Second
	staleAfterMillis   = 30000
)

// acquireLock takes the cross-process lock <name>.lock: a directory holding
// a pid file "<pid>\n<epoch-ms>\n". Stale locks (holder dead, or older
// than 30 s) are reclaimed. It gives up with lock-timeout after timeout,
// and with cancelled as soon as ctx is done.
// display is the file as the message names it. The returned func
// releases the lock.
func acquireLock(ctx context.Context, fsy fsys, name, display string, timeout time.Duration) (func(), error) {
	lock := name + ".lock"
	start := time.Now()
	for {
		err := createLock(fsy, lock)
		if err == nil {
			return func() { removeLock(fsy, lock) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		if pid, stale := lockIsStale(fsy, lock); stale {
			// The holder may have released the lock and exited between our
			// read of its pid file and the liveness probe, and a new holder
			// may have taken it since: reclaim only a lock whose pid file is
			// still the one judged stale (a dead holder's lock cannot change).
			if b, err := fsy.ReadFile(lock + "/pid"); err == nil && bytes.Equal(b, pid) {
				reclaimLock(fsy, lock, pid)
			}
			continue
		}
		if time.Since(start) >= timeout {
			return nil, noggin.NewErrorDetail(noggin.CodeLockTimeout, display)
		}
		select {
		case <-time.After(time.Duration(25+rand.IntN(50)) * time.Millisecond): //nolint:gosec // retry jitter, not a secret
		case <-ctx.Done():
			return nil, noggin.Cancelled(ctx)
		}
	}
}

// removeLock removes a lock directory. It is first renamed out of the way
// (to <lock>.tmp-<pid>-<n>), so that a process dying half-way through the
// removal leaves no lock without pid file behind (such a lock is never
// stale and would block every writer); the leftover is cleaned up by the
// next write.
func removeLock(fsy fsys, lock string) {
	tmp := lock + ".tmp-" + strconv.Itoa(os.Getpid()) + "-" + strconv.FormatUint(lockSeq.Add(1), 10)
	if err := fsy.Rename(lock, tmp); err != nil {
		_ = fsy.RemoveAll(lock)
		return
	}
	// The lock holds its pid file only, unless another tool put more in
	// it: two calls, where RemoveAll makes seven.
	if fsy.Remove(tmp+"/pid") != nil || fsy.Remove(tmp) != nil {
		_ = fsy.RemoveAll(tmp)
	}
}

// reclaimLock removes a lock judged stale from its pid file content pid.
// Another waiter may have reclaimed it first and a new holder taken the
// lock since: the lock is moved aside, and put back if its pid file is no
// longer the one judged stale (the original removes it blindly).
func reclaimLock(fsy fsys, lock string, pid []byte) {
	tmp := lock + ".tmp-" + strconv.Itoa(os.Getpid()) + "-" + strconv.FormatUint(lockSeq.Add(1), 10)
	if err := fsy.Rename(lock, tmp); err != nil {
		return // gone already
	}
	if b, err := fsy.ReadFile(tmp + "/pid"); err == nil && !bytes.Equal(b, pid) {
		// A live holder's lock: give it back.
		err := errNoAtomicRename
		if _, ok := fsy.(osFS); ok {
			err = renameExclusive(tmp, lock)
		}
		if errors.Is(err, errNoAtomicRename) {
			err = fsy.Rename(tmp, lock)
		}
		if err == nil {
			return
		}
	}
	_ = fsy.RemoveAll(tmp)
}

// errNoAtomicRename: the platform cannot rename without replacing.
var errNoAtomicRename = errors.New("renameat2 RENAME_NOREPLACE not supported")

// atomicLocksOff is set once renameExclusive turned out to be unsupported.
var atomicLocksOff atomic.Bool

// lockSeq numbers the temporary lock directories of this process.
var lockSeq atomic.Uint64

// createLock creates the lock directory with its pid file, failing with an
// fs.ErrExist error when it exists.
//
// The original tool runs mkdir and then writes the pid file; a holder that
// dies in between leaves a lock without pid file, which is never stale and
// blocks every writer for good. On the unconfined file system (and where
// the kernel supports renameat2 RENAME_NOREPLACE) we instead prepare the
// directory with its pid file under a temporary name
// (<lock>.tmp-<pid>-<n>) and rename it into place without
// replacing: the lock appears atomically with its pid file and is
// create-or-fail exactly like mkdir, so both protocols interoperate.
func createLock(fsy fsys, lock string) error {
	pid := []byte(strconv.Itoa(os.Getpid()) + "\n" + strconv.FormatInt(time.Now().UnixMilli(), 10) + "\n")
	if _, ok := fsy.(osFS); ok && !atomicLocksOff.Load() {
		tmp := lock + ".tmp-" + strconv.Itoa(os.Getpid()) + "-" + strconv.FormatUint(lockSeq.Add(1), 10)
		err := os.Mkdir(tmp, 0o777)
		if errors.Is(err, fs.ErrExist) { // left by a dead process with our pid
			_ = os.RemoveAll(tmp)
			err = os.Mkdir(tmp, 0o777)
		}
		if err == nil {
			err = writeFile(tmp+"/pid", pid, 0o666)
			if err == nil {
				err = renameExclusive(tmp, lock)
				if err == nil {
					return nil
				}
			}
			_ = os.RemoveAll(tmp)
			if errors.Is(err, syscall.EEXIST) || errors.Is(err, syscall.ENOTEMPTY) {
				return fs.ErrExist
			}
			if errors.Is(err, errNoAtomicRename) {
				atomicLocksOff.Store(true)
			}
		}
		// Anything unexpected: fall back to the original's mkdir, which
		// also reports errors with the lock's own name.
	}
	err := fsy.Mkdir(lock, 0o777)
	if err == nil {
		_ = fsy.WriteFile(lock+"/pid", pid, 0o666) // best effort, as the original
	}
	return err
}

// lockIsStale applies the staleness rule: an unreadable or garbled pid file
// is not stale; a timestamp at least 30 s old or a dead holder is.
func lockIsStale(fsy fsys, lock string) (pid []byte, stale bool) {
	b, err := fsy.ReadFile(lock + "/pid")
	if err != nil {
		return nil, false
	}
	lines := strings.Split(string(b), "\n")
	if len(lines) < 2 {
		return nil, false
	}
	p, ok1 := jsNumber(lines[0])
	ts, ok2 := jsNumber(lines[1])
	if !ok1 || !ok2 {
		return nil, false
	}
	if float64(time.Now().UnixMilli())-ts >= staleAfterMillis {
		return b, true
	}
	return b, !pidAlive(p)
}

// jsNumber parses like JavaScript's Number(): surrounding white space is
// ignored, the empty string is 0, the result must be finite.
func jsNumber(s string) (float64, bool) {
	s = jstext.TrimSpace(s)
	if s == "" {
		return 0, true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false
	}
	return f, true
}
