package store

import (
	"bufio"
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/noggin-go/noggin/core/internal/codec"
	"github.com/noggin-go/noggin/core/noggin"
)

// plantLock creates <p>.lock by hand, with pid file content (nil = none).
func plantLock(t *testing.T, p string, content []byte) {
	t.Helper()
	if err := os.Mkdir(p+".lock", 0o777); err != nil {
		t.Fatal(err)
	}
	if content != nil {
		if err := os.WriteFile(p+".lock/pid", content, 0o666); err != nil {
			t.Fatal(err)
		}
	}
}

func pidFile(pid int, ms int64) []byte {
	return []byte(strconv.Itoa(pid) + "\n" + strconv.FormatInt(ms, 10) + "\n")
}

func TestLockBlocks(t *testing.T) {
	now := time.Now().UnixMilli()
	tests := []struct {
		name    string
		content []byte
	}{
		{"live holder, recent", pidFile(os.Getpid(), now)},
		{"no pid file", nil},
		{"garbled pid", []byte("abc\n" + strconv.FormatInt(now, 10) + "\n")},
		{"one line", []byte(strconv.Itoa(os.Getpid()))},
		{"pid 1 (alive, not ours)", pidFile(1, now)},
		{"empty pid file, young", []byte{}},
		{"cut short, young", []byte(strconv.Itoa(os.Getpid()) + "\n" + strconv.FormatInt(now, 10))},
		{"pid 1, 31 s old: a stalled holder", pidFile(1, now-31000)},
		{"pid 1, exactly 30 s old", pidFile(1, now-30000)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "x.yaml")
			s := mustOpen(t, p, Options{LockTimeout: 150 * time.Millisecond})
			plantLock(t, p, tc.content)
			e := asError(t, addItem(s, "k1"))
			want := "could not acquire lock on " + p + " within 5000ms"
			if e.Code != noggin.CodeLockTimeout || e.ExitCode != 1 || len(e.Data) != 0 || e.Message != want {
				t.Errorf("error = %+v", e)
			}
			if _, err := os.Stat(p); !os.IsNotExist(err) {
				t.Errorf("file was written")
			}
			if _, err := os.Stat(p + ".lock"); err != nil {
				t.Errorf("foreign lock removed: %v", err)
			}
		})
	}
}

func TestLockDefaultTimeout(t *testing.T) {
	if testing.Short() {
		t.Skip("takes 5 s")
	}
	p := filepath.Join(t.TempDir(), "x.yaml")
	s := mustOpen(t, p, Options{})
	plantLock(t, p, pidFile(os.Getpid(), time.Now().UnixMilli()))
	if err := addItem(s, "k1"); errCode(err) != noggin.CodeLockTimeout {
		t.Fatalf("error = %v", err)
	}
}

func TestStaleLocksReclaimed(t *testing.T) {
	now := time.Now().UnixMilli()
	dead := deadPid(t)
	tests := []struct {
		name    string
		content []byte
	}{
		{"dead pid", pidFile(dead, now)},
		{"live pid that started after the lock (reused)", pidFile(os.Getpid(), startMs(t, os.Getpid())-5000)},
		{"lock from before the last boot, live pid", pidFile(1, bootMs(t)-60000)},
		{"empty timestamp line is 0 (JavaScript Number)", []byte(strconv.Itoa(os.Getpid()) + "\n\n")},
		{"padded numbers, dead pid", []byte(" " + strconv.Itoa(dead) + " \n" + strconv.FormatInt(now, 10) + "\n")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "x.yaml")
			// A generous timeout: a reclaimed lock must not need it.
			s := mustOpen(t, p, Options{LockTimeout: time.Minute})
			plantLock(t, p, tc.content)
			mustAdd(t, s, "k1")
			if got := fileKeys(t, p); !slices.Equal(got, []string{"k1"}) {
				t.Errorf("keys = %v", got)
			}
			if _, err := os.Stat(p + ".lock"); !os.IsNotExist(err) {
				t.Errorf("lock left behind: %v", err)
			}
		})
	}
}

func TestLockFileContent(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.yaml")
	for _, fsy := range []fsys{osFS{}, nil} {
		name := p
		if fsy == nil { // the plain mkdir protocol, through os.Root
			r, err := os.OpenRoot(filepath.Dir(p))
			if err != nil {
				t.Fatal(err)
			}
			fsy, name = r, "x.yaml"
		}
		lk, err := acquireLock(context.Background(), fsy, name, p, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(p + ".lock/pid")
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(b), "\n")
		ms, _ := strconv.ParseInt(lines[1], 10, 64)
		if len(lines) != 4 || lines[0] != strconv.Itoa(os.Getpid()) || lines[2] != kernelMark || lines[3] != "" || time.Now().UnixMilli()-ms > 60000 {
			t.Errorf("pid file = %q", b)
		}
		lk.release()
		if names := dirNames(t, filepath.Dir(p)); len(names) != 0 {
			t.Errorf("after release: %v", names)
		}
	}
}

