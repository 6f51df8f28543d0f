package server_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"connectrpc.com/connect"

	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/store"
	"github.com/noggin-go/noggin/surfaces/rpc/client"
	"github.com/noggin-go/noggin/surfaces/rpc/server"
)

// testEnv makes engines deterministic (fixed clock, sequential keys).
var testEnv = map[string]string{
	"NOGGIN_CLOCK": "2026-01-02T03:04:05.678Z",
	"NOGGIN_KEYS":  "sequential",
}

func testEngine(t testing.TB) *noggin.Engine {
	t.Helper()
	eng, err := noggin.EngineFromEnv(func(k string) string { return testEnv[k] })
	if err != nil {
		t.Fatal(err)
	}
	return eng
}

// testServer is a noggin-rpc server on a loopback httptest listener.
type testServer struct {
	root string
	url  string
	srv  *server.Server
}

type serverOpt func(*server.Config)

func withToken(tok string) serverOpt { return func(c *server.Config) { c.Token = tok } }
func withLockTimeout(d time.Duration) serverOpt {
	return func(c *server.Config) { c.Store.LockTimeout = d }
}

// startServer serves a fresh root directory (or root, if non-empty).
func startServer(t testing.TB, root string, opts ...serverOpt) *testServer {
	t.Helper()
	if root == "" {
		root = filepath.Join(t.TempDir(), "root")
		if err := os.Mkdir(root, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cfg := server.Config{
		Engine: testEngine(t),
		Store:  store.Options{Root: root, PollInterval: 20 * time.Millisecond},
	}
	for _, o := range opts {
		o(&cfg)
	}
	srv, err := server.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(srv)
	ts.Config.Protocols = new(http.Protocols)
	ts.Config.Protocols.SetHTTP1(true)
	ts.Config.Protocols.SetUnencryptedHTTP2(true)
	ts.Start()
	t.Cleanup(func() {
		srv.Close()
		ts.Close()
	})
	return &testServer{root: root, url: ts.URL, srv: srv}
}

// protocols are the three wire protocols every call is tested over.
var protocols = []struct {
	name string
	opts func() (connect.HTTPClient, []connect.ClientOption)
}{
	{"connect", func() (connect.HTTPClient, []connect.ClientOption) {
		return &http.Client{Transport: &http.Transport{}}, nil
	}},
	{"grpc", func() (connect.HTTPClient, []connect.ClientOption) {
		return client.H2CClient(), []connect.ClientOption{connect.WithGRPC()}
	}},
	{"grpcweb", func() (connect.HTTPClient, []connect.ClientOption) {
		return &http.Client{Transport: &http.Transport{}}, []connect.ClientOption{connect.WithGRPCWeb()}
	}},
}

func (s *testServer) client(t testing.TB, protocol string, extra ...client.Option) *client.Client {
	t.Helper()
	for _, p := range protocols {
		if p.name == protocol {
			hc, copts := p.opts()
			if tr, ok := hc.(*http.Client); ok {
				t.Cleanup(tr.CloseIdleConnections)
			}
			opts := append([]client.Option{client.WithConnectOptions(copts...)}, extra...)
			return client.New(hc, s.url, opts...)
		}
	}
	t.Fatalf("unknown protocol %q", protocol)
	return nil
}

func bg() context.Context { return context.Background() }

func ctxT(t testing.TB) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}
