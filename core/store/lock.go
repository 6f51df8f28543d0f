package store

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/noggin-go/noggin/core/jstext"

	"github.com/noggin-go/noggin/core/noggin"
)

// The original tool's lock protocol (docs/file-format.md).
const defaultLockTimeout = 5 * time.Second

// staleAfter is the age at which the original judges a lock stale (a
// variable for the fault tests).
var staleAfter = 30 * time.Second

// kernelMark is the third line of the pid file of a lock whose holder
// also holds a kernel lock (flock) on the lock directory. The original
// reads the first two lines only.
const kernelMark = "flock"

// lock is a held <file>.lock: the original's lock directory, and where the
// platform has them, a kernel lock on that directory held by dir for as
// long as the lock is ours. The kernel drops it when the holder dies, so a
// live holder's lock is never judged stale, however long it stalls.
type lock struct {
	fsy  fsys
	path string
	dir  *os.File // open on the lock directory and flocked; nil: no kernel lock
	pid  []byte   // our pid file
}

// errLockLost: the lock directory is no longer the one we hold.
var errLockLost = errors.New("lock lost")

// acquireLock takes the cross-process lock <name>.lock. A lock whose holder
// holds no kernel lock is judged by the original's rule (holder dead, or
// older than 30 s). It gives up with lock-timeout after timeout, and with
// cancelled as soon as ctx is done. display is the file as messages name it.
func acquireLock(ctx context.Context, fsy fsys, name, display string, timeout time.Duration) (*lock, error) {
	path := name + ".lock"
	start := time.Now()
	for {
		l, err := createLock(fsy, path)
		if err == nil {
			return l, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		if l := takeStale(fsy, path); l != nil {
			return l, nil
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

// pidContent is a new holder's pid file.
func pidContent(kernel bool) []byte {
	b := strconv.AppendInt(nil, int64(os.Getpid()), 10)
	b = append(b, '\n')
	b = strconv.AppendInt(b, time.Now().UnixMilli(), 10)
	b = append(b, '\n')
	if kernel {
		b = append(b, kernelMark+"\n"...)
	}
	return b
}

// createLock creates the lock directory, failing with an fs.ErrExist
// error when it exists: atomically with its pid file and kernel lock where
// the platform can (createLockAt), else as the original does — mkdir, then
// (ours) the kernel lock, then the pid file.
func createLock(fsy fsys, path string) (*lock, error) {
	if !atomicLocksOff.Load() {
		if dir, err := fsy.Open(filepath.Dir(path)); err == nil {
			l, err := createLockAt(fsy, dir, path)
			_ = dir.Close()
			if !errors.Is(err, errNoAtomicRename) {
				return l, err
			}
		}
	}
	if err := fsy.Mkdir(path, 0o777); err != nil {
		return nil, err
	}
	l := &lock{fsy: fsy, path: path}
	if d, err := fsy.Open(path); err == nil {
		if flock(d) == nil {
			l.dir = d
		} else {
			_ = d.Close()
		}
	}
	l.pid = pidContent(l.dir != nil)
	if err := fsy.WriteFile(path+"/pid", l.pid, 0o666); err != nil {
		// Unlike the original, a lock whose pid file could not be written
		// (a full disk) is not left behind to block every later writer.
		l.closeDir()
		_ = fsy.Remove(path + "/pid")
		_ = fsy.Remove(path)
		return nil, err
	}
	return l, nil
}

// takeStale takes over the lock at path if it is stale, and returns it
// held, or nil. Taking over is winning the kernel lock on the directory
// that is still at path: two waiters cannot both win it, and a holder
// that is alive holds it. The directory stays; its pid file becomes ours.
func takeStale(fsy fsys, path string) *lock {
	old, err := fsy.ReadFile(path + "/pid")
	judged := err == nil && wellFormed(old)
	if !judged && !olderThan(fsy, path, staleAfter) {
		// No pid file, or an empty, cut-short or unreadable one: its maker
		// failed or died between mkdir and pid file (or an original is
		// between the two now). Stale once as old as the original's age.
		return nil
	}
	if err != nil {
		old = nil
	}
	d, err := fsy.Open(path)
	if err != nil {
		return nil
	}
	ferr := flock(d)
	if errors.Is(ferr, errLockHeld) {
		_ = d.Close()
		return nil // a live holder
	}
	if ferr != nil { // no kernel locks here: the original's reclaim
		_ = d.Close()
		if !judged || stale(old, false) {
			reclaimLock(fsy, path, old)
		}
		return nil
	}
	l := &lock{fsy: fsy, path: path, dir: d, pid: pidContent(true)}
	if (judged && !stale(old, true)) || l.check(old) != nil {
		l.closeDir()
		return nil
	}
	tmp := tempName(path + "/pid")
	if fsy.WriteFile(tmp, l.pid, 0o666) != nil || fsy.Rename(tmp, path+"/pid") != nil {
		_ = fsy.Remove(tmp)
		l.closeDir()
		return nil
	}
	return l
}

// olderThan reports whether the lock directory at path and its pid file
// (if any) were last changed at least age ago.
func olderThan(fsy fsys, path string, age time.Duration) bool {
	fi, err := fsy.Stat(path)
	if err != nil || time.Since(fi.ModTime()) < age {
		return false
	}
	fi, err = fsy.Stat(path + "/pid")
	return notExist(err) || (err == nil && time.Since(fi.ModTime()) >= age)
}

// wellFormed reports whether pid is a whole pid file: two lines that are
// numbers, as the original writes it (ours may add a third).
func wellFormed(pid []byte) bool {
	lines := strings.Split(string(pid), "\n")
	if len(lines) < 3 {
		return false
	}
	_, ok1 := jsNumber(lines[0])
	_, ok2 := jsNumber(lines[1])
	return ok1 && ok2
}

// stale applies the staleness rule to a whole pid file: one whose holder
// held a kernel lock is stale once we hold that lock (unlocked is held
// true); otherwise (the original's kind) it is stale once its holder is
// gone. Unlike the original, age alone does not make it stale where the
// holder can be seen to live (holderLives): a stalled original's rename
// would drop what we wrote after taking its lock.
func stale(pid []byte, unlocked bool) bool {
	lines := strings.Split(string(pid), "\n")
	p, _ := jsNumber(lines[0])
	ts, _ := jsNumber(lines[1])
	if unlocked && len(lines) > 2 && lines[2] == kernelMark {
		return true
	}
	return !holderLives(p, ts)
}

// check reports whether the directory at l.path is still the one l holds
// and its pid file is pid (nil: it has none, or one that cannot be read). It is the fence before a
// write's rename: the original takes a lock older than 30 s from a live
// holder.
func (l *lock) check(pid []byte) error {
	if l.dir != nil {
		held, err1 := l.dir.Stat()
		now, err2 := l.fsy.Stat(l.path)
		if err1 != nil || err2 != nil || !os.SameFile(held, now) {
			return errLockLost
		}
	}
	b, err := l.fsy.ReadFile(l.path + "/pid")
	if pid == nil && err != nil { // still none, or still unreadable
		return nil
	}
	if err != nil || !bytes.Equal(b, pid) {
		return errLockLost
	}
	return nil
}

// ours is the fence of a write: the lock is still ours.
func (l *lock) ours() error { return l.check(l.pid) }

// release removes the lock directory, then drops the kernel lock. It is
// first renamed out of the way (to <lock>.tmp-<pid>-<n>), so that a process
// dying half-way through the removal leaves no lock without pid file
// behind (such a lock is never stale and would block every writer); the
// leftover is cleaned up by the next write. A lock that is no longer ours
// is left alone.
func (l *lock) release() {
	defer l.closeDir()
	if l.check(l.pid) != nil {
		return
	}
	tmp := tempName(l.path)
	if err := l.fsy.Rename(l.path, tmp); err != nil {
		_ = l.fsy.RemoveAll(l.path)
		return
	}
	// The lock holds its pid file only, unless another tool put more in
	// it: two calls, where RemoveAll makes seven.
	if l.fsy.Remove(tmp+"/pid") != nil || l.fsy.Remove(tmp) != nil {
		_ = l.fsy.RemoveAll(tmp)
	}
}

func (l *lock) closeDir() {
	if l.dir != nil {
		_ = l.dir.Close()
		l.dir = nil
	}
}

// reclaimLock removes a lock judged stale from its pid file content pid,
// where there are no kernel locks. Another waiter may have reclaimed it
// first and a new holder taken the lock since: the lock is moved aside,
// and put back if its pid file is no longer the one judged stale.
func reclaimLock(fsy fsys, path string, pid []byte) {
	tmp := tempName(path)
	if err := fsy.Rename(path, tmp); err != nil {
		return // gone already
	}
	if b, err := fsy.ReadFile(tmp + "/pid"); err == nil && !bytes.Equal(b, pid) {
		if fsy.Rename(tmp, path) == nil {
			return
		}
	}
	_ = fsy.RemoveAll(tmp)
}

// tempName is a temporary name beside name: <name>.tmp-<pid>-<n>.
func tempName(name string) string {
	return name + ".tmp-" + strconv.Itoa(os.Getpid()) + "-" + strconv.FormatUint(lockSeq.Add(1), 10)
}

// errNoAtomicRename: the platform cannot rename without replacing.
var errNoAtomicRename = errors.New("renameat2 RENAME_NOREPLACE not supported")

// errLockHeld: another open file holds the kernel lock.
var errLockHeld = errors.New("kernel lock held")

// atomicLocksOff is set once renameExclusive turned out to be unsupported.
var atomicLocksOff atomic.Bool

// lockSeq numbers the temporary names of this process.
var lockSeq atomic.Uint64

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
