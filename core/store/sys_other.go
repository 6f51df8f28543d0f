//go:build !linux

package store

import "io/fs"

// sysStamp: outside Linux the stamp is size and mtime only (plus the byte
// comparison in the racy window).
func sysStamp(fs.FileInfo) (ino, dev uint64, ctime int64) { return 0, 0, 0 }

// sysOwner: owners are not kept outside Linux.
func sysOwner(fs.FileInfo) (uid, gid int) { return -1, -1 }
