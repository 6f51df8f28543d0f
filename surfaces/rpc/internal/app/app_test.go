package app

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"connectrpc.com/connect"

	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/surfaces/rpc/client"
	nogginv1 "github.com/noggin-go/noggin/surfaces/rpc/gen/noggin/v1"
	"github.com/noggin-go/noggin/surfaces/rpc/gen/noggin/v1/nogginv1connect"
)

func TestIsLoopback(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1:7777": true, "127.1.2.3:1": true, "[::1]:7777": true, "localhost:7777": true,
		"0.0.0.0:7777": false, ":7777": false, "[::]:7777": false, "192.168.1.2:7777": false,
		"example.com:80": false, "garbage": false,
	} {
		if got := isLoopback(addr); got != want {
			t.Errorf("isLoopback(%q) = %v, want %v", addr, got, want)
		}
	}
}

// tokenFile is a file holding token.
func tokenFile(t *testing.T, token string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(p, []byte(token), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRunRefusals(t *testing.T) {
	env := func(string) string { return "" }
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"serve", "--addr", "0.0.0.0:0", "--root", t.TempDir()}, 2, "without a token"},
		{[]string{"serve", "--addr", ":0", "--root", t.TempDir()}, 2, "without a token"},
		{[]string{"serve", "--root", "/nonexistent/dir"}, 2, "--root"},
		{[]string{"serve", "extra"}, 2, "no arguments"},
		{[]string{"frobnicate"}, 2, "unknown command"},
		{[]string{"serve", "--addr", "0.0.0.0:0", "--token-file", tokenFile(t, "   "), "--root", t.TempDir()}, 2, "must not be blank"},
		{[]string{"serve", "--token-file", tokenFile(t, " secret\n"), "--root", t.TempDir()}, 2, "must not be blank"},
		{[]string{"serve", "--addr", "0.0.0.0:0", "--token-file", tokenFile(t, "tok\n"), "--root", t.TempDir()}, 2, "clear text"},
		{[]string{"serve", "--addr", "0.0.0.0:0", "--token-file", "/nonexistent/token", "--root", t.TempDir()}, 2, "--token-file"},
		{[]string{"serve", "--token-file", tokenFile(t, "a\r\nb"), "--root", t.TempDir()}, 2, "not allowed in an HTTP header"},
		{[]string{"serve", "--tls-cert", "c.pem", "--root", t.TempDir()}, 2, "go together"},
		{[]string{"serve", "--tls-cert", "/nonexistent/c.pem", "--tls-key", "/nonexistent/k.pem", "--root", t.TempDir()}, 2, "TLS"},
		{[]string{"serve", "--token", "s3cr3t-value", "--root", t.TempDir()}, 2, "--token is refused: every local user can read a command line (ps, /proc); put the token in a file for --token-file, or in $NOGGIN_RPC_TOKEN"},
		{[]string{"serve", "--token=", "--root", t.TempDir()}, 2, "--token is refused"},
		{[]string{"ui", "--addr", "0.0.0.0:0", "n.yaml"}, 2, "loopback only"},
		{[]string{"ui", "a.yaml", "b.yaml"}, 2, "one location at most"},
		{[]string{"ui", "https://example.com/team.yaml"}, 2, "ui serves a noggin file"},
		{[]string{"ui", "--frobnicate"}, 2, "see noggin-rpc help"},
	} {
		var out, errb bytes.Buffer
		if code := Main(context.Background(), tc.args, env, &out, &errb); code != tc.code || !strings.Contains(errb.String(), tc.msg) {
			t.Errorf("%v: exit %d, stderr %q", tc.args, code, errb.String())
		}
		if strings.Contains(errb.String()+out.String(), "s3cr3t") {
			t.Errorf("%v: the token was echoed: %q", tc.args, errb.String())
		}
	}
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"help"}, env, &out, &errb); code != 0 || !strings.Contains(out.String(), "127.0.0.1:7777") {
		t.Errorf("help: %d %q", code, out.String())
	}
}

// TestServeShutdown: the h2c server answers Connect and gRPC, and a
// cancelled context (the signal) shuts it down gracefully, ending streams.
func TestServeShutdown(t *testing.T) {
	addr, stop := serveOn(t, "127.0.0.1:0", t.TempDir(), nil, defaultTimeouts)
	url := "http://" + addr
	c := client.New(http.DefaultClient, url)
	g := client.New(client.H2CClient(), url, client.WithConnectOptions(connect.WithGRPC()))
	if _, err := c.Push(context.Background(), "a.yaml", noggin.PushOpts{Title: "x"}); err != nil {
		t.Fatal(err)
	}
	if v, err := g.Show(context.Background(), "a.yaml", noggin.ShowOpts{}); err != nil || v == nil {
		t.Fatalf("grpc show: %v %v", v, err)
	}
	wctx, wcancel := context.WithCancel(context.Background())
	defer wcancel()
	w, err := g.Watch(wctx, "a.yaml")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := nogginv1connect.NewNogginServiceClient(http.DefaultClient, url).Watch(context.Background(), connect.NewRequest(&nogginv1.WatchRequest{Location: "a.yaml"}))
	if err != nil || !raw.Receive() {
		t.Fatalf("raw watch: %v", err)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if raw.Receive() || connect.CodeOf(raw.Err()) != connect.CodeUnavailable {
		t.Fatalf("a watch ended by shutdown: %v, want unavailable", raw.Err())
	}
	wcancel() // the client would reconnect: nobody is there
	if _, err := w.Next(); err == nil {
		t.Fatal("watch stream survived shutdown")
	}
}

// TestWatchAcrossRestart: a server restarted on the same address; the Go
// client's watch subscribes again by itself and reports what changed.
func TestWatchAcrossRestart(t *testing.T) {
	root := t.TempDir()
	start := func(addr string) (string, func() error) { return serveOn(t, addr, root, nil, defaultTimeouts) }
	addr, stop := start("127.0.0.1:0")
	c := client.New(client.H2CClient(), "http://"+addr, client.WithConnectOptions(connect.WithGRPC()))
	if _, err := c.Push(context.Background(), "a.yaml", noggin.PushOpts{Title: "before"}); err != nil {
		t.Fatal(err)
	}
	w, err := c.Watch(context.Background(), "a.yaml")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	_, stop = start(addr)
	defer func() { _ = stop() }()
	if _, err := c.Push(context.Background(), "a.yaml", noggin.PushOpts{Title: "after"}); err != nil {
		t.Fatal(err)
	}
	ev, err := w.Next()
	if err != nil {
		t.Fatalf("watch after the restart: %v", err)
	}
	if ev.Doc == nil || len(ev.Doc.Items) != 2 || ev.Doc.Items[1].Title != "after" {
		t.Fatalf("event after the restart: %+v", ev)
	}
}
