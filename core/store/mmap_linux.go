package store

import (
	"os"
	"syscall"
)

// mapFile maps the first size bytes of f read-only (populated at once, so
// page-cache pages are not faulted in one by one). ok is false if the file
// is empty or cannot be mapped; the caller then reads it.
func mapFile(f *os.File, size int) (b []byte, ok bool) {
	if size <= 0 {
		return nil, false
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_PRIVATE|syscall.MAP_POPULATE)
	if err != nil {
		return nil, false
	}
	return b, true
}
