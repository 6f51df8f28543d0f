package e2e

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/noggin-go/noggin/core/request"
)

// TestTooLargeEverySurface: a title or note one byte over request.MaxText
// is too-large (exit 2) with the same envelope on MCP, RPC and a remote
// location, and nothing is written; one at the limit is written.
func TestTooLargeEverySurface(t *testing.T) {
	ctx := context.Background()
	srv := startTokenServer(t, t.TempDir())
	dir := t.TempDir()
	m, err := StartMCP(ctx, needBinary(t, MCP), dir, append(append(processEnv(true), "HOME="+t.TempDir()), tokenEnv(srv.Addr)...))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	rpc, err := NewRPCSurface(sharedRPC(t).Addr)
	if err != nil {
		t.Fatal(err)
	}
	over := strings.Repeat("a", request.MaxText+1)
	for _, c := range []struct {
		verb, field string
	}{{"push", "title"}, {"note", "text"}} {
		var envs [][]byte
		local := filepath.Join(dir, c.verb+".yaml")
		for _, call := range []struct {
			name string
			do   func() ([]byte, error)
		}{
			{"mcp", func() ([]byte, error) {
				return m.Call(ctx, "noggin_"+c.verb, map[string]any{"noggin": local, c.field: over})
			}},
			{"mcp remote", func() ([]byte, error) {
				return m.Call(ctx, "noggin_"+c.verb, map[string]any{"noggin": "http://" + srv.Addr + "/r.yaml", c.field: over})
			}},
			{"rpc", func() ([]byte, error) {
				return rpc.c.Call(ctx, c.verb, map[string]any{"noggin": "big-" + c.verb + ".yaml", c.field: over})
			}},
		} {
			env, err := call.do()
			if err != nil {
				t.Fatalf("%s %s: %v", c.verb, call.name, err)
			}
			if !bytes.Contains(env, []byte(`"code": "too-large"`)) || !bytes.Contains(env, []byte(`"exitCode": 2`)) {
				t.Fatalf("%s %s: %.300s", c.verb, call.name, env)
			}
			envs = append(envs, env)
		}
		for i := 1; i < len(envs); i++ {
			if !bytes.Equal(envs[i], envs[0]) {
				t.Errorf("%s: envelopes differ:\n%s\n%s", c.verb, envs[0], envs[i])
			}
		}
		if _, err := os.Stat(local); !os.IsNotExist(err) {
			t.Errorf("%s: a file was written", c.verb)
		}
	}
	for _, name := range []string{"big-push.yaml", "big-note.yaml"} {
		if _, err := os.Stat(filepath.Join(suite.work, name)); !os.IsNotExist(err) {
			t.Errorf("RPC wrote %s", name)
		}
	}
	// At the limit, every surface writes it.
	at := strings.Repeat("b", request.MaxText)
	env, err := m.Call(ctx, "noggin_push", map[string]any{"noggin": "http://" + srv.Addr + "/r.yaml", "title": at})
	if err != nil || !bytes.Contains(env, []byte(`"status": "ok"`)) {
		t.Fatalf("remote push at the limit: %v %.300s", err, env)
	}
	env, err = rpc.c.Call(ctx, "note", map[string]any{"noggin": "big-at.yaml", "text": at, "path": "/1"})
	if err != nil || !bytes.Contains(env, []byte(`"code": "path-not-found"`)) {
		t.Fatalf("RPC note at the limit: %v %.300s", err, env)
	}
}
