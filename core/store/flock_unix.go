//go:build unix

package store

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// flock takes an exclusive kernel lock on f without waiting: errLockHeld
// when another open file holds one, another error when the file system
// has no such locks.
func flock(f *os.File) error {
	sc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var ferr error
	if err := sc.Control(func(fd uintptr) {
		for {
			ferr = unix.Flock(int(fd), unix.LOCK_EX|unix.LOCK_NB)
			if !errors.Is(ferr, unix.EINTR) {
				return
			}
		}
	}); err != nil {
		return err
	}
	if errors.Is(ferr, unix.EWOULDBLOCK) {
		return errLockHeld
	}
	return ferr
}

// writable reports why the effective user may not write the file at path
// (nil: it may).
func writable(path string) error {
	return unix.Faccessat(unix.AT_FDCWD, path, unix.W_OK, unix.AT_EACCESS)
}
