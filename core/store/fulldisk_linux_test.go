package store

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/noggin-go/noggin/core/internal/codec"
	"github.com/noggin-go/noggin/core/sampledoc"
)

// smallDisk mounts a tmpfs of size bytes on a new directory, or skips the
// test, loudly, where that needs a privilege the run lacks.
func smallDisk(t *testing.T, size int) string {
	t.Helper()
	dir := t.TempDir()
	if err := unix.Mount("tmpfs", dir, "tmpfs", 0, "size="+strconv.Itoa(size)); err != nil {
		t.Skipf("SKIPPED: the full-disk sweep needs root to mount a tmpfs (%v)", err)
	}
	t.Cleanup(func() { _ = unix.Unmount(dir, unix.MNT_DETACH) })
	return dir
}

// fillDisk writes the file filler until the disk holding it is full, then
// frees free bytes of it (rounded to the disk's pages).
func fillDisk(t *testing.T, filler string, free int64) {
	t.Helper()
	f, err := os.Create(filler)
	if err != nil && !errors.Is(err, unix.ENOSPC) {
		t.Fatal(err)
	}
	if f == nil {
		return
	}
	defer f.Close()
	var size int64
	for _, chunk := range []int{64 << 10, 4 << 10, 1} {
		buf := make([]byte, chunk)
		for {
			n, err := f.Write(buf)
			size += int64(n)
			if err != nil {
				break
			}
		}
	}
	if err := f.Truncate(max(0, size-free)); err != nil {
		t.Fatal(err)
	}
}

// TestFullDiskSweep: a write that meets a full disk at any point (the lock,
// its pid file, the temporary file, the history) fails and leaves nothing
// behind; once space is freed the next write succeeds, and every
// acknowledged write is in the file.
func TestFullDiskSweep(t *testing.T) {
	for _, n := range []int{1000, 10000} {
		t.Run(strconv.Itoa(n)+" items", func(t *testing.T) {
			doc := codec.EncodeYAML(sampledoc.Doc(n, 1))
			dir := smallDisk(t, 3*len(doc)+(1<<20))
			p := filepath.Join(dir, "x.yaml")
			if err := os.WriteFile(p, doc, 0o666); err != nil {
				t.Fatal(err)
			}
			s := mustOpen(t, p, Options{LockTimeout: 2e9})
			mustAdd(t, s, "seed") // the history exists from here on
			acked := []string{"seed"}
			// Every free-space step from 0 to the file's size (and past it,
			// for the history's line).
			step := max(4096, len(doc)/sweepSteps)
			steps, failed := 0, 0
			for free := 0; free <= len(doc)+2*step; free += step {
				steps++
				fillDisk(t, filepath.Join(dir, "filler"), int64(free))
				key := "full-" + strconv.Itoa(free)
				if err := addItem(s, key); err == nil {
					acked = append(acked, key)
				} else {
					failed++
				}
				if err := os.Remove(filepath.Join(dir, "filler")); err != nil {
					t.Fatal(err)
				}
				if names := dirNames(t, dir); !slices.Equal(names, []string{"x.yaml", "x.yaml.history"}) {
					t.Fatalf("%d bytes free: after the write the disk holds %v", free, names)
				}
				key = "freed-" + strconv.Itoa(free)
				if err := addItem(s, key); err != nil {
					t.Fatalf("%d bytes free, then freed: the next write fails: %v", free, err)
				}
				acked = append(acked, key)
			}
			have := fileKeys(t, p)
			lost := 0
			for _, k := range acked {
				if !slices.Contains(have, k) {
					lost++
				}
			}
			t.Logf("%d steps (%d writes failed on the full disk), %d acknowledged, %d lost", steps, failed, len(acked), lost)
			if lost > 0 || failed == 0 {
				t.Fatalf("%d acknowledged writes lost; %d failed on a full disk (want some)", lost, failed)
			}
		})
	}
}
