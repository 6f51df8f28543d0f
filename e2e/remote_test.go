package e2e

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// remoteToken is the bearer token of the remote tests' server.
const remoteToken = "s3cret-token"

// tokenEnv is the environment that gives the server at addr its token.
func tokenEnv(addr string) []string {
	return []string{"NOGGIN_SERVER=http://" + addr, "NOGGIN_TOKEN=" + remoteToken}
}

// startTokenServer starts noggin-rpc with remoteToken on a free loopback
// port, serving root.
func startTokenServer(t *testing.T, root string) *RPCServer {
	t.Helper()
	bin := needBinary(t, RPC)
	srv, err := StartRPCServer(bin, root, append(processEnv(true), "HOME="+t.TempDir(), "NOGGIN_RPC_TOKEN="+remoteToken))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	return srv
}

// runCLI runs the noggin binary with args and extra environment and
// returns what a user sees: stdout, stderr and the exit code.
func runCLI(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	c := exec.Command(needBinary(t, CLI), args...)
	c.Dir = dir
	c.Env = append(append(processEnv(true), "HOME="+dir), env...)
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &stdout, &stderr
	err := c.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%s%s[exit %d]\n", stdout.String(), stderr.String(), code)
}

// TestRemoteSession: the CLI and noggin-mcp work on a noggin served by
// noggin-rpc (with a token) exactly as on a local file: the same output and
// envelopes step by step, and the same file in the end.
func TestRemoteSession(t *testing.T) {
	root, local := t.TempDir(), t.TempDir()
	srv := startTokenServer(t, root)
	remote := "http://" + srv.Addr + "/team.yaml"
	tok := tokenEnv(srv.Addr)
	steps := [][]string{
		{"push", "ship the redesign"},
		{"note", "kick-off on Monday"},
		{"add", "write tests", "--goto"},
		{"push", "--json", "fix", "the", "flaky", "one"},
		{"show", "/1", "--with-descendants", "--with-notes"},
		{"done", "--json"},
		{"edit", "/1", "--title", "ship the storage redesign"},
		{"move", "/1/1", "--before", "/1/2"},
		{"show", "--json", "--with-all"},
		{"goto", "/9"},
		{"delete", "/1/2", "--recursive"},
		{"show", "--with-json"},
	}
	for _, st := range steps {
		want := runCLI(t, local, nil, append([]string{"--noggin", filepath.Join(local, "team.yaml")}, st...)...)
		got := runCLI(t, local, tok, append([]string{"--noggin", remote}, st...)...)
		if got != want {
			t.Errorf("noggin %v: remote\n%s\nlocal\n%s", st, got, want)
		}
	}
	if got := runCLI(t, local, tok, "--noggin", remote, "where"); got != remote+"\n[exit 0]\n" {
		t.Errorf("where prints %q", got)
	}
	if got := runCLI(t, local, append(tok, "NOGGIN="+remote), "--json", "where"); !strings.Contains(got, `"data": "`+remote+`"`) {
		t.Errorf("$NOGGIN remote where: %s", got)
	}
	sameFile(t, filepath.Join(root, "team.yaml"), filepath.Join(local, "team.yaml"))

	// noggin-mcp through its noggin argument.
	ctx := context.Background()
	mcpEnv := append(append(processEnv(true), "HOME="+t.TempDir()), tokenEnv(srv.Addr)...)
	m, err := StartMCP(ctx, needBinary(t, MCP), local, mcpEnv)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	agentRemote := "http://" + srv.Addr + "/agents/agent.yaml"
	agentLocal := filepath.Join(local, "agents/agent.yaml")
	calls := []struct {
		tool string
		args map[string]any
	}{
		{"noggin_push", map[string]any{"title": "investigate the cache"}},
		{"noggin_note", map[string]any{"text": "cold after deploys"}},
		{"noggin_add", map[string]any{"title": "measure", "into": "/1"}},
		{"noggin_show", map[string]any{"withDescendants": true}},
		{"noggin_done", map[string]any{}},
		{"noggin_done", map[string]any{"closeAll": true}},
		{"noggin_delete", map[string]any{"path": "/7"}},
		{"noggin_edit", map[string]any{"path": "/1", "state": "open"}},
	}
	for _, c := range calls {
		args := func(loc string) map[string]any {
			a := map[string]any{"noggin": loc}
			for k, v := range c.args {
				a[k] = v
			}
			return a
		}
		want, err := m.Call(ctx, c.tool, args(agentLocal))
		if err != nil {
			t.Fatal(err)
		}
		got, err := m.Call(ctx, c.tool, args(agentRemote))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: remote\n%s\nlocal\n%s", c.tool, got, want)
		}
	}
	sameFile(t, filepath.Join(root, "agents/agent.yaml"), agentLocal)
}

