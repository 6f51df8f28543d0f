package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestShowWatchCollectsGarbage runs show --watch through many changes of a
// noggin of a few megabytes: a one-shot invocation leaves the collector
// off, but a watch lives for hours, so its peak resident set must stay
// near one view's worth of memory instead of growing with every redraw.
func TestShowWatchCollectsGarbage(t *testing.T) {
	if testing.Short() {
		t.Skip("80 writes of a 2 MB noggin")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "n.yaml")
	// 2,000 items with a 1 kB note each, written as a file of another tool.
	var b strings.Builder
	b.WriteString("schemaVersion: 1\nactive: k0\nitems:\n")
	note := strings.Repeat("lorem ipsum ", 85)
	for i := range 2000 {
		parent := "null"
		if i > 0 {
			parent = "k" + strconv.Itoa((i-1)/10)
		}
		fmt.Fprintf(&b, "  - key: k%d\n    parentKey: %s\n    title: item %d\n    done: false\n    createdAt: '2026-01-02T03:04:05.678Z'\n    notes:\n      - timestamp: '2026-01-02T03:04:05.678Z'\n        text: %s\n", i, parent, i, note)
	}
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "NOGGIN=", "GOGC=", "NOGGIN_CLOCK=2026-01-02T03:04:05.678Z", "NOGGIN_KEYS=sequential")
	cmd := exec.Command(binary, "--noggin", p, "show", "--json", "--with-all", "--watch")
	cmd.Env = env
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	frames := bufio.NewReaderSize(out, 1<<20)
	next := func() {
		t.Helper()
		if _, err := frames.ReadString('\n'); err != nil {
			t.Fatalf("show --watch ended: %v", err)
		}
	}
	next()
	for i := range 80 {
		w := exec.Command(binary, "--noggin", p, "note", "change "+strconv.Itoa(i))
		w.Env = env
		if o, err := w.CombinedOutput(); err != nil {
			t.Fatalf("note: %v\n%s", err, o)
		}
		next() // the frame of this change
	}
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
	if err != nil {
		t.Fatal(err)
	}
	var peakKB int
	for line := range strings.Lines(string(status)) {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
			peakKB, _ = strconv.Atoi(f[1])
		}
	}
	// Each redraw reads and encodes the whole 2.5 MB noggin; 80 of them
	// without a collection pass 400 MB.
	if peakKB == 0 || peakKB > 100<<10 {
		t.Fatalf("show --watch peaked at %d kB of resident memory after 80 changes", peakKB)
	}
	t.Logf("peak resident set after 80 changes: %d kB", peakKB)
}
