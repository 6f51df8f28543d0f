package codec

import (
	"runtime/debug"
	"syscall"
	"testing"

	"github.com/noggin-go/noggin/core/sampledoc"
)

// TestFaultInSecondHalf: input that faults where the second half of a
// large items list is read (as a mapped file cut short by another process
// would) panics in the caller, which asked for panics on faults, instead
// of crashing the process from the reader's other goroutine.
func TestFaultInSecondHalf(t *testing.T) {
	text := EncodeYAML(sampledoc.Doc(10000, 2))
	page := syscall.Getpagesize()
	size := (len(text) + page - 1) / page * page
	mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		t.Skip("no anonymous mapping:", err)
	}
	defer func() { _ = syscall.Munmap(mem) }()
	copy(mem, text)
	data := mem[:len(text)]
	// A page three quarters in (inside the second half, before the last
	// byte the reader checks first) cannot be read.
	hole := size * 3 / 4 / page * page
	if err := syscall.Mprotect(mem[hole:hole+page], syscall.PROT_NONE); err != nil {
		t.Skip("no mprotect:", err)
	}
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	faulted := func() (faulted bool) {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(interface{ Addr() uintptr }); !ok {
					panic(r)
				}
				faulted = true
			}
		}()
		_, _, _ = decodeYAMLSource(data, nil)
		return false
	}()
	if !faulted {
		t.Fatal("reading the unreadable page did not fault")
	}
}
