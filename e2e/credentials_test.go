package e2e

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/noggin-go/noggin/surfaces/rpc/testcert"
)

// standIn is an HTTP server that records every request it receives and
// answers 404.
type standIn struct {
	srv  *httptest.Server
	mu   sync.Mutex
	seen []http.Header
}

func startStandIn(t *testing.T) *standIn {
	t.Helper()
	s := &standIn{}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.seen = append(s.seen, r.Header.Clone())
		s.mu.Unlock()
		http.NotFound(w, r)
	}))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *standIn) addr() string { return strings.TrimPrefix(s.srv.URL, "http://") }

func (s *standIn) requests() []http.Header {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]http.Header(nil), s.seen...)
}

// TestTokenGoesOnlyToItsServer: $NOGGIN_TOKEN belongs to $NOGGIN_SERVER's
// origin; a location on another port gets no token from the CLI, and
// noggin-mcp (stdio and HTTP) does not even connect to it.
func TestTokenGoesOnlyToItsServer(t *testing.T) {
	srv := startTokenServer(t, t.TempDir())
	other := startStandIn(t)
	dir := t.TempDir()
	env := append(tokenEnv(srv.Addr), "HOME="+dir)

	// The CLI: its own server gets the token; another port gets none.
	if out := runCLI(t, dir, env, "--noggin", "http://"+srv.Addr+"/a.yaml", "push", "x"); !strings.Contains(out, "[exit 0]") {
		t.Fatalf("push to the configured server: %s", out)
	}
	runCLI(t, dir, env, "--noggin", "http://"+other.addr()+"/a.yaml", "show")
	reqs := other.requests()
	if len(reqs) == 0 {
		t.Fatal("the CLI did not reach the other server at all")
	}
	for _, h := range reqs {
		if h.Get("Authorization") != "" {
			t.Errorf("the token went to another origin: %q", h.Get("Authorization"))
		}
	}

	// noggin-mcp over stdio: an origin nobody configured is refused before
	// any connection.
	ctx := context.Background()
	before := len(other.requests())
	m, err := StartMCP(ctx, needBinary(t, MCP), dir, append(processEnv(true), env...))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	text, err := m.Call(ctx, "noggin_show", map[string]any{"noggin": "http://" + other.addr() + "/a.yaml"})
	if err != nil || !strings.Contains(string(text), `"code": "location-refused"`) {
		t.Fatalf("noggin-mcp to an unconfigured server: %v %s", err, text)
	}
	text, err = m.Call(ctx, "noggin_show", map[string]any{"noggin": "http://" + srv.Addr + "/a.yaml"})
	if err != nil || !strings.Contains(string(text), `"status": "ok"`) {
		t.Fatalf("noggin-mcp to its server: %v %s", err, text)
	}

	// noggin-mcp over HTTP: the same.
	cmd := exec.Command(needBinary(t, MCP), "--http", "127.0.0.1:0")
	cmd.Dir, cmd.Env = dir, append(processEnv(true), env...)
	stderr := &syncWriter{b: &strings.Builder{}}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	var addr string
	for deadline := time.Now().Add(10 * time.Second); addr == "" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if _, rest, ok := strings.Cut(stderr.String(), "addr="); ok {
			addr, _, _ = strings.Cut(rest, " ")
		}
	}
	if addr == "" {
		t.Fatalf("noggin-mcp --http did not listen: %s", stderr.String())
	}
	hm, err := ConnectMCPHTTP(ctx, "http://"+addr)
	if err != nil {
		t.Fatal(err)
	}
	defer hm.Close()
	text, err = hm.Call(ctx, "noggin_push", map[string]any{"noggin": "http://" + other.addr() + "/a.yaml", "title": "x"})
	if err != nil || !strings.Contains(string(text), `"code": "location-refused"`) {
		t.Fatalf("noggin-mcp --http to an unconfigured server: %v %s", err, text)
	}
	if n := len(other.requests()); n != before {
		t.Errorf("noggin-mcp made %d requests to a server nobody configured", n-before)
	}
}

