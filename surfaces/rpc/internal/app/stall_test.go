package app

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/noggin-go/noggin/core/codec"
	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/sampledoc"
	"github.com/noggin-go/noggin/surfaces/rpc/client"
)

// TestStalledWatchIsCutOff: a Watch client that stops taking its messages
// (its receive buffer full, as a stopped process's is) is cut off about a
// write timeout later, instead of holding its stream, its goroutine and
// its document for ever; a client watching the same noggin stays and sees
// the next write.
func TestStalledWatchIsCutOff(t *testing.T) {
	tm := timeouts{header: 200 * time.Millisecond, read: 300 * time.Millisecond, write: 300 * time.Millisecond, idle: time.Second}
	root := t.TempDir()
	// A document larger than what the connection's buffers take.
	if err := os.WriteFile(filepath.Join(root, "big.yaml"), codec.EncodeYAML(sampledoc.Doc(5000, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := newServer(t, root)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve(ctx, ln, srv, nil, tm) }()
	t.Cleanup(func() { cancel(); <-done })
	addr := ln.Addr().String()

	c := client.New(http.DefaultClient, "http://"+addr)
	healthy, err := c.Watch(ctx, "big.yaml")
	if err != nil {
		t.Fatal(err)
	}
	defer healthy.Close()

	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.(*net.TCPConn).SetReadBuffer(4096)
	body := `{"location":"big.yaml"}`
	frame := append([]byte{0, 0, 0, 0, byte(len(body))}, body...)
	if _, err := fmt.Fprintf(conn, "POST /noggin.v1.NogginService/Watch HTTP/1.1\r\nHost: %s\r\n"+
		"Content-Type: application/connect+json\r\nConnect-Protocol-Version: 1\r\nContent-Length: %d\r\n\r\n%s",
		addr, len(frame), frame); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, func() bool { return srv.Watchers() == 2 }, "the stalled watch to start")
	// Writes, each a message of the whole document to both watchers, until
	// the stalled one's buffers are full and it is cut off; the healthy one
	// takes each of its messages.
	start := time.Now()
	for i := 0; srv.Watchers() == 2; i++ {
		if time.Since(start) > 20*time.Second {
			t.Fatalf("the stalled watch still open after %d writes", i)
		}
		if _, err := c.Push(ctx, "big.yaml", noggin.PushOpts{Title: fmt.Sprint("write ", i)}); err != nil {
			t.Fatal(err)
		}
		if ev, err := healthy.Next(); err != nil || len(ev.Changes) == 0 {
			t.Fatalf("the healthy watch, write %d: %+v, %v", i, ev, err)
		}
		time.Sleep(2 * tm.write)
	}
	t.Logf("the stalled watch was cut off %v after the first write (write timeout %v)", time.Since(start).Round(time.Millisecond), tm.write)
}

// waitUntil polls cond for up to 10 s.
func waitUntil(t *testing.T, cond func() bool, what string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited 10 s for %s", what)
		}
	}
}
