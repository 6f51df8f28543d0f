package e2e

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMCPHTTPToken: noggin-mcp --http refuses a non-loopback address
// without a bearer token, and with one (--token-file or $NOGGIN_MCP_TOKEN)
// answers 401 with WWW-Authenticate to a request without it or with
// another; /healthz needs none. Seen from outside: the binary's stderr and
// exit code, and HTTP requests.
func TestMCPHTTPToken(t *testing.T) {
	bin := needBinary(t, MCP)
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		args []string
		env  []string
		msg  string
	}{
		{"no token", []string{"--http", "0.0.0.0:1", "--allow-remote"}, nil, "needs a bearer token"},
		{"no allow-remote", []string{"--http", "0.0.0.0:1"}, []string{"NOGGIN_MCP_TOKEN=t0ken"}, "pass --allow-remote"},
		{"an empty token file", []string{"--http", "0.0.0.0:1", "--allow-remote", "--token-file", os.DevNull}, nil, "the file is empty"},
	} {
		cmd := exec.Command(bin, c.args...)
		cmd.Dir, cmd.Env = dir, append(processEnv(true), c.env...)
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), c.msg) {
			t.Errorf("%s: %v %s", c.name, err, out)
		}
	}

	const token = "s3cret-mcp-token"
	file := filepath.Join(dir, "token")
	if err := os.WriteFile(file, []byte(token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	cmd := exec.Command(bin, "--http", addr, "--token-file", file)
	cmd.Dir, cmd.Env = dir, processEnv(true)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	for deadline := time.Now().Add(10 * time.Second); ; {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("noggin-mcp did not listen")
		}
		time.Sleep(20 * time.Millisecond)
	}
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"curl","version":"0"}}}`
	// post answers the status and the WWW-Authenticate header.
	post := func(auth string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/", bytes.NewBufferString(initialize))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode, res.Header.Get("WWW-Authenticate")
	}
	for _, auth := range []string{"", "Bearer wrong", "Basic " + token, "Bearer " + token + "x"} {
		if code, challenge := post(auth); code != http.StatusUnauthorized || !strings.HasPrefix(challenge, "Bearer") {
			t.Errorf("Authorization %q: %d, WWW-Authenticate %q", auth, code, challenge)
		}
	}
	if code, _ := post("bearer " + token); code != http.StatusOK {
		t.Errorf("with the token: %d", code)
	}
	res, err := http.Get("http://" + addr + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Errorf("/healthz without a token: %s", res.Status)
	}
}
