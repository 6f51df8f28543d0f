package app

import (
	"bytes"
	"context"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Determinism seam of the tests (NOGGIN_CLOCK, NOGGIN_KEYS).
var testEnv = map[string]string{"NOGGIN_CLOCK": "2026-12-02T12:00:00.000Z", "NOGGIN_KEYS": "sequential"}

func testGetenv(k string) string { return testEnv[k] }

func TestCheckListenAddr(t *testing.T) {
	for _, c := range []struct {
		addr  string
		allow bool
		ok    bool
	}{
		{"127.0.0.1:8765", false, true},
		{"[::1]:8765", false, true},
		{"localhost:8765", false, true},
		{"127.0.0.1:0", false, true},
		{":8765", false, false},
		{"0.0.0.0:8765", false, false},
		{"192.168.1.2:8765", false, false},
		{"0.0.0.0:8765", true, true},
		{"nohost", false, false},
	} {
		err := checkListenAddr(c.addr, c.allow)
		if (err == nil) != c.ok {
			t.Errorf("checkListenAddr(%q, %v) = %v", c.addr, c.allow, err)
		}
	}
}

// TestMainFlags covers the command line: bad flags and arguments, a
// refused remote address, and a --http server that serves until cancelled.
func TestMainFlags(t *testing.T) {
	run := func(args ...string) (int, string) {
		var out bytes.Buffer
		code := Main(context.Background(), Env{Args: args, Getenv: testGetenv, Stdin: io.NopCloser(strings.NewReader("")),
			Stdout: nopWriteCloser{&out}, Stderr: &out})
		return code, out.String()
	}
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"--bogus"}, 2, "flag provided but not defined"},
		{[]string{"extra"}, 2, "unexpected argument"},
		{[]string{"--http", "0.0.0.0:0"}, 2, "--allow-remote"},
		{[]string{"--root", "/definitely/not/here"}, 2, "--root"},
		{[]string{"--log-level", "loud"}, 2, "--log-level"},
		{[]string{"--help"}, 0, "usage: noggin-mcp"},
		{[]string{"help"}, 0, "usage: noggin-mcp"},
		{[]string{"-h"}, 0, "--server URL"},
		{[]string{"--version"}, 0, ""},
		{[]string{}, 0, ""}, // stdio on an empty stdin: clean EOF
	} {
		code, stderr := run(c.args...)
		if code != c.code || !strings.Contains(stderr, c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %d containing %q", c.args, code, stderr, c.code, c.msg)
		}
	}
	code, stderr := run("--http", "127.0.0.1:0", "--allow-remote", "--root", "/definitely/not/here")
	if code != 2 {
		t.Errorf("bad root with --http: %d %s", code, stderr)
	}

	// A real --http server on an ephemeral loopback port.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ready := make(chan string, 1)
	done := make(chan int, 1)
	root := t.TempDir()
	go func() {
		done <- Main(ctx, Env{Args: []string{"--http", "127.0.0.1:0", "--root", root}, Getenv: testGetenv,
			Stdin: io.NopCloser(strings.NewReader("")), Stdout: nopWriteCloser{io.Discard}, Stderr: io.Discard,
			Ready: func(a string) { ready <- a }})
	}()
	var addr string
	select {
	case addr = <-ready:
	case code := <-done:
		t.Fatalf("server exited early: %d", code)
	}
	if _, _, err := net.SplitHostPort(addr); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "0"}, nil).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: "http://" + addr, DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "noggin_where", Arguments: map[string]any{"noggin": "x.yaml"}}); err != nil || r.IsError {
		t.Errorf("where: %+v, %v", r, err)
	}
	cs.Close()
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit %d after cancel", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("server did not stop")
	}
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
