package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
)

// TestShowWatchTerminal drives show --watch in a pseudo-terminal while
// other processes write the noggin, and reads the redrawn screen: each
// change is drawn in place (cursor home, lines overwritten, the rest
// cleared), it costs no CPU while nothing changes, and Ctrl-C ends it.
func TestShowWatchTerminal(t *testing.T) {
	p := filepath.Join(t.TempDir(), "n.yaml")
	env := append(os.Environ(), "NOGGIN=", "NOGGIN_CLOCK=2026-01-02T03:04:05.678Z", "NOGGIN_KEYS=sequential")
	nog := func(args ...string) {
		t.Helper()
		c := exec.Command(binary, append([]string{"--noggin", p}, args...)...)
		c.Env = env
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("noggin %v: %v\n%s", args, err, out)
		}
	}
	nog("push", "ship the redesign")
	nog("push", "write the spec")

	cmd := exec.Command(binary, "--noggin", p, "show", "--watch")
	cmd.Env = env
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 24, Cols: 80})
	if err != nil {
		t.Fatal(err)
	}
	defer tty.Close()
	var mu sync.Mutex
	var screen bytes.Buffer
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := tty.Read(buf)
			mu.Lock()
			screen.Write(buf[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	// frame waits for the last frame drawn to contain want and returns it
	// as the lines a person sees.
	frame := func(want string) string {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			mu.Lock()
			out := screen.String()
			mu.Unlock()
			last := out[strings.LastIndex(out, "\x1b[H")+1:]
			if strings.Contains(last, want) && strings.HasSuffix(last, "\x1b[J") {
				last = strings.TrimPrefix(last, "[H")
				last = strings.TrimPrefix(last, "\x1b[2J\x1b[H")
				last = strings.NewReplacer("\x1b[K", "", "\x1b[J", "", "\r", "").Replace(last)
				return last
			}
			if time.Now().After(deadline) {
				t.Fatalf("no frame with %q; the terminal shows %q", want, out)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	status := "(watching " + p + "; Ctrl-C to stop)\n"
	if got, want := frame("write the spec"), "/1 ship the redesign\n  /1/1 📍 write the spec\n"+status; got != want {
		t.Fatalf("first frame:\n%q\nwant\n%q", got, want)
	}

	// Idle: no busy poll.
	time.Sleep(300 * time.Millisecond)
	before := cpuTicks(t, cmd.Process.Pid)
	time.Sleep(time.Second)
	if used := cpuTicks(t, cmd.Process.Pid) - before; used > 5 {
		t.Errorf("show --watch used %d CPU ticks in an idle second", used)
	}

	nog("note", "spec lives in docs/")
	if got, want := frame("✏️"), "/1 ship the redesign\n  /1/1 📍 write the spec ✏️\n"+status; got != want {
		t.Fatalf("after a note:\n%q\nwant\n%q", got, want)
	}
	nog("done")
	if got, want := frame("✅"), "/1 📍 ship the redesign\n  /1/1 ✅ write the spec ✏️\n"+status; got != want {
		t.Fatalf("after done:\n%q\nwant\n%q", got, want)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("show --watch after Ctrl-C: %v", err)
	}
}

// cpuTicks is the user plus system CPU time of a process, in clock ticks.
func cpuTicks(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		t.Skip("no /proc: ", err)
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+2:]))
	u, _ := strconv.Atoi(f[11])
	s, _ := strconv.Atoi(f[12])
	return u + s
}

// TestUndoAfterExternalWrite: another process (here sed, standing in for
// the JavaScript tool, which keeps no history) rewrites the noggin after a
// push; undo then refuses with undo-conflict and changes nothing.
func TestUndoAfterExternalWrite(t *testing.T) {
	p := filepath.Join(t.TempDir(), "n.yaml")
	env := append(os.Environ(), "NOGGIN=", "NOGGIN_CLOCK=2026-01-02T03:04:05.678Z", "NOGGIN_KEYS=sequential")
	run := func(args ...string) (string, int) {
		c := exec.Command(binary, append([]string{"--noggin", p}, args...)...)
		c.Env = env
		out, _ := c.CombinedOutput()
		return string(out), c.ProcessState.ExitCode()
	}
	if out, code := run("push", "mine"); code != 0 {
		t.Fatalf("push: %d %s", code, out)
	}
	if out, err := exec.Command("sed", "-i", "s/title: mine/title: theirs/", p).CombinedOutput(); err != nil {
		t.Fatalf("sed: %v %s", err, out)
	}
	before, _ := os.ReadFile(p)
	out, code := run("undo", "--json")
	if code != 1 || !strings.Contains(out, `"code": "undo-conflict"`) || !strings.Contains(out, `"seq": 1`) {
		t.Errorf("undo after an external write: exit %d\n%s", code, out)
	}
	if after, _ := os.ReadFile(p); !bytes.Equal(after, before) || !bytes.Contains(after, []byte("theirs")) {
		t.Errorf("undo-conflict changed the file:\n%s", after)
	}
}
