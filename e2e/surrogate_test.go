package e2e

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/noggin-go/noggin/surfaces/rpc/pgstore/pgtest"
)

// runRaw posts a Run whose request JSON is given as is (a lone surrogate
// escape cannot come from a Go string).
func runRaw(t *testing.T, addr, reqJSON string) string {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"request": reqJSON})
	res, err := http.Post("http://"+addr+"/noggin.v1.NogginService/Run", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	var out struct{ Envelope string }
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%s: %s", reqJSON, b)
	}
	return out.Envelope
}

// TestLoneSurrogatePostgres: a lone surrogate reaches the team server in a
// remote request, is kept in the database, shown as "\ud800", and an
// exported file spells it as the original does.
func TestLoneSurrogatePostgres(t *testing.T) {
	c := pgtest.Start(t, pgtest.Options{})
	srv, err := StartRPCServer(needBinary(t, RPC), "", append(processEnv(true), "HOME="+t.TempDir()), "--store", c.DSN)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	if env := runRaw(t, srv.Addr, `{"verb":"push","args":{"noggin":"s.yaml","title":"a\ud800b"}}`); !strings.Contains(env, `"status": "ok"`) {
		t.Fatalf("push: %s", env)
	}
	if env := runRaw(t, srv.Addr, `{"verb":"show","args":{"noggin":"s.yaml"}}`); !strings.Contains(env, `"title": "a\ud800b"`) {
		t.Fatalf("show: %s", env)
	}
	file := filepath.Join(t.TempDir(), "s.yaml")
	cmd := exec.Command(needBinary(t, RPC), "export", "--store", c.DSN, "s.yaml", file)
	cmd.Env = append(processEnv(true), "HOME="+t.TempDir())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("export: %v %s", err, out)
	}
	b, _ := os.ReadFile(file)
	if !strings.Contains(string(b), `title: "a\uD800b"`) {
		t.Fatalf("exported file:\n%s", b)
	}
}

// TestLoneSurrogateRemoteCLI: the CLI on a remote file noggin whose title
// holds a lone surrogate (written by the original) prints what it prints
// on the same file locally, human and --json.
func TestLoneSurrogateRemoteCLI(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	const file = "schemaVersion: 1\nactive: k1\nitems:\n  - key: k1\n    parentKey: null\n    title: \"a\\uD800b\"\n    done: false\n    notes: []\n"
	for _, p := range []string{filepath.Join(root, "s.yaml"), filepath.Join(dir, "s.yaml")} {
		if err := os.WriteFile(p, []byte(file), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := startTokenServer(t, root)
	for _, args := range [][]string{{"show"}, {"--json", "show"}} {
		local := runCLI(t, dir, nil, append([]string{"--noggin", filepath.Join(dir, "s.yaml")}, args...)...)
		remote := runCLI(t, dir, tokenEnv(srv.Addr), append([]string{"--noggin", "http://" + srv.Addr + "/s.yaml"}, args...)...)
		if !strings.Contains(local, `a\ud800b`) || remote != local {
			t.Errorf("%v: remote\n%s\nlocal\n%s", args, remote, local)
		}
	}
}