// startWriter starts a child process writing to file.
func startWriter(file, prefix string, n int, mode string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+mode, "CHILD_FILE="+file, "CHILD_PREFIX="+prefix, "CHILD_N="+strconv.Itoa(n))
	cmd.Stderr = os.Stderr
	return cmd
}

// runWriters runs a writer process per file (prefixes p0, p1, …), each
// adding writes items, and waits for them all.
func runWriters(t *testing.T, files []string, writes int) {
	t.Helper()
	var cmds []*exec.Cmd
	for i, file := range files {
		cmd := startWriter(file, "p"+strconv.Itoa(i), writes, "writer")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("writer failed: %v", err)
		}
	}
}

func TestManyProcessesLoseNothing(t *testing.T) {
	const procs, writes = 8, 50
	p := filepath.Join(t.TempDir(), "x.yaml")
	runWriters(t, slices.Repeat([]string{p}, procs), writes)
	keys := fileKeys(t, p)
	if len(keys) != procs*writes {
		t.Fatalf("%d items, want %d", len(keys), procs*writes)
	}
	// Each writer's items appear in its own order.
	next := map[string]int{}
	for _, k := range keys {
		prefix, n, _ := strings.Cut(k, "-")
		if i, _ := strconv.Atoi(n); i != next[prefix] {
			t.Fatalf("%s out of order", k)
		}
		next[prefix]++
	}
	if names := dirNames(t, filepath.Dir(p)); !slices.Equal(names, []string{"x.yaml", "x.yaml.history"}) {
		t.Errorf("directory holds %v", names)
	}
}

func TestCrashSafety(t *testing.T) {
	// 200 kills in 8 independent lanes (one file each) run in parallel, so
	// that child start-up latency overlaps.
	const lanes = 8
	rounds := 25
	if testing.Short() {
		rounds = 5
	}
	for lane := range lanes {
		t.Run("lane"+strconv.Itoa(lane), func(t *testing.T) {
			t.Parallel()
			crashLane(t, rand.New(rand.NewPCG(20261202, uint64(lane))), rounds)
		})
	}
}

// crashLane kills a writer child at random moments, rounds times, checking
// the file after each kill and after the next write.
func crashLane(t *testing.T, rng *rand.Rand, rounds int) {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, "x.yaml")
	var want []string // the keys as of the last check
	// Rounds after whose kill: the child had written, a lock was left, a
	// temporary lock directory was left, a temporary file was left.
	var stats [4]int
	defer func() {
		t.Logf("%d rounds; child had written %d, left a lock %d, a lock temp %d, a temp file %d", rounds, stats[0], stats[1], stats[2], stats[3])
	}()
	for round := range rounds {
		prefix := "c" + strconv.Itoa(round)
		cmd := startWriter(p, prefix, 0, "crashwriter")
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "ready\n" {
			t.Fatalf("child: %q, %v", line, err)
		}
		time.Sleep(time.Duration(rng.IntN(8000)) * time.Microsecond)
		_ = cmd.Process.Kill()
		_ = cmd.Wait() // reaped: its pid is dead now

		// The file parses and holds the state after some number of the
		// child's whole writes.
		b, err := os.ReadFile(p)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		doc, err := codec.DecodeYAML(b)
		if err != nil {
			t.Fatalf("round %d: file does not parse: %v\n%s", round, err, b)
		}
		for _, n := range dirNames(t, dir) {
			switch {
			case strings.HasPrefix(n, "x.yaml.lock.tmp-"):
				stats[2]++
			case n == "x.yaml.lock":
				stats[1]++
			case strings.HasPrefix(n, "x.yaml.tmp-"):
				stats[3]++
			}
		}
		got := keysOf(doc)
		if len(got) < len(want) || !slices.Equal(got[:len(want)], want) {
			t.Fatalf("round %d: keys %v do not extend %v", round, got, want)
		}
		if len(got) > len(want) {
			stats[0]++
		}
		for i, k := range got[len(want):] {
			if k != prefix+"-"+strconv.Itoa(i) {
				t.Fatalf("round %d: unexpected key %s in %v", round, k, got)
			}
		}
		// The next write succeeds (a lock the child held is reclaimed) and
		// leaves nothing behind but the noggin and its history.
		s := mustOpen(t, p, Options{LockTimeout: 2 * time.Second})
		mustAdd(t, s, "w"+strconv.Itoa(round))
		if have := dirNames(t, dir); !slices.Equal(have, []string{"x.yaml", "x.yaml.history"}) {
			t.Fatalf("round %d: directory holds %v", round, have)
		}
		want = fileKeys(t, p)
	}
}

