package app

import (
	"math"
	"runtime/debug"
)

// collectorOff is set while OneShot's setting holds.
var collectorOff bool

// OneShot turns the garbage collector off for an invocation that lives for
// milliseconds, where collecting is wasted work (bench/mechanisms.md):
// unless the user tuned GOGC, it runs only once the heap reaches 512 MiB
// (a 10k-item noggin needs a few dozen). main calls it first.
func OneShot(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(-1)
		debug.SetMemoryLimit(512 << 20)
		collectorOff = true
	}
}

// longLived turns the collector back on for a command that keeps running
// (show --watch), whose every redraw would otherwise add to the heap.
func longLived() {
	if collectorOff {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
		collectorOff = false
	}
}
