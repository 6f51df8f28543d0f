package server_test

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/noggin-go/noggin/core/codec"
	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/sampledoc"
)

// TestStalledWatcherHoldsOneDocument: a client that opens Watch and then
// stops reading (its receive buffer full, as a stopped process's is) must
// not make the server keep one document per change it cannot deliver:
// after 40 reloads of a 2,000-item noggin, the server's live heap holds a
// few documents at most, however long the client stays stalled.
func TestStalledWatcherHoldsOneDocument(t *testing.T) {
	if testing.Short() {
		t.Skip("40 reloads of a 2,000-item noggin")
	}
	ts := startServer(t, "")
	const loc = "big.yaml"
	file := filepath.Join(ts.root, loc)
	doc := sampledoc.Doc(2000, 1)
	replace := func() {
		t.Helper()
		tmp := file + ".editor"
		if err := os.WriteFile(tmp, codec.EncodeYAML(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, file); err != nil {
			t.Fatal(err)
		}
	}
	replace()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	healthy, err := ts.client(t, "connect").Watch(ctx, loc)
	if err != nil {
		t.Fatal(err)
	}
	defer healthy.Close()

	// The stalled client: a Connect streaming request over HTTP/1.1 whose
	// answer is never read.
	u, err := url.Parse(ts.url)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.(*net.TCPConn).SetReadBuffer(4096)
	body := `{"location":"` + loc + `"}`
	frame := append([]byte{0, 0, 0, 0, byte(len(body))}, body...)
	if _, err := fmt.Fprintf(conn, "POST /noggin.v1.NogginService/Watch HTTP/1.1\r\nHost: %s\r\n"+
		"Content-Type: application/connect+json\r\nConnect-Protocol-Version: 1\r\nContent-Length: %d\r\n\r\n%s",
		u.Host, len(frame), frame); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return ts.srv.Watchers() == 2 })

	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := heap()
	for i := range 40 {
		key := fmt.Sprintf("extra-%d", i)
		doc.Items = append(doc.Items, &noggin.Item{Key: key, Title: key, Notes: []noggin.Note{}})
		replace()
		for seen := false; !seen; { // this reload's event, on the healthy stream
			for _, c := range next(t, healthy).Changes {
				seen = seen || c.Key == key
			}
		}
	}
	after := heap()
	grown := int64(after) - int64(before)
	t.Logf("live heap %d kB before the 40 reloads, %d kB after", before>>10, after>>10)
	if grown > 20<<20 {
		t.Fatalf("the stalled watcher made the server keep %d kB more over 40 reloads", grown>>10)
	}
}