func sameFile(t *testing.T, a, b string) {
	t.Helper()
	x, err1 := os.ReadFile(a)
	y, err2 := os.ReadFile(b)
	if err1 != nil || err2 != nil || !bytes.Equal(x, y) {
		t.Errorf("%s and %s differ (%v, %v):\n%s\n---\n%s", a, b, err1, err2, x, y)
	}
}

// TestRemoteFailures: every way a remote noggin can fail gives its error
// envelope (golden: testdata/remote-failures.txt, -update rewrites it).
func TestRemoteFailures(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	srv := startTokenServer(t, root)
	ok := tokenEnv(srv.Addr)

	// A port nobody listens on.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := ln.Addr().String()
	ln.Close()

	// An HTTP server that is not noggin-rpc (or an older one without Run).
	old := &http.Server{Handler: http.NotFoundHandler()}
	oln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = old.Serve(oln) }()
	defer old.Close()

	cases := []struct {
		name string
		env  []string
		args []string
	}{
		{"server down", ok, []string{"--json", "--noggin", "http://" + down + "/team.yaml", "push", "x"}},
		{"missing token", nil, []string{"--json", "--noggin", "http://" + srv.Addr + "/team.yaml", "show"}},
		{"wrong token", []string{"NOGGIN_SERVER=http://" + srv.Addr, "NOGGIN_TOKEN=nope"}, []string{"--json", "--noggin", "http://" + srv.Addr + "/team.yaml", "push", "x"}},
		{"outside the root", ok, []string{"--json", "--noggin", "http://" + srv.Addr + "/../escape.yaml", "push", "x"}},
		{"not a noggin-rpc server", ok, []string{"--json", "--noggin", "http://" + oln.Addr().String() + "/team.yaml", "show"}},
		{"TLS to a plain server", ok, []string{"--json", "--noggin", "https://" + srv.Addr + "/team.yaml", "show"}},
		{"token in the URL", nil, []string{"--json", "--noggin", "http://user:" + remoteToken + "@" + srv.Addr + "/team.yaml", "show"}},
		{"no name", ok, []string{"--json", "--noggin", "http://" + srv.Addr + "/", "show"}},
		{"copy across servers", ok, []string{"--json", "copy", "http://" + srv.Addr + "/a.yaml", "b.yaml"}},
		{"human output", nil, []string{"--noggin", "http://" + srv.Addr + "/team.yaml", "show"}},
	}
	var got strings.Builder
	for _, c := range cases {
		out := runCLI(t, dir, c.env, c.args...)
		out = strings.ReplaceAll(out, srv.Addr, "$SERVER")
		out = strings.ReplaceAll(out, down, "$DOWN")
		out = strings.ReplaceAll(out, oln.Addr().String(), "$OTHER")
		fmt.Fprintf(&got, "== %s\n%s", c.name, out)
		if strings.Contains(out, remoteToken) {
			t.Errorf("%s: the token is printed:\n%s", c.name, out)
		}
	}
	if entries, _ := os.ReadDir(root); len(entries) != 0 {
		t.Errorf("a failure wrote under the root: %v", entries)
	}
	golden := "testdata/remote-failures.txt"
	if *update {
		if err := os.WriteFile(golden, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got.String() != string(want) {
		t.Errorf("failures differ from %s:\n%s", golden, got.String())
	}
}

// TestRemoteMode runs every scenario with the CLI and noggin-mcp pointed
// at the shared noggin-rpc (rooted at the work directory) through remote
// locations: each envelope and final file must be the golden one, the
// server's URL read as the local relative location it names.
func TestRemoteMode(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIPPED in -short: remote mode runs the whole corpus again")
	}
	srv := sharedRPC(t)
	base := "http://" + srv.Addr + "/"
	var scns []*Scenario
	for _, s := range loadScenarios(t) {
		if reason := remoteRestricted[s.Name]; reason != "" {
			continue
		}
		c := *s
		c.Base = base
		scns = append(scns, &c)
	}
	runs := runModesOf(t, scns, []string{CLI, MCP}, true)
	local := Normalizer(suite.work)
	// A remote write's history entry also holds its request id (random),
	// its fingerprint and its answer (TestRetryAfterRestart and
	// TestReusedRequestIDRefused check them).
	receipt := regexp.MustCompile(`,"request":"[A-Za-z0-9._:-]+","requestDigest":"[0-9a-f]+","reply":"(?:[^"\\]|\\.)*"`)
	norm := func(b []byte) []byte { return local(receipt.ReplaceAll(bytes.ReplaceAll(b, []byte(base), nil), nil)) }
	for _, s := range scns {
		t.Run(s.Name, func(t *testing.T) {
			for _, msg := range Compare(s, runs[s.Name], norm) {
				t.Error(msg)
			}
		})
	}
}

