package app

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
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
		name         string
		addr         string
		allow, token bool
		ok           bool
	}{
		{"IPv4 loopback", "127.0.0.1:8765", false, false, true},
		{"IPv6 loopback", "[::1]:8765", false, false, true},
		{"localhost", "localhost:8765", false, false, true},
		{"an ephemeral loopback port", "127.0.0.1:0", false, false, true},
		{"every interface", ":8765", false, false, false},
		{"the unspecified address", "0.0.0.0:8765", false, false, false},
		{"a LAN address", "192.168.1.2:8765", false, false, false},
		{"allowed remote without a token", "0.0.0.0:8765", true, false, false},
		{"a token without allow-remote", "0.0.0.0:8765", false, true, false},
		{"allowed remote with a token", "0.0.0.0:8765", true, true, true},
		{"no port", "nohost", false, false, false},
	} {
		err := checkListenAddr(c.addr, c.allow, c.token)
		if (err == nil) != c.ok {
			t.Errorf("%s: checkListenAddr(%q, %v, %v) = %v", c.name, c.addr, c.allow, c.token, err)
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
		{[]string{"--bogus"}, 2, "noggin-mcp: unknown flag: --bogus (see noggin-mcp --help)"},
		{[]string{"-root"}, 2, "noggin-mcp: flag -root requires a value"},
		{[]string{"completion", "fish"}, 0, ""},
		{[]string{"completion", "tcsh"}, 2, "bash, zsh, fish"},
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
	if res, err := http.Get("http://" + addr + "/healthz"); err != nil || res.StatusCode != 200 {
		t.Errorf("/healthz: %v %v", res, err)
	} else {
		b, _ := io.ReadAll(res.Body)
		_ = res.Body.Close()
		if string(b) != "ok\n" {
			t.Errorf("/healthz says %q", b)
		}
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

// TestAgentPerConnection: without --agent each connection is an agent
// named from its client's name (noggin_where says which), with its own
// cursor; --agent names them all; --shared is the original's one cursor.
func TestAgentPerConnection(t *testing.T) {
	serve := func(t *testing.T, args ...string) (addr, root string) {
		t.Helper()
		ctx, cancel := context.WithCancel(context.Background())
		root = t.TempDir()
		ready, done := make(chan string, 1), make(chan int, 1)
		go func() {
			done <- Main(ctx, Env{Args: append([]string{"--http", "127.0.0.1:0", "--root", root}, args...), Getenv: testGetenv,
				Stdin: io.NopCloser(strings.NewReader("")), Stdout: nopWriteCloser{io.Discard}, Stderr: io.Discard,
				Ready: func(a string) { ready <- a }})
		}()
		t.Cleanup(func() { cancel(); <-done })
		select {
		case addr = <-ready:
		case code := <-done:
			t.Fatalf("server exited early: %d", code)
		}
		return addr, root
	}
	call := func(t *testing.T, addr, client, tool string, args map[string]any) string {
		t.Helper()
		cs, err := mcp.NewClient(&mcp.Implementation{Name: client, Version: "0"}, nil).
			Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: "http://" + addr, DisableStandaloneSSE: true}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		return r.Content[0].(*mcp.TextContent).Text
	}
	t.Run("a name per connection", func(t *testing.T) {
		addr, root := serve(t)
		a := call(t, addr, "Claude Code", "noggin_where", map[string]any{"noggin": "n.yaml"})
		b := call(t, addr, "Claude Code", "noggin_where", map[string]any{"noggin": "n.yaml"})
		if !strings.Contains(a, `"agent":"claude-code-`) || a == b {
			t.Fatalf("two connections' where:\n%s\n%s", a, b)
		}
		call(t, addr, "codex", "noggin_push", map[string]any{"noggin": "n.yaml", "title": "x"})
		file, err := os.ReadFile(filepath.Join(root, "n.yaml"))
		if err != nil || !strings.Contains(string(file), "active: null\n") || !strings.Contains(string(file), "cursors:\n  codex-") {
			t.Fatalf("the file after codex's push (%v):\n%s", err, file)
		}
	})
	t.Run("--agent names every connection", func(t *testing.T) {
		addr, _ := serve(t, "--agent", "night-shift")
		if w := call(t, addr, "x", "noggin_where", map[string]any{"noggin": "n.yaml"}); !strings.Contains(w, `"agent":"night-shift"`) {
			t.Fatalf("where: %s", w)
		}
	})
	t.Run("--shared is the original's cursor", func(t *testing.T) {
		addr, _ := serve(t, "--shared")
		if w := call(t, addr, "x", "noggin_where", map[string]any{"noggin": "n.yaml"}); strings.Contains(w, "agent") {
			t.Fatalf("where: %s", w)
		}
	})
	t.Run("a bad --agent is refused", func(t *testing.T) {
		var out bytes.Buffer
		code := Main(context.Background(), Env{Args: []string{"--agent", "two words"}, Getenv: testGetenv,
			Stdin: io.NopCloser(strings.NewReader("")), Stdout: nopWriteCloser{&out}, Stderr: &out})
		if code != 2 || !strings.Contains(out.String(), "--agent") {
			t.Fatalf("exit %d: %s", code, out.String())
		}
	})
}

// TestCleanStop: a stop (SIGTERM, SIGINT: ctx done) while a stdio session
// waits for input ends it with exit 0 and no error in the log.
func TestCleanStop(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	var stderr bytes.Buffer // read once Main has returned
	done := make(chan int, 1)
	go func() {
		done <- Main(ctx, Env{Args: []string{"--log-level", "info"}, Getenv: testGetenv, Stdin: r, Stdout: nopWriteCloser{io.Discard}, Stderr: &stderr})
	}()
	time.Sleep(50 * time.Millisecond)
	cancel()
	select {
	case code := <-done:
		if code != 0 || strings.Contains(stderr.String(), "level=ERROR") {
			t.Fatalf("exit %d, log:\n%s", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("noggin-mcp did not stop")
	}
}
