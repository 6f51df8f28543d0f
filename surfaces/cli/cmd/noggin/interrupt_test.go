//go:build unix

package main

import (
	"bytes"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestInterruptWhileWaitingForLock: Ctrl-C while noggin waits for a lock
// held by another live process ends it at once with the cancelled
// envelope (exit 130), and the file is untouched.
func TestInterruptWhileWaitingForLock(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "n.yaml")
	before := []byte("schemaVersion: 1\nactive: null\nitems: []\n")
	if err := os.WriteFile(p, before, 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(p+".lock", 0o777); err != nil {
		t.Fatal(err)
	}
	pid := strconv.Itoa(os.Getpid()) + "\n" + strconv.FormatInt(time.Now().UnixMilli(), 10) + "\n"
	if err := os.WriteFile(p+".lock/pid", []byte(pid), 0o666); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binary, "--json", "--noggin", p, "push", "never written")
	cmd.Env = append(os.Environ(), "NOGGIN=")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // well inside the 5 s lock wait
	start := time.Now()
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("exited %v after the interrupt", took)
	}
	if code := cmd.ProcessState.ExitCode(); code != 130 {
		t.Fatalf("exit %d (%v), stdout %s stderr %s", code, err, stdout.String(), stderr.String())
	}
	out := stdout.String() + stderr.String()
	if !strings.Contains(out, `"code": "cancelled"`) || !strings.Contains(out, "nothing was written") {
		t.Errorf("output:\n%s", out)
	}
	if after, _ := os.ReadFile(p); !bytes.Equal(after, before) {
		t.Errorf("file changed:\n%s", after)
	}
}

// TestInterruptWhileWaitingForServer: Ctrl-C while noggin waits for a
// remote server that never answers ends it at once with the cancelled
// envelope (exit 130).
func TestInterruptWhileWaitingForServer(t *testing.T) {
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	go func() {
		for {
			c, err := silent.Accept()
			if err != nil {
				return
			}
			defer c.Close() // hold it open, say nothing
		}
	}()
	cmd := exec.Command(binary, "--json", "--noggin", "http://"+silent.Addr().String()+"/team.yaml", "push", "never sent")
	cmd.Env = append(os.Environ(), "NOGGIN=", "NOGGIN_TOKEN=")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // the answer is awaited for seconds
	start := time.Now()
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("exited %v after the interrupt", took)
	}
	if code := cmd.ProcessState.ExitCode(); code != 130 {
		t.Fatalf("exit %d (%v), stdout %s stderr %s", code, err, stdout.String(), stderr.String())
	}
	if out := stdout.String() + stderr.String(); !strings.Contains(out, `"code": "cancelled"`) {
		t.Errorf("output:\n%s", out)
	}
}
