package e2e

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestTokenNeverInProcessList: a running team server's token is in no
// process's command line (what ps and /proc/PID/cmdline show every local
// user), whether it came from --token-file or $NOGGIN_RPC_TOKEN, and
// --token on the command line is refused without echoing the value.
func TestTokenNeverInProcessList(t *testing.T) {
	const secret = "tok-e2e-never-in-argv-7f3a"
	dir := t.TempDir()
	file := filepath.Join(dir, "token")
	if err := os.WriteFile(file, []byte(secret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	bin := needBinary(t, RPC)
	for _, tc := range []struct {
		name  string
		env   []string
		extra []string
	}{
		{name: "token file", extra: []string{"--token-file", file}},
		{name: "environment", env: []string{"NOGGIN_RPC_TOKEN=" + secret}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, err := StartRPCServer(bin, t.TempDir(), append(append(processEnv(true), "HOME="+dir), tc.env...), tc.extra...)
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Stop()
			own, err := os.ReadFile("/proc/" + strconv.Itoa(srv.cmd.Process.Pid) + "/cmdline")
			if err != nil || !bytes.Contains(own, []byte("serve")) {
				t.Fatalf("the server's command line: %q, %v", own, err)
			}
			cmdlines, err := filepath.Glob("/proc/[0-9]*/cmdline")
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range cmdlines {
				if b, err := os.ReadFile(p); err == nil && bytes.Contains(b, []byte(secret)) {
					t.Errorf("%s shows the token: %q", p, bytes.ReplaceAll(b, []byte{0}, []byte{' '}))
				}
			}
		})
	}
	t.Run("on the command line", func(t *testing.T) {
		// A server that took the flag would serve until killed.
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, bin, "serve", "--addr", "127.0.0.1:0", "--root", t.TempDir(), "--token", secret)
		cmd.Env = append(processEnv(true), "HOME="+dir)
		out, err := cmd.CombinedOutput()
		code := -1
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		}
		if code != 2 || !strings.Contains(string(out), "--token-file") || !strings.Contains(string(out), "$NOGGIN_RPC_TOKEN") || strings.Contains(string(out), secret) {
			t.Fatalf("serve --token: exit %d, %q", code, out)
		}
	})
}
