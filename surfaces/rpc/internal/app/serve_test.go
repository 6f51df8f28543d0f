package app

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"net/http"
	"os"
	"testing"
	"time"

	"connectrpc.com/connect"

	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/store"
	"github.com/noggin-go/noggin/surfaces/rpc/client"
	"github.com/noggin-go/noggin/surfaces/rpc/server"
	"github.com/noggin-go/noggin/surfaces/rpc/testcert"
)

// serveOn runs serve on addr (a loopback address; port 0: a free one)
// over the noggins of root; stop cancels it and returns what serve did.
func serveOn(t *testing.T, addr, root string, certs *certReloader, tm timeouts) (string, func() error) {
	t.Helper()
	srv := newServer(t, root)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve(ctx, ln, srv, certs, tm) }()
	return ln.Addr().String(), func() error {
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(15 * time.Second):
			return errors.New("serve did not shut down")
		}
	}
}

// newServer is a noggin-rpc server over the noggins of root.
func newServer(t *testing.T, root string) *server.Server {
	t.Helper()
	eng, err := noggin.EngineFromEnv(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(server.Config{Engine: eng, Store: store.Options{Root: root, PollInterval: 20 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// startServe is serveOn a free port of a fresh root, stopped at the end.
func startServe(t *testing.T, certs *certReloader, tm timeouts) string {
	t.Helper()
	addr, stop := serveOn(t, "127.0.0.1:0", t.TempDir(), certs, tm)
	t.Cleanup(func() { _ = stop() })
	return addr
}

// TestTimeouts: a request whose body stalls is cut off within the read
// timeout, while Watch streams (Connect over HTTP/1.1, gRPC over h2c)
// stay up for many times the read and write timeouts and still deliver.
func TestTimeouts(t *testing.T) {
	tm := timeouts{header: 200 * time.Millisecond, read: 300 * time.Millisecond, write: 300 * time.Millisecond, idle: time.Second}
	addr := startServe(t, nil, tm)
	url := "http://" + addr

	c := client.New(http.DefaultClient, url)
	g := client.New(client.H2CClient(), url, client.WithConnectOptions(connect.WithGRPC()))
	if _, err := c.Push(context.Background(), "a.yaml", noggin.PushOpts{Title: "x"}); err != nil {
		t.Fatal(err)
	}
	var watches []*client.Watcher
	for _, cl := range []*client.Client{c, g} {
		w, err := cl.Watch(context.Background(), "a.yaml")
		if err != nil {
			t.Fatal(err)
		}
		watches = append(watches, w)
	}

	// A body that stalls: 10 of 100 bytes, then nothing.
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	_, _ = conn.Write([]byte("POST /noggin.v1.NogginService/Run HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"request\""))
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, _ = bufio.NewReader(conn).ReadString('\n')
	if _, err := conn.Read(make([]byte, 1)); err == nil || time.Since(start) > 3*time.Second {
		t.Errorf("a stalled body held its connection for %v (read timeout %v)", time.Since(start), tm.read)
	}

	// The watches outlive the timeouts by far, then see a write.
	time.Sleep(6 * tm.write)
	if _, err := c.Push(context.Background(), "a.yaml", noggin.PushOpts{Title: "y"}); err != nil {
		t.Fatal(err)
	}
	for i, w := range watches {
		if _, err := w.Next(); err != nil {
			t.Errorf("watch %d ended after %v: %v", i, time.Since(start), err)
		}
		_ = w.Close()
	}
}

// writeCert writes a test CA and a certificate it signs for 127.0.0.1.
func writeCert(t *testing.T, dir string, serial int64) (cert, key, ca string) {
	t.Helper()
	f, err := testcert.Write(dir, serial)
	if err != nil {
		t.Fatal(err)
	}
	return f.Cert, f.Key, f.CA
}

// TestTLS: --tls-cert/--tls-key serve HTTPS with HTTP/2, and a renewed
// pair is served without a restart.
func TestTLS(t *testing.T) {
	dir := t.TempDir()
	cert, key, ca := writeCert(t, dir, 100)
	certs, err := newCertReloader(cert, key)
	if err != nil {
		t.Fatal(err)
	}
	addr := startServe(t, certs, defaultTimeouts)
	pool := func(ca string) *x509.CertPool {
		b, _ := os.ReadFile(ca)
		p := x509.NewCertPool()
		p.AppendCertsFromPEM(b)
		return p
	}
	serial := func(ca string) int64 {
		conn, err := tls.Dial("tcp", addr, &tls.Config{RootCAs: pool(ca), NextProtos: []string{"h2"}})
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		if p := conn.ConnectionState().NegotiatedProtocol; p != "h2" {
			t.Errorf("negotiated %q, want h2", p)
		}
		return conn.ConnectionState().PeerCertificates[0].SerialNumber.Int64()
	}
	if got := serial(ca); got != 100 {
		t.Fatalf("serial %d", got)
	}
	hc := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool(ca)}, ForceAttemptHTTP2: true}}
	if _, err := client.New(hc, "https://"+addr).Push(context.Background(), "a.yaml", noggin.PushOpts{Title: "x"}); err != nil {
		t.Fatalf("push over HTTPS: %v", err)
	}
	time.Sleep(10 * time.Millisecond) // a new modification time
	_, _, ca2 := writeCert(t, dir, 200)
	if got := serial(ca2); got != 200 {
		t.Fatalf("after renewal: serial %d, want 200", got)
	}
}
