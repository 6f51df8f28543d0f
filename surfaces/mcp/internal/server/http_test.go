package server

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

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
