//go:build unix

package store

import (
	"bufio"
	"encoding/json"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/noggin-go/noggin/core/internal/codec"
	"github.com/noggin-go/noggin/core/noggin"
)

// shortStale makes locks judged by the original's age rule stale after d
// for the rest of the test.
func shortStale(t *testing.T, d time.Duration) {
	t.Helper()
	old := staleAfter
	staleAfter = d
	t.Cleanup(func() { staleAfter = old })
}

// stallingChild starts a child that takes the lock on p to add the item
// key and stops just before its rename. continueIt lets it go on; wait
// returns what it printed last ("ok" or an error code).
func stallingChild(t *testing.T, p, key string) (cmd *exec.Cmd, continueIt func(), wait func() string) {
	t.Helper()
	cmd = startWriter(p, key, 0, "stallwriter")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	r := bufio.NewReader(out)
	if line, err := r.ReadString('\n'); err != nil || line != "holding\n" {
		t.Fatalf("child: %q, %v", line, err)
	}
	continueIt = func() { _, _ = io.WriteString(in, "go\n") }
	wait = func() string {
		rest, _ := io.ReadAll(r)
		_ = cmd.Wait()
		return strings.TrimSpace(string(rest))
	}
	return cmd, continueIt, wait
}

// TestStoppedHolderKeepsLock: a holder stopped (SIGSTOP) for longer than
// the original's stale age keeps its lock; the others' writes time out
// unacknowledged instead of being lost when it resumes.
func TestStoppedHolderKeepsLock(t *testing.T) {
	shortStale(t, 100*time.Millisecond)
	p := filepath.Join(t.TempDir(), "x.yaml")
	mustAdd(t, mustOpen(t, p, Options{}), "first")
	cmd, continueIt, wait := stallingChild(t, p, "stalled")
	if err := cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // three stale ages
	var acked []string
	s := mustOpen(t, p, Options{LockTimeout: 300 * time.Millisecond})
	for i := range 3 {
		key := "other-" + strconv.Itoa(i)
		err := addItem(s, key)
		switch {
		case err == nil:
			acked = append(acked, key)
		case errCode(err) != noggin.CodeLockTimeout:
			t.Fatalf("write while the holder is stopped: %v", err)
		}
	}
	if err := cmd.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	continueIt()
	if got := wait(); got != "ok" {
		t.Fatalf("stalled writer: %q", got)
	}
	mustAdd(t, s, "after")
	keys := fileKeys(t, p)
	for _, k := range append(acked, "first", "stalled", "after") {
		if !contains(keys, k) {
			t.Errorf("acknowledged write %s lost: file holds %v", k, keys)
		}
	}
	if len(acked) != 0 {
		t.Errorf("writes acknowledged while the holder was alive and held the lock: %v", acked)
	}
}

// TestStolenLockFencesWrite: the original takes a lock older than 30 s
// even from a live holder, and writes; the holder, resumed, finds the
// lock no longer its own before its rename and writes nothing.
func TestStolenLockFencesWrite(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.yaml")
	mustAdd(t, mustOpen(t, p, Options{}), "first")
	_, continueIt, wait := stallingChild(t, p, "stalled")
	// The original's steal: remove the lock, make its own, write, release.
	if err := os.RemoveAll(p + ".lock"); err != nil {
		t.Fatal(err)
	}
	plantLock(t, p, pidFile(os.Getpid(), time.Now().UnixMilli()))
	doc := &noggin.Document{Items: []*noggin.Item{{Key: "js", Title: "js", Notes: []noggin.Note{}}}}
	if err := os.WriteFile(p, codec.EncodeYAML(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	continueIt()
	if got := wait(); got != noggin.CodeLockLost {
		t.Fatalf("stalled writer after the steal: %q, want %s", got, noggin.CodeLockLost)
	}
	if keys := fileKeys(t, p); len(keys) != 1 || keys[0] != "js" {
		t.Fatalf("file holds %v, want the stealer's write alone", keys)
	}
	if _, err := os.Stat(p + ".lock"); err != nil {
		t.Fatalf("the stealer's lock was removed: %v", err)
	}
	// The fenced write's journal entry (appended just before the fence)
	// is taken back: the history holds the first write only.
	if seqs := journalSeqs(t, p+historySuffix); len(seqs) != 1 {
		t.Fatalf("history has %d entries after a fenced write, want 1", len(seqs))
	}
}

// TestKillNineContention: writers are killed with SIGKILL at random
// moments while others wait for the lock; every acknowledged write is in
// the file once, and the history's seq numbers never repeat.
func TestKillNineContention(t *testing.T) {
	const writers = 6
	kills := 40
	if testing.Short() {
		kills = 10
	}
	rng := rand.New(rand.NewPCG(20261204, 27))
	p := filepath.Join(t.TempDir(), "x.yaml")
	var mu sync.Mutex
	var acked []string
	var readers sync.WaitGroup
	start := func(prefix string) *exec.Cmd {
		cmd := startWriter(p, prefix, 0, "ackwriter")
		cmd.Stderr = nil
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		readers.Add(1)
		go func() {
			defer readers.Done()
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				mu.Lock()
				acked = append(acked, sc.Text())
				mu.Unlock()
			}
		}()
		return cmd
	}
	cmds := make([]*exec.Cmd, writers)
	for i := range cmds {
		cmds[i] = start("w" + strconv.Itoa(i))
	}
	for k := range kills {
		time.Sleep(time.Duration(10+rng.IntN(60)) * time.Millisecond)
		i := rng.IntN(writers)
		_ = cmds[i].Process.Kill()
		_ = cmds[i].Wait()
		cmds[i] = start("k" + strconv.Itoa(k))
	}
	for _, cmd := range cmds {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}
	readers.Wait()
	mustAdd(t, mustOpen(t, p, Options{LockTimeout: 5 * time.Second}), "final")
	keys := fileKeys(t, p)
	seen := map[string]int{}
	for _, k := range keys {
		seen[k]++
		if seen[k] == 2 {
			t.Errorf("item %s written twice", k)
		}
	}
	lost := 0
	for _, k := range acked {
		if seen[k] == 0 {
			lost++
			t.Errorf("acknowledged write %s lost", k)
		}
	}
	seqs := journalSeqs(t, p+historySuffix)
	for i := 1; i < len(seqs); i++ {
		if seqs[i] <= seqs[i-1] {
			t.Errorf("history seq %d follows %d", seqs[i], seqs[i-1])
		}
	}
	t.Logf("%d kills, %d acknowledged writes, %d lost, %d items, %d history entries", kills, len(acked), lost, len(keys), len(seqs))
}

// journalSeqs lists the seq of every entry of a history file.
func journalSeqs(t *testing.T, p string) []int {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var seqs []int
	for line := range strings.SplitSeq(strings.TrimSpace(string(b)), "\n") {
		var e struct{ Seq int }
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			continue // a line cut by a kill
		}
		seqs = append(seqs, e.Seq)
	}
	return seqs
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
