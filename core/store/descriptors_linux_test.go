//go:build linux

package store

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

// TestWritesKeepNoDescriptors: a store's writes close every file they
// open, so a long-lived store's descriptors do not grow with its writes.
func TestWritesKeepNoDescriptors(t *testing.T) {
	// No collections: a leaked *os.File's finalizer would close it and
	// hide the leak.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	for _, mapped := range []bool{false, true} {
		t.Run(fmt.Sprintf("mapped=%v", mapped), func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "n.yaml")
			s := mustOpen(t, p, Options{MapFiles: mapped})
			mustAdd(t, s, "k0")
			before := openFiles(t)
			for i := 1; i <= 40; i++ {
				mustAdd(t, s, fmt.Sprintf("k%d", i))
			}
			if now := openFiles(t); now != before {
				t.Errorf("%d open files after 40 writes, %d before", now, before)
			}
		})
	}
}

// openFiles counts the process's open descriptors.
func openFiles(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(ents)
}
