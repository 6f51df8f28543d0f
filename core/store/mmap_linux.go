package store

import (
	"os"
	"syscall"
	"unsafe"
)

// mapFile maps the first size bytes of f read-only, populated at once, so
// that page-cache pages are not faulted in one by one: for a pass over the
// whole file on one goroutine (the store's comparison of a file with the
// bytes it wrote, compareFile). ok is false if the file is empty or cannot
// be mapped; the caller then reads it.
//
// What mapping buys over reading the file (the CLI's `show --json`, whole
// process, median of 21 runs on this 2-core machine, 2026-12-03): 15.2 ms
// instead of 18.3 ms on a 10k-item noggin (4 MB), 112 ms instead of 128 ms
// on 100k items (41 MB), at the same peak RSS. A mapped file's bytes are
// not copied into the heap (the reader copies what it keeps), and the
// pages read can be dropped (dropPages), which a read into the heap could
// not give back: a server's first load of a noggin (mapFileLazily,
// BenchmarkLoadCold long-lived) allocates 55 MB instead of 101 MB at 100k
// items, in 76–83 ms instead of 82–93 ms. The price is the fault guard
// (guard in file.go) for a file truncated by another process while
// mapped.
func mapFile(f *os.File, size int) (b []byte, ok bool) {
	return mapFileFlags(f, size, syscall.MAP_POPULATE)
}

// mapFileLazily is mapFile without populating the mapping: its pages are
// faulted in as they are read, so a reader that drops them as it goes
// (dropPages) never has the whole file in memory. A long-lived store maps
// the file so to read it, and before a write to check it and copy from
// it. A one-shot process maps the file so to read it too: its one pass
// (the lazy read, which checks the CRC as it goes, or the whole read)
// reads a large file in two halves at once, which fault their pages in on
// both cores, where populating maps them all on one before the pass
// starts (CLI `show --json`, medians of interleaved runs: 100k items 36.3
// → 35.0 ms and 30.9 → 29.6 ms, 10k items 6.46 → 6.38 ms and 5.95 → 5.77
// ms, at the same peak RSS).
func mapFileLazily(f *os.File, size int) (b []byte, ok bool) {
	return mapFileFlags(f, size, 0)
}

func mapFileFlags(f *os.File, size, flags int) (b []byte, ok bool) {
	if size <= 0 {
		return nil, false
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_PRIVATE|flags)
	if err != nil {
		return nil, false
	}
	return b, true
}

// unmapFile releases a mapping of mapFile (a long-lived process maps a
// file only to compare it).
func unmapFile(b []byte) { _ = syscall.Munmap(b) }

// dropPages tells the kernel that this process no longer needs the whole
// pages of b, a stretch of a mapping of mapFile or mapFileLazily, in its
// memory (MADV_DONTNEED): they leave its resident set, the page cache
// keeps them, and touching them again maps them back in. Every pass over
// a mapped noggin (the read, see codec.DecodeYAMLSource; the digests and
// checks; the copies of a write) drops what it has passed, so that a
// process's peak memory is the decoded document, not the document plus
// the file. b must lie in such a mapping: on memory of the heap, dropped
// pages would read back as zeros.
func dropPages(b []byte) {
	pg := uintptr(os.Getpagesize())
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b))) //nolint:gosec // the address only, to find the whole pages in b
	lo := (start + pg - 1) &^ (pg - 1)
	hi := (start + uintptr(len(b))) &^ (pg - 1)
	if hi > lo {
		_ = syscall.Madvise(b[lo-start:hi-start], syscall.MADV_DONTNEED)
	}
}
