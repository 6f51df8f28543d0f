//go:build linux

package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"syscall"
	"testing"
	"time"
)

// TestHeldFile: a long-lived store keeps open the file it last wrote (so
// the next write's rename does not free the replaced one in line) and
// closes each replaced file, so its descriptors do not grow with its
// writes; a one-shot store holds nothing.
func TestHeldFile(t *testing.T) {
	// No collections: a leaked *os.File's finalizer would close it and
	// hide the leak.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	for _, mapped := range []bool{false, true} {
		t.Run(fmt.Sprintf("mapped=%v", mapped), func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "n.yaml")
			s := mustOpen(t, p, Options{MapFiles: mapped})
			fs := s.(*fileStore)
			mustAdd(t, s, "k0")
			before := openFiles(t)
			for i := 1; i <= 40; i++ {
				mustAdd(t, s, fmt.Sprintf("k%d", i))
			}
			if mapped {
				if fs.held.f != nil {
					t.Fatal("a one-shot store holds a file")
				}
				return
			}
			held, err := fs.held.f.Stat()
			if err != nil {
				t.Fatal(err)
			}
			now, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			if held.Sys().(*syscall.Stat_t).Ino != now.Sys().(*syscall.Stat_t).Ino {
				t.Error("the held file is not the file the store last wrote")
			}
			// The replaced files are closed in the background.
			waitFiles := func(want int, what string) {
				t.Helper()
				deadline := time.Now().Add(10 * time.Second)
				for openFiles(t) > want {
					if time.Now().After(deadline) {
						t.Fatalf("%s: %d open files, want %d", what, openFiles(t), want)
					}
					time.Sleep(10 * time.Millisecond)
				}
			}
			waitFiles(before, "after 40 writes")
			// Another process replaces the file: once the store has read
			// the new one, the old version it held is let go.
			if err := os.WriteFile(p+".other", []byte("schemaVersion: 1\nactive: null\nitems: []\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(p+".other", p); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Load(context.Background()); err != nil {
				t.Fatal(err)
			}
			if fs.held.f != nil {
				t.Error("the store still holds the file another process replaced")
			}
			waitFiles(before-1, "after another process's write")
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
