//go:build !linux

package store

import "io/fs"

// sysStamp: outside Linux the stamp is size and mtime only (plus the byte
// comparison in the racy window).
func sysStamp(fs.FileInfo) (ino, dev uint64, ctime int64) { return 0, 0, 0 }

// sysOwner: owners are not kept outside Linux.
func sysOwner(fs.FileInfo) (uid, gid int) { return -1, -1 }

// startedAfter cannot see a process's start here.
func startedAfter(int, float64) (after, known bool) { return false, false }

func processStart(int) (int64, bool) { return 0, false }

func bootTime() (int64, bool) { return 0, false }
