package store

import (
	"io/fs"
	"syscall"
)

// sysStamp returns the inode, device and ctime (ns) of a stat result.
func sysStamp(fi fs.FileInfo) (ino, dev uint64, ctime int64) {
	if sys, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(sys.Ino), uint64(sys.Dev), sys.Ctim.Sec*1e9 + sys.Ctim.Nsec
	}
	return 0, 0, 0
}

// sysOwner returns the owner and group of a stat result.
func sysOwner(fi fs.FileInfo) (uid, gid int) {
	if sys, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int(sys.Uid), int(sys.Gid)
	}
	return -1, -1
}
