package server

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/noggin-go/noggin/core/store"
)

// shortTimeouts makes the HTTP server's timeouts short for one test.
func shortTimeouts(t *testing.T) {
	t.Helper()
	old := timeouts
	timeouts.header, timeouts.read, timeouts.write = 200*time.Millisecond, 300*time.Millisecond, 300*time.Millisecond
	t.Cleanup(func() { timeouts = old })
}

// TestHTTPTimeouts: noggin-mcp's HTTP server (its timeouts shortened) cuts
// off a request whose body stalls, while a session that outlives the
// timeouts many times over keeps its one event stream (GET) and still
// answers calls.
func TestHTTPTimeouts(t *testing.T) {
	shortTimeouts(t)
	h := NewHandler(Config{Engine: testEngine(t), Store: store.Options{Root: t.TempDir()}})
	var gets atomic.Int32 // event streams opened: a cut one is opened again
	srv := NewHTTPServer(h, nil, "")
	inner := srv.Handler
	srv.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			gets.Add(1)
		}
		inner.ServeHTTP(w, r)
	})
	ts := httptest.NewUnstartedServer(srv.Handler)
	ts.Config = srv
	ts.Start()
	defer ts.Close()

	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "0"}, nil).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: ts.URL}, nil) // with its GET stream
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	conn, err := net.Dial("tcp", strings.TrimPrefix(ts.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	_, _ = conn.Write([]byte("POST / HTTP/1.1\r\nHost: " + strings.TrimPrefix(ts.URL, "http://") + "\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\""))
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	r := bufio.NewReader(conn)
	for {
		if _, err := r.ReadString('\n'); err != nil {
			break
		}
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("a stalled body held its connection for %v", d)
	}

	time.Sleep(2 * time.Second) // the GET stream outlives the timeouts
	if res := call(t, cs, "noggin_providers", map[string]any{}); res.IsError {
		t.Fatalf("a call after the timeouts: %s", res.Text)
	}
	if n := gets.Load(); n != 1 {
		t.Errorf("%d event streams opened in 2 s: the first was cut", n)
	}
}

// TestEventStreamOutlivesWriteTimeout: what the server writes to a GET
// event stream after the write timeout reaches the client (guardHTTP
// lifts the stream's deadlines).
func TestEventStreamOutlivesWriteTimeout(t *testing.T) {
	shortTimeouts(t)
	late := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusOK)
		http.NewResponseController(w).Flush()
		time.Sleep(3 * timeouts.write)
		_, _ = io.WriteString(w, "late event\n")
	})
	srv := &http.Server{Handler: guardHTTP(late), ReadHeaderTimeout: timeouts.header, ReadTimeout: timeouts.read, WriteTimeout: timeouts.write}
	ts := httptest.NewUnstartedServer(srv.Handler)
	ts.Config = srv
	ts.Start()
	defer ts.Close()
	req, _ := http.NewRequest(http.MethodGet, ts.URL, nil)
	req.Header.Set("Mcp-Session-Id", "s")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil || string(body) != "late event\n" {
		t.Fatalf("the stream after the write timeout: %q, %v", body, err)
	}
}
