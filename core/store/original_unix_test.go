//go:build unix

package store

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/noggin-go/noggin/core/internal/codec"
	"github.com/noggin-go/noggin/core/noggin"
)

// childOriginal stands in for the original tool: it follows the original's
// lock protocol exactly as docs/file-format.md gives it (mkdir the lock,
// write "<pid>\n<ms>\n", steal a lock whose timestamp is CHILD_STALE_MS old
// or whose pid is dead, give up after 5 s; read, write a temporary file,
// rename, remove the lock). It appends CHILD_PREFIX-0, -1, … until killed,
// printing each key once its rename is done. At write CHILD_STOP_AT it
// stops itself (SIGSTOP) CHILD_DELAY ms after taking the lock and reading
// the file, printing "stopping" first.
func childOriginal() int {
	file, prefix := os.Getenv("CHILD_FILE"), os.Getenv("CHILD_PREFIX")
	stopAt, _ := strconv.Atoi(os.Getenv("CHILD_STOP_AT"))
	delay, _ := strconv.Atoi(os.Getenv("CHILD_DELAY"))
	for i := 0; ; i++ {
		if !originalLock(file + ".lock") {
			continue // lock-timeout: the original reports it; try again
		}
		doc := &noggin.Document{}
		if b, err := os.ReadFile(file); err == nil {
			if doc, err = codec.DecodeYAML(b); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
		}
		if i == stopAt && os.Getenv("CHILD_STOP_AT") != "" {
			time.Sleep(time.Duration(delay) * time.Millisecond)
			fmt.Println("stopping")
			_ = syscall.Kill(os.Getpid(), syscall.SIGSTOP)
		}
		key := prefix + "-" + strconv.Itoa(i)
		doc.Items = append(doc.Items, &noggin.Item{Key: key, Title: key, Notes: []noggin.Note{}})
		tmp := file + ".tmp-" + strconv.Itoa(os.Getpid())
		if err := os.WriteFile(tmp, codec.EncodeYAML(doc), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if err := os.Rename(tmp, file); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		_ = os.RemoveAll(file + ".lock")
		fmt.Println(key)
	}
}

// originalLock takes the lock directory path by the original's rule, or
// reports false after 5 s.
func originalLock(path string) bool {
	staleMs, _ := strconv.ParseInt(os.Getenv("CHILD_STALE_MS"), 10, 64)
	start := time.Now()
	for time.Since(start) < 5*time.Second {
		err := os.Mkdir(path, 0o777)
		if err == nil {
			_ = os.WriteFile(path+"/pid", fmt.Appendf(nil, "%d\n%d\n", os.Getpid(), time.Now().UnixMilli()), 0o644)
			return true
		}
		if !errors.Is(err, fs.ErrExist) {
			return false
		}
		if b, err := os.ReadFile(path + "/pid"); err == nil {
			lines := strings.Split(string(b), "\n")
			if len(lines) >= 2 {
				pid, err1 := strconv.Atoi(strings.TrimSpace(lines[0]))
				ts, err2 := strconv.ParseInt(strings.TrimSpace(lines[1]), 10, 64)
				if err1 == nil && err2 == nil {
					dead := syscall.Kill(pid, 0) != nil && !errors.Is(syscall.Kill(pid, 0), syscall.EPERM)
					if time.Now().UnixMilli()-ts >= staleMs || dead {
						_ = os.RemoveAll(path)
						continue
					}
				}
			}
		}
		time.Sleep(time.Duration(25+rand.IntN(50)) * time.Millisecond)
	}
	return false
}

// childStoppingWriter is ours: it appends CHILD_PREFIX-0, -1, … until
// killed, printing each acknowledged key; at write CHILD_STOP_AT it stops
// itself (SIGSTOP) CHILD_DELAY ms into holding the lock, just before its
// rename, printing "stopping" first. A fenced write (lock-lost) is not
// acknowledged, and it goes on.
func childStoppingWriter() int {
	stopAt, _ := strconv.Atoi(os.Getenv("CHILD_STOP_AT"))
	delay, _ := strconv.Atoi(os.Getenv("CHILD_DELAY"))
	s, err := Open(context.Background(), os.Getenv("CHILD_FILE"), Options{LockTimeout: 60e9})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	for i := 0; ; i++ {
		if i == stopAt {
			beforeRename = func() {
				time.Sleep(time.Duration(delay) * time.Millisecond)
				fmt.Println("stopping")
				_ = syscall.Kill(os.Getpid(), syscall.SIGSTOP)
			}
		} else {
			beforeRename = nil
		}
		key := os.Getenv("CHILD_PREFIX") + "-" + strconv.Itoa(i)
		switch err := addItem(s, key); {
		case err == nil:
			fmt.Println(key)
		case errCode(err) != noggin.CodeLockLost:
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
}

// TestStalledOriginalCostsNoWrite: writers of ours and a stand-in for the
// original share a file, and the lock's holder (the original, or one of
// ours) is stopped for longer than the original's stale age. Ours never
// take a lock from a live original (its resumed rename would drop what
// they wrote); the original takes ours, and ours, resumed, write nothing.
// Every acknowledged write is in the file.
func TestStalledOriginalCostsNoWrite(t *testing.T) {
	const staleMs = 1000
	runs := stalledRuns
	if testing.Short() {
		runs = 1
	}
	for _, holder := range []string{"original", "ours"} {
		for _, delay := range []int{0, 200, 350} {
			for run := range runs {
				t.Run(fmt.Sprintf("%s holder, stopped %d ms in, run %d", holder, delay, run), func(t *testing.T) {
					t.Parallel()
					stalledRun(t, holder, delay, staleMs)
				})
			}
		}
	}
}

// stalledRun is one run of TestStalledOriginalCostsNoWrite.
func stalledRun(t *testing.T, holder string, delay, staleMs int) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "x.yaml")
	var mu sync.Mutex
	var acked []string
	stopped := make(chan struct{}, 1)
	var readers sync.WaitGroup
	start := func(mode, prefix string, stop bool) *exec.Cmd {
		cmd := startWriter(p, prefix, 0, mode)
		cmd.Env = append(cmd.Env, "CHILD_STALE_MS="+strconv.Itoa(staleMs), "CHILD_DELAY="+strconv.Itoa(delay))
		if stop {
			cmd.Env = append(cmd.Env, "CHILD_STOP_AT=3")
		}
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
				if sc.Text() == "stopping" {
					stopped <- struct{}{}
					continue
				}
				mu.Lock()
				acked = append(acked, sc.Text())
				mu.Unlock()
			}
		}()
		return cmd
	}
	stopper := start("original", "js", holder == "original")
	cmds := []*exec.Cmd{stopper, start("ackwriter", "go0", false), start("ackwriter", "go1", false)}
	if holder == "ours" {
		stopper = start("stopping", "go2", true)
		cmds = append(cmds, stopper)
	}
	select {
	case <-stopped:
	case <-time.After(30 * time.Second):
		t.Fatal("the holder never stopped")
	}
	time.Sleep(time.Duration(2*staleMs+500) * time.Millisecond) // past the stale age
	if err := stopper.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond) // the resumed holder's rename
	for _, cmd := range cmds {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}
	readers.Wait()
	have := fileKeys(t, p)
	var lost []string
	for _, k := range acked {
		if !slices.Contains(have, k) {
			lost = append(lost, k)
		}
	}
	t.Logf("%d acknowledged, %d lost", len(acked), len(lost))
	if len(lost) > 0 {
		t.Fatalf("acknowledged writes lost: %v", lost[:min(len(lost), 10)])
	}
}
