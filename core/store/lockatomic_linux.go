package store

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// createLockAt creates the lock directory at path, whose directory is dir:
// it is made under a temporary name in dir with its pid file and kernel
// lock, then renamed into place without replacing (renameat2
// RENAME_NOREPLACE), so that it appears whole, create-or-fail like the
// original's mkdir. Names are resolved relative to dir, which fsy opened
// (inside its root, if it has one). fs.ErrExist: the lock exists;
// errNoAtomicRename: the kernel or file system cannot do this.
func createLockAt(fsy fsys, dir *os.File, path string) (*lock, error) {
	dfd := int(dir.Fd())
	base := filepath.Base(path)
	tmp := tempName(base)
	if err := unix.Mkdirat(dfd, tmp, 0o777); err != nil {
		return nil, errNoAtomicRename // the mkdir path reports it with the lock's name
	}
	l := &lock{fsy: fsy, path: path}
	fd, err := unix.Openat(dfd, tmp, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err == nil {
		d := os.NewFile(uintptr(fd), path)
		if flock(d) == nil {
			l.dir = d
		} else {
			_ = d.Close()
		}
	}
	undo := func() {
		l.closeDir()
		_ = unix.Unlinkat(dfd, tmp+"/pid", 0)
		_ = unix.Unlinkat(dfd, tmp, unix.AT_REMOVEDIR)
	}
	l.pid = pidContent(l.dir != nil)
	if err := writeAt(dfd, tmp+"/pid", l.pid); err != nil {
		undo() // a full disk leaves no lock behind
		return nil, &fs.PathError{Op: "write", Path: path + "/pid", Err: err}
	}
	err = unix.Renameat2(dfd, tmp, dfd, base, unix.RENAME_NOREPLACE)
	if err == nil {
		return l, nil
	}
	undo()
	switch {
	case errors.Is(err, unix.EEXIST), errors.Is(err, unix.ENOTEMPTY):
		return nil, fs.ErrExist
	case errors.Is(err, unix.ENOSYS), errors.Is(err, unix.EINVAL):
		atomicLocksOff.Store(true)
	}
	return nil, errNoAtomicRename
}

// writeAt creates the file name relative to dfd with content b.
func writeAt(dfd int, name string, b []byte) error {
	fd, err := unix.Openat(dfd, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o666)
	if err != nil {
		return err
	}
	f := os.NewFile(uintptr(fd), name)
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