// remoteRestricted are the scenarios remote mode leaves out, with why.
var remoteRestricted = map[string]string{}

// TestRemoteConcurrency: three CLI loops and one noggin-mcp, all through a
// remote location, each add 100 items to one served noggin at once: every
// item is there, none twice.
func TestRemoteConcurrency(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIPPED in -short")
	}
	root := t.TempDir()
	srv := startTokenServer(t, root)
	loc := "http://" + srv.Addr + "/shared.yaml"
	tok := tokenEnv(srv.Addr)
	ctx := context.Background()
	m, err := StartMCP(ctx, needBinary(t, MCP), root, append(append(processEnv(false), "HOME="+t.TempDir()), tok...))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	const perWriter = 100
	var wg sync.WaitGroup
	errs := make(chan error, 4*perWriter)
	for w := 0; w < 3; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < perWriter; i++ {
				c := exec.Command(needBinary(t, CLI), "--noggin", loc, "--json", "add", fmt.Sprintf("cli%d-%03d", w, i))
				c.Env = append(append(processEnv(false), "HOME="+root), tok...)
				if out, err := c.CombinedOutput(); err != nil {
					errs <- fmt.Errorf("cli %d/%d: %v: %s", w, i, err, out)
				}
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < perWriter; i++ {
			out, err := m.Call(ctx, "noggin_add", map[string]any{"noggin": loc, "title": fmt.Sprintf("mcp-%03d", i)})
			if err != nil || !bytes.Contains(out, []byte(`"status": "ok"`)) {
				errs <- fmt.Errorf("mcp %d: %v: %s", i, err, out)
			}
		}
	}()
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "shared.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for w := 0; w < 3; w++ {
		for i := 0; i < perWriter; i++ {
			if n := bytes.Count(b, []byte(fmt.Sprintf("title: cli%d-%03d\n", w, i))); n != 1 {
				t.Errorf("cli%d-%03d is there %d times", w, i, n)
			}
		}
	}
	for i := 0; i < perWriter; i++ {
		if n := bytes.Count(b, []byte(fmt.Sprintf("title: mcp-%03d\n", i))); n != 1 {
			t.Errorf("mcp-%03d is there %d times", i, n)
		}
	}
}
