package store

import (
	"os"
	"runtime"
	"syscall"
	"unsafe"
)

// sysRenameat2 is renameat2(2) on the architectures we know (0 = unknown).
var sysRenameat2 = map[string]uintptr{"amd64": 316, "arm64": 276, "riscv64": 276, "loong64": 276, "386": 353}[runtime.GOARCH]

const renameNoReplace = 1 // RENAME_NOREPLACE

// renameExclusive renames oldpath to newpath, failing with EEXIST when
// newpath exists (renameat2 with RENAME_NOREPLACE). It returns
// errNoAtomicRename when the kernel or file system cannot do that.
func renameExclusive(oldpath, newpath string) error {
	if sysRenameat2 == 0 {
		return errNoAtomicRename
	}
	o, err := syscall.BytePtrFromString(oldpath)
	if err != nil {
		return err
	}
	n, err := syscall.BytePtrFromString(newpath)
	if err != nil {
		return err
	}
	fdcwd := -100 // AT_FDCWD
	_, _, e := syscall.Syscall6(sysRenameat2, uintptr(fdcwd), uintptr(unsafe.Pointer(o)),
		uintptr(fdcwd), uintptr(unsafe.Pointer(n)), renameNoReplace, 0)
	switch e {
	case 0:
		return nil
	case syscall.ENOSYS, syscall.EINVAL:
		return errNoAtomicRename
	}
	return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: e}
}
