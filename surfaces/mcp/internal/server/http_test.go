package server

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/noggin-go/noggin/core/store"
)

// TestHTTP serves the tools over streamable HTTP on loopback: a client can
// call tools; a foreign Host header (DNS rebinding) and a cross-site
// browser request are refused; locations are confined to the root.
func TestHTTP(t *testing.T) {
	root := t.TempDir()
	h := NewHandler(Config{Engine: testEngine(t), Store: store.Options{Root: root}})
	ts := httptest.NewServer(HTTPHandler(h, nil))
	defer ts.Close()

	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "0"}, nil).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: ts.URL, DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if r := call(t, cs, "noggin_push", map[string]any{"noggin": "n.yaml", "title": "over http"}); r.IsError {
		t.Fatalf("push: %s", r.Text)
	}
	mustExist(t, filepath.Join(root, "n.yaml"))
	r := call(t, cs, "noggin_show", map[string]any{"noggin": "/etc/passwd"})
	if !strings.Contains(r.Text, `"code": "location-refused"`) {
		t.Errorf("outside the root: %s", r.Text)
	}

	initBody := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"0"}}}`
	post := func(mod func(*http.Request)) int { return httpStatus(t, ts.URL, "POST", initBody, mod) }
	if code := post(func(*http.Request) {}); code != http.StatusOK {
		t.Errorf("plain initialize: %d", code)
	}
	if code := post(func(r *http.Request) { r.Host = "evil.example.com" }); code != http.StatusForbidden {
		t.Errorf("foreign Host header: %d, want 403", code)
	}
	if code := post(func(r *http.Request) {
		r.Header.Set("Origin", "https://evil.example.com")
		r.Header.Set("Sec-Fetch-Site", "cross-site")
	}); code != http.StatusForbidden {
		t.Errorf("cross-site request: %d, want 403", code)
	}
}

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
		var stderr bytes.Buffer
		code := Main(context.Background(), Env{Args: args, Getenv: testGetenv, Stdin: io.NopCloser(strings.NewReader("")),
			Stdout: nopWriteCloser{io.Discard}, Stderr: &stderr})
		return code, stderr.String()
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
	if r := call(t, cs, "noggin_where", map[string]any{"noggin": "x.yaml"}); r.IsError {
		t.Errorf("where: %s", r.Text)
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

// TestHTTPTransportRules: a foreign Origin is 403 on every method, a GET or
// DELETE without a session id 400, a POST without one (not initialize) 400,
// and an oversized body is refused.
func TestHTTPTransportRules(t *testing.T) {
	h := NewHandler(Config{Engine: testEngine(t), Store: store.Options{Root: t.TempDir()}})
	ts := httptest.NewServer(HTTPHandler(h, nil))
	defer ts.Close()
	do := func(method, body string, hdr map[string]string) int {
		return httpStatus(t, ts.URL, method, body, func(r *http.Request) {
			for k, v := range hdr {
				r.Header.Set(k, v)
			}
		})
	}
	evil := map[string]string{"Origin": "https://evil.example.com"}
	list := `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	for _, c := range []struct {
		method, body string
		hdr          map[string]string
		want         int
	}{
		{"GET", "", evil, 403},
		{"DELETE", "", evil, 403},
		{"POST", list, evil, 403},
		{"GET", "", map[string]string{"Origin": "null"}, 403},
		{"GET", "", nil, 400},
		{"DELETE", "", nil, 400},
		{"POST", list, nil, 400},
		{"POST", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"x":"` + strings.Repeat("a", maxBodyBytes) + `"}}`, nil, 400},
	} {
		if got := do(c.method, c.body, c.hdr); got != c.want && !(c.want == 400 && got == 413) {
			t.Errorf("%s with %v: %d, want %d", c.method, c.hdr, got, c.want)
		}
	}
}

// httpStatus sends one MCP-style HTTP request (mod adjusts it) and returns
// the status code.
func httpStatus(t *testing.T, url, method, body string, mod func(*http.Request)) int {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	mod(req)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}