// TestTokenEdges: a token with a line break is refused before anything is
// sent; a token in a location's query is never echoed; a token does not
// cross the network in clear text unless asked.
func TestTokenEdges(t *testing.T) {
	other := startStandIn(t)
	dir := t.TempDir()
	for _, tc := range []struct {
		name, token, loc, want string
	}{
		{"CR LF in the token", "abc\r\nX-Evil: 1", "http://" + other.addr() + "/a.yaml", "not allowed in an HTTP header"},
		{"a space in the token", "abc def", "http://" + other.addr() + "/a.yaml", "not allowed in an HTTP header"},
	} {
		out := runCLI(t, dir, []string{"HOME=" + dir, "NOGGIN_SERVER=http://" + other.addr(), "NOGGIN_TOKEN=" + tc.token}, "--noggin", tc.loc, "show")
		if !strings.Contains(out, tc.want) || !strings.Contains(out, "[exit 2]") {
			t.Errorf("%s: %s", tc.name, out)
		}
		if strings.Contains(out, "abc") {
			t.Errorf("%s: the token is printed: %s", tc.name, out)
		}
	}
	if n := len(other.requests()); n != 0 {
		t.Errorf("%d requests sent with a bad token", n)
	}
	out := runCLI(t, dir, []string{"HOME=" + dir}, "--noggin", "http://"+other.addr()+"/a.yaml?token=SECRETVALUE", "show")
	if strings.Contains(out, "SECRETVALUE") || !strings.Contains(out, "location-refused") && !strings.Contains(out, "refused") {
		t.Errorf("a query token: %s", out)
	}
	out = runCLI(t, dir, []string{"HOME=" + dir}, "--json", "--noggin", "http://"+other.addr()+"/a.yaml?token=SECRETVALUE", "where")
	if strings.Contains(out, "SECRETVALUE") {
		t.Errorf("where echoes a query token: %s", out)
	}
	// A token for a host other than this machine, over plain HTTP.
	out = runCLI(t, dir, []string{"HOME=" + dir, "NOGGIN_SERVER=http://192.0.2.1:7777", "NOGGIN_TOKEN=tok"}, "--noggin", "http://192.0.2.1:7777/a.yaml", "show")
	if !strings.Contains(out, "clear text") || !strings.Contains(out, "NOGGIN_ALLOW_HTTP=1") {
		t.Errorf("a token in clear text: %s", out)
	}
}

// TestLogin: noggin login reads the token from standard input, keeps it in
// a 0600 file (0700 directory) and never prints it; logout forgets it; the
// server then takes the CLI's calls.
func TestLogin(t *testing.T) {
	srv := startTokenServer(t, t.TempDir())
	dir := t.TempDir()
	env := []string{"HOME=" + dir}
	cmd := exec.Command(needBinary(t, CLI), "login", "http://"+srv.Addr)
	cmd.Env = append(processEnv(true), env...)
	cmd.Stdin = strings.NewReader(remoteToken + "\n")
	out, err := cmd.CombinedOutput()
	if err != nil || strings.Contains(string(out), remoteToken) {
		t.Fatalf("login: %v %s", err, out)
	}
	file := filepath.Join(dir, ".config", "noggin", "credentials.json")
	for p, want := range map[string]os.FileMode{file: 0o600, filepath.Dir(file): 0o700} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: %v %v, want %v", p, fi.Mode().Perm(), err, want)
		}
	}
	if got := runCLI(t, dir, env, "--noggin", "http://"+srv.Addr+"/a.yaml", "push", "x"); !strings.Contains(got, "[exit 0]") {
		t.Fatalf("push after login: %s", got)
	}
	if got := runCLI(t, dir, env, "logout", "http://"+srv.Addr); !strings.Contains(got, "logged out") {
		t.Fatalf("logout: %s", got)
	}
	if got := runCLI(t, dir, env, "--noggin", "http://"+srv.Addr+"/a.yaml", "push", "x"); !strings.Contains(got, "noggin login") {
		t.Fatalf("push after logout: %s", got)
	}
}

// TestCLIOverHTTPS: noggin-rpc serves HTTPS with --tls-cert/--tls-key; the
// CLI trusts the test CA through $SSL_CERT_FILE and pushes with its
// token; a client that does not trust the CA is refused with unavailable.
func TestCLIOverHTTPS(t *testing.T) {
	dir := t.TempDir()
	certs, err := testcert.Write(dir, 7)
	if err != nil {
		t.Fatal(err)
	}
	tokenFile := filepath.Join(dir, "token")
	if err := os.WriteFile(tokenFile, []byte(remoteToken+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	srv, err := StartRPCServer(needBinary(t, RPC), t.TempDir(), append(processEnv(true), "HOME="+dir),
		"--token-file", tokenFile, "--tls-cert", certs.Cert, "--tls-key", certs.Key)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	base := "https://" + srv.Addr
	env := []string{"HOME=" + dir, "NOGGIN_SERVER=" + base, "NOGGIN_TOKEN=" + remoteToken}
	if out := runCLI(t, dir, append(env, "SSL_CERT_FILE="+certs.CA), "--noggin", base+"/team.yaml", "push", "over TLS"); out != "/1 📍 over TLS\n[exit 0]\n" {
		t.Fatalf("push over HTTPS: %s", out)
	}
	if out := runCLI(t, dir, env, "--json", "--noggin", base+"/team.yaml", "show"); !strings.Contains(out, `"code": "unavailable"`) || !strings.Contains(out, "not trusted") {
		t.Fatalf("an untrusted certificate: %s", out)
	}
}

// TestLoginOriginShownSafely: a server name with a bidi override (which a
// URL may hold) is shown escaped by login and logout, never raw.
func TestLoginOriginShownSafely(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(needBinary(t, CLI), "login", "http://\u202eevil.example:7777")
	cmd.Env = append(processEnv(true), "HOME="+dir)
	cmd.Stdin = strings.NewReader("tok\n")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), `\u202e`) || strings.Contains(string(out), "\u202e") {
		t.Fatalf("login: %v %q", err, out)
	}
	if got := runCLI(t, dir, nil, "logout", "http://\u202eevil.example:7777"); !strings.Contains(got, `logged out of http://\u202e`) || strings.Contains(got, "\u202e") {
		t.Fatalf("logout: %q", got)
	}
}