func TestReclaimPutsBackAFreshLock(t *testing.T) {
	// A waiter judged a lock stale, but meanwhile it was reclaimed and
	// taken by a live holder: the holder keeps it.
	dir := t.TempDir()
	p := filepath.Join(dir, "x.yaml")
	fresh := pidFile(os.Getpid(), time.Now().UnixMilli())
	plantLock(t, p, fresh)
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		fsy  fsys
		lock string
	}{{osFS{}, p + ".lock"}, {r, "x.yaml.lock"}} {
		reclaimLock(c.fsy, c.lock, pidFile(deadPid(t), 1))
		if b, err := os.ReadFile(p + ".lock/pid"); err != nil || !bytes.Equal(b, fresh) {
			t.Fatalf("lock after reclaim: %q, %v", b, err)
		}
		if names := dirNames(t, dir); !slices.Equal(names, []string{"x.yaml.lock"}) {
			t.Fatalf("directory holds %v", names)
		}
	}
	// The stale one itself is removed.
	reclaimLock(osFS{}, p+".lock", fresh)
	if names := dirNames(t, dir); len(names) != 0 {
		t.Fatalf("directory holds %v", names)
	}
}

// TestRemoveLockLeavesNothing: a released lock is gone with everything in
// it, its pid file alone (the usual case) or more that another tool put
// there; a lock that is no longer ours (its pid file changed) is left.
func TestRemoveLockLeavesNothing(t *testing.T) {
	for _, tc := range []struct {
		name  string
		extra map[string]string
		left  int
	}{
		{"pid file", nil, 0},
		{"pid file and more", map[string]string{"other": "x"}, 0},
		{"pid file replaced by another holder's", map[string]string{"pid": "1\n1\n"}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "n.yaml")
			lk, err := acquireLock(context.Background(), osFS{}, p, p, time.Second)
			if err != nil {
				t.Fatal(err)
			}
			for f, content := range tc.extra {
				if err := os.WriteFile(p+".lock/"+f, []byte(content), 0o666); err != nil {
					t.Fatal(err)
				}
			}
			lk.release()
			left, err := os.ReadDir(filepath.Dir(p))
			if err != nil || len(left) != tc.left {
				t.Fatalf("left behind: %v %v", left, err)
			}
		})
	}
}

// TestUnfinishedLockReclaimedWhenOld: a lock whose pid file is missing,
// empty or cut short (its maker died or hit a full disk between mkdir and
// the pid file) blocks while young (TestLockBlocks), and is taken once it
// and its pid file are as old as the original's stale age.
func TestUnfinishedLockReclaimedWhenOld(t *testing.T) {
	tests := []struct {
		name    string
		content []byte
	}{
		{"no pid file", nil},
		{"empty pid file", []byte{}},
		{"pid only", []byte("123")},
		{"no newline after the timestamp", []byte("1\n" + strconv.FormatInt(time.Now().UnixMilli(), 10))},
		{"garbled", []byte("\x00\x00\x00")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "x.yaml")
			plantLock(t, p, tc.content)
			old := time.Now().Add(-staleAfter - time.Second)
			for _, name := range []string{p + ".lock/pid", p + ".lock"} {
				if err := os.Chtimes(name, old, old); err != nil && !os.IsNotExist(err) {
					t.Fatal(err)
				}
			}
			mustAdd(t, mustOpen(t, p, Options{LockTimeout: time.Second}), "k1")
			if _, err := os.Stat(p + ".lock"); !os.IsNotExist(err) {
				t.Errorf("lock left behind: %v", err)
			}
		})
	}
}

// bootMs is this host's boot time, epoch ms.
func bootMs(t *testing.T) int64 {
	t.Helper()
	ms, ok := bootTime()
	if !ok {
		t.Skip("no /proc/stat")
	}
	return ms
}

// startMs is the start of process pid, epoch ms.
func startMs(t *testing.T, pid int) int64 {
	t.Helper()
	ms, ok := processStart(pid)
	if !ok {
		t.Skip("no /proc")
	}
	return ms
}
