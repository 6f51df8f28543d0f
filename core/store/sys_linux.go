package store

import (
	"bytes"
	"io/fs"
	"os"
	"strconv"
	"strings"
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

// startSlack covers the whole seconds of the boot time and the clock ticks
// of a process's start.
const startSlack = 2000

// startedAfter reports whether process pid started more than startSlack ms
// after ts (epoch ms); known is false when that cannot be seen.
func startedAfter(pid int, ts float64) (after, known bool) {
	start, ok := processStart(pid)
	return ok && float64(start) > ts+startSlack, ok
}

// processStart is the start of process pid, epoch ms, from /proc.
func processStart(pid int) (int64, bool) {
	boot, ok := bootTime()
	if !ok {
		return 0, false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	// Field 22 (starttime, clock ticks since boot) counts from after the
	// command name, which is in parentheses and may hold anything.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, false
	}
	fields := strings.Fields(string(b[i+1:]))
	if len(fields) < 20 {
		return 0, false
	}
	ticks, err := strconv.ParseInt(fields[19], 10, 64)
	if err != nil {
		return 0, false
	}
	return boot + ticks*10, true // USER_HZ is 100 in /proc
}

// bootTime is this host's boot, epoch ms, from /proc/stat's btime.
func bootTime() (int64, bool) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, false
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "btime "); ok {
			sec, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			return sec * 1000, err == nil
		}
	}
	return 0, false
}
