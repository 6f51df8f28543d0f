package store

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// renameExclusive renames oldpath to newpath, failing with EEXIST when
// newpath exists (renameat2 with RENAME_NOREPLACE). It returns
// errNoAtomicRename when the kernel or file system cannot do that.
func renameExclusive(oldpath, newpath string) error {
	err := unix.Renameat2(unix.AT_FDCWD, oldpath, unix.AT_FDCWD, newpath, unix.RENAME_NOREPLACE)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, unix.ENOSYS), errors.Is(err, unix.EINVAL):
		return errNoAtomicRename
	}
	return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: err}
}
