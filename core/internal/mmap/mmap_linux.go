package mmap

import (
	"os"
	"syscall"
	"unsafe"
)

// Map maps the first size bytes of f read-only. Its pages are faulted in
// as they are read, so that a reader that drops them as it goes never has
// the whole file in memory, and two goroutines reading halves fault their
// pages in on both cores. ok is false if the file is empty or cannot be
// mapped; the caller then reads it.
func Map(f *os.File, size int) (b []byte, ok bool) {
	if size <= 0 {
		return nil, false
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_PRIVATE)
	if err != nil {
		return nil, false
	}
	return b, true
}

// Unmap releases a mapping of Map.
func Unmap(b []byte) { _ = syscall.Munmap(b) }

// Drop tells the kernel that this process no longer needs the whole pages
// of b, a stretch of a mapping, in its memory (MADV_DONTNEED): they leave
// its resident set, the page cache keeps them, and touching them again
// maps them back in. b must lie in a mapping of this package: on memory of
// the heap, dropped pages would read back as zeros.
func Drop(b []byte) {
	pg := uintptr(os.Getpagesize())
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b))) //nolint:gosec // the address only, to find the whole pages in b
	lo := (start + pg - 1) &^ (pg - 1)
	hi := (start + uintptr(len(b))) &^ (pg - 1)
	if hi > lo {
		_ = syscall.Madvise(b[lo-start:hi-start], syscall.MADV_DONTNEED)
	}
}
