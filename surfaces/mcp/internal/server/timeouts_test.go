package server

import (
	"bufio"
	"context"
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

// TestHTTPTimeouts: with the server's timeouts (shortened here), a request
// whose body stalls is cut off, while a session that outlives the read and
// write timeouts many times over keeps its one event stream (GET) and
// still answers calls. (The stream is idle here: its exemption from the
// write timeout matters when the server writes to it late.)
func TestHTTPTimeouts(t *testing.T) {
	h := NewHandler(Config{Engine: testEngine(t), Store: store.Options{Root: t.TempDir()}})
	var gets atomic.Int32 // event streams opened: a cut one is opened again
	inner := HTTPHandler(h, nil)
	ts := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			gets.Add(1)
		}
		inner.ServeHTTP(w, r)
	}))
	ts.Config.ReadHeaderTimeout, ts.Config.ReadTimeout, ts.Config.WriteTimeout = 200*time.Millisecond, 300*time.Millisecond, 300*time.Millisecond
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
