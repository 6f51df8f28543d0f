// Package mmap maps noggin files into memory, read-only, for the store
// and the codec: a mapped file's bytes are read where the page cache holds
// them (not copied into the heap), and each stretch a pass has read can be
// dropped from the process's memory (Drop), so that reading a large noggin
// never holds it whole. Another tool may cut the file short while it is
// mapped: reads of a mapping run under Guard. bench/mechanisms.md has
// what each of these costs and saves.
package mmap

import (
	"runtime/debug"
)

// Guard runs f and reports false if it faulted on a mapped file (read past
// the end of a file truncated by someone else); other panics go on.
func Guard(f func()) (ok bool) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if _, fault := r.(interface{ Addr() uintptr }); !fault {
				panic(r) //nolint:forbidigo // not a fault on the mapping: a bug, raised again
			}
			ok = false
		}
	}()
	f()
	return true
}
