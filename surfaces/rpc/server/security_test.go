package server_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"connectrpc.com/connect"
	"connectrpc.com/grpchealth"
	"connectrpc.com/grpcreflect"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/request"
	"github.com/noggin-go/noggin/surfaces/rpc/client"
)

// TestSandbox: locations outside the root are refused and nothing outside
// the root is created.
func TestSandbox(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "root")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{root, outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(outside, "secret.yaml"), "schemaVersion: 1\nactive: null\nitems: []\n")
	if err := os.Symlink(filepath.Join(outside, "target.yaml"), filepath.Join(root, "link.yaml")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.yaml"), filepath.Join(root, "secret-link.yaml")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "linkdir")); err != nil {
		t.Fatal(err)
	}
	ts := startServer(t, root)
	for _, p := range protocols {
		c := ts.client(t, p.name)
		for _, loc := range []string{
			"../x.yaml",
			"../outside/y.yaml",
			"/etc/passwd",
			filepath.Join(outside, "z.yaml"),
			"link.yaml",
			"secret-link.yaml",
			"linkdir/w.yaml",
			"file://" + filepath.Join(outside, "u.yaml"),
			"file://" + root + "/../v.yaml",
			"~/home.yaml",
		} {
			for _, call := range []struct {
				name string
				run  func() error
			}{
				{"push", func() error { _, err := c.Push(ctxT(t), loc, noggin.PushOpts{Title: "x"}); return err }},
				{"show", func() error { _, err := c.Show(ctxT(t), loc, noggin.ShowOpts{}); return err }},
				{"snapshot", func() error { _, err := c.Snapshot(ctxT(t), loc); return err }},
				{"copy", func() error { _, err := c.Copy(ctxT(t), "in.yaml", loc); return err }},
				{"watch", func() error { _, err := c.Watch(ctxT(t), loc); return err }},
			} {
				err := call.run()
				var ne *noggin.Error
				if !errors.As(err, &ne) || ne.Code != noggin.CodeLocationRefused {
					t.Errorf("%s %s %q: err = %v, want location-refused", p.name, call.name, loc, err)
				}
			}
		}
	}
	// Nothing was created outside the root (nor its lock directories).
	for _, dir := range []string{base, outside} {
		ents, _ := os.ReadDir(dir)
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		want := map[string]string{base: "outside,root", outside: "secret.yaml"}[dir]
		if got := strings.Join(names, ","); got != want {
			t.Errorf("%s holds %q, want %q", dir, got, want)
		}
	}
	// A location inside the root works, also as a file:// URI.
	c := ts.client(t, "connect")
	if _, err := c.Push(ctxT(t), "file://"+filepath.Join(root, "ok.yaml"), noggin.PushOpts{Title: "x"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Push(ctxT(t), "sub/dir/../ok2.yaml", noggin.PushOpts{Title: "x"}); err != nil {
		t.Fatal(err)
	}
}

// TestToken: with a token, calls without it or with a wrong one are
// Unauthenticated; health stays open.
func TestToken(t *testing.T) {
	ts := startServer(t, "", withToken("s3cret"))
	for _, p := range protocols {
		for _, tc := range []struct {
			name string
			opts []client.Option
			ok   bool
		}{
			{"missing", nil, false},
			{"wrong", []client.Option{client.WithToken("guess")}, false},
			{"right", []client.Option{client.WithToken("s3cret")}, true},
		} {
			c := ts.client(t, p.name, tc.opts...)
			_, err := c.Push(ctxT(t), "t.yaml", noggin.PushOpts{Title: "x"})
			_, werr := c.Watch(ctxT(t), "t.yaml")
			_, perr := c.Providers(ctxT(t))
			for _, e := range []error{err, werr, perr} {
				if tc.ok && e != nil {
					t.Errorf("%s %s: %v", p.name, tc.name, e)
				}
				if !tc.ok && connect.CodeOf(e) != connect.CodeUnauthenticated {
					t.Errorf("%s %s: %v, want unauthenticated", p.name, tc.name, e)
				}
			}
		}
	}
	// Health needs no token.
	res, err := http.Post(ts.url+"/grpc.health.v1.Health/Check", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(body), "SERVING") {
		t.Fatalf("health: %d %s", res.StatusCode, body)
	}
}

// TestGet: NO_SIDE_EFFECTS RPCs answer HTTP GET (Connect protocol).
func TestGet(t *testing.T) {
	ts := startServer(t, "")
	c := ts.client(t, "connect", client.WithConnectOptions(connect.WithHTTPGet()))
	if _, err := c.Push(ctxT(t), "g.yaml", noggin.PushOpts{Title: "x"}); err != nil {
		t.Fatal(err)
	}
	if v, err := c.Show(ctxT(t), "g.yaml", noggin.ShowOpts{}); err != nil || v == nil {
		t.Fatalf("show over GET: %v %v", v, err)
	}
	for _, m := range []string{"Show", "Snapshot", "Where"} {
		u := ts.url + "/noggin.v1.NogginService/" + m + "?encoding=json&message=" + url.QueryEscape(`{"location":"g.yaml"}`)
		res, err := http.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || !strings.Contains(string(body), "g.yaml") && !strings.Contains(string(body), `"title":"x"`) {
			t.Errorf("GET %s: %d %s", m, res.StatusCode, body)
		}
	}
	// A mutating RPC is not reachable with GET.
	res, err := http.Get(ts.url + "/noggin.v1.NogginService/Push?encoding=json&message=" + url.QueryEscape(`{"location":"g.yaml"}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode == 200 {
		t.Fatal("Push answered GET")
	}
}

// TestRequestSizeLimit: a text over core's limit is too-large; a request
// over the transport's limit is refused; neither writes.
func TestRequestSizeLimit(t *testing.T) {
	ts := startServer(t, "")
	c := ts.client(t, "connect")
	_, err := c.Push(context.Background(), "big.yaml", noggin.PushOpts{Title: strings.Repeat("x", request.MaxText+1)})
	if e := noggin.Wrap(err); err == nil || e.Code != noggin.CodeTooLarge {
		t.Fatalf("a title over MaxText: %v", err)
	}
	if _, err := c.Push(context.Background(), "big.yaml", noggin.PushOpts{Title: strings.Repeat("x", request.MaxRequest)}); err == nil {
		t.Fatal("a request over the transport's limit accepted")
	}
	if _, err := os.Stat(filepath.Join(ts.root, "big.yaml")); err == nil {
		t.Fatal("oversized push was written")
	}
}

// TestReflectionAndHealth: gRPC reflection lists the service (behind the
// token) and describes it; health answers over gRPC.
func TestReflectionAndHealth(t *testing.T) {
	ts := startServer(t, "", withToken("tok"))
	for _, tc := range []struct {
		header string
		ok     bool
	}{{"", false}, {"Bearer tok", true}, {"bearer tok", true}, {"BEARER tok", true}, {"Bearer  tok", false}, {"Basic tok", false}, {"Bearer tok2", false}} {
		rc := grpcreflect.NewClient(client.H2CClient(), ts.url, connect.WithGRPC())
		h := http.Header{}
		if tc.header != "" {
			h.Set("Authorization", tc.header)
		}
		stream := rc.NewStream(ctxT(t), grpcreflect.WithRequestHeaders(h))
		names, err := stream.ListServices()
		_, _ = stream.Close()
		if !tc.ok {
			if connect.CodeOf(err) != connect.CodeUnauthenticated {
				t.Fatalf("reflection without token: %v", err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		// Every service the port serves is listed, and each resolves.
		want := []protoreflect.FullName{"grpc.health.v1.Health", "grpc.reflection.v1.ServerReflection",
			"grpc.reflection.v1alpha.ServerReflection", "noggin.v1.NogginService"}
		slices.Sort(names)
		if !slices.Equal(names, want) {
			t.Fatalf("services %v, want %v", names, want)
		}
	}
	hc := grpchealth.NewClient(client.H2CClient(), ts.url, connect.WithGRPC())
	res, err := hc.Check(ctxT(t), &grpchealth.CheckRequest{Service: "noggin.v1.NogginService"})
	if err != nil || res.Status != grpchealth.StatusServing {
		t.Fatalf("health: %v %v", res, err)
	}
}

// TestDNSRebindingGuard: without a token, a Host header that is not
// loopback is refused; with a token it is allowed (the token guards).
func TestDNSRebindingGuard(t *testing.T) {
	for _, tc := range []struct {
		token, host string
		status      int
	}{
		{"", "evil.example:7777", http.StatusForbidden},
		{"", "localhost:7777", http.StatusOK},
		{"", "127.0.0.1", http.StatusOK},
		{"", "[::1]:7777", http.StatusOK},
		{"tok", "noggin.example:7777", http.StatusOK},
	} {
		var opts []serverOpt
		if tc.token != "" {
			opts = append(opts, withToken(tc.token))
		}
		ts := startServer(t, "", opts...)
		req, err := http.NewRequest("POST", ts.url+"/noggin.v1.NogginService/Providers", strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		req.Host = tc.host
		req.Header.Set("Content-Type", "application/json")
		if tc.token != "" {
			req.Header.Set("Authorization", "Bearer "+tc.token)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != tc.status {
			t.Errorf("token %q host %q: %d %s", tc.token, tc.host, res.StatusCode, body)
		}
		if tc.status == http.StatusForbidden && !strings.Contains(string(body), "permission_denied") {
			t.Errorf("refusal is not a Connect error: %s", body)
		}
	}
}
