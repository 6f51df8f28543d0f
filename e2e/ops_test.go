package e2e

import (
	"bufio"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/noggin-go/noggin/surfaces/rpc/pgstore/pgtest"
)

// TestReadyzDatabaseDown: a team server is ready while its database
// answers, and says it is not once the database is gone (still alive:
// /healthz).
func TestReadyzDatabaseDown(t *testing.T) {
	c := pgtest.Start(t, pgtest.Options{})
	srv, err := StartRPCServer(needBinary(t, RPC), "", append(processEnv(true), "HOME="+t.TempDir()), "--store", c.DSN)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	var body []byte
	status := func(path string) int {
		res, err := http.Get("http://" + srv.Addr + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ = io.ReadAll(res.Body)
		res.Body.Close()
		return res.StatusCode
	}
	if s := status("/readyz"); s != 200 {
		t.Fatalf("/readyz with the database up: %d", s)
	}
	c.Stop()
	if s := status("/readyz"); s != 503 {
		t.Errorf("/readyz with the database down: %d", s)
	}
	// No token is asked: the answer names no user, database or path.
	if string(body) != "not ready: the database does not answer\n" {
		t.Errorf("/readyz says %q", body)
	}
	if s := status("/healthz"); s != 200 {
		t.Errorf("/healthz with the database down: %d", s)
	}
}

// TestCLIWatchAcrossRestart: `noggin show --watch --json` on a remote
// noggin keeps going while its server stops (SIGTERM: the stream ends
// `unavailable`) and starts again on the same address, and shows the
// writes made after the restart: a file server, and a team replica
// whose noggin another replica writes meanwhile.
func TestCLIWatchAcrossRestart(t *testing.T) {
	t.Run("file server", func(t *testing.T) {
		root := t.TempDir()
		srv := startTokenServer(t, root)
		watchAcrossRestart(t, srv, srv, "--root", root)
	})
	t.Run("team replica", func(t *testing.T) {
		c := pgtest.Start(t, pgtest.Options{})
		srvs := startReplicas(t, c.DSN, 2, append(processEnv(true), "HOME="+t.TempDir(), "NOGGIN_RPC_TOKEN="+remoteToken))
		watchAcrossRestart(t, srvs[0], srvs[1], "--store", c.DSN)
	})
}

// watchAcrossRestart watches w.yaml on srv, restarts srv with serve's
// args, and expects a push made through writer afterwards.
func watchAcrossRestart(t *testing.T, srv, writer *RPCServer, args ...string) {
	t.Helper()
	dir := t.TempDir()
	loc := "http://" + srv.Addr + "/w.yaml"
	env := append(tokenEnv(srv.Addr), "HOME="+dir)
	if out := runCLI(t, dir, env, "--noggin", loc, "push", "before"); !strings.Contains(out, "[exit 0]") {
		t.Fatal(out)
	}
	watch := exec.Command(needBinary(t, CLI), "--json", "--noggin", loc, "show", "--watch")
	watch.Env = append(processEnv(true), env...)
	out, err := watch.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := watch.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = watch.Process.Kill(); _ = watch.Wait() })
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	expect := func(what string) {
		t.Helper()
		deadline := time.After(20 * time.Second)
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("the watch ended before %s", what)
				}
				if strings.Contains(l, what) {
					return
				}
			case <-deadline:
				t.Fatalf("no frame with %s", what)
			}
		}
	}
	expect(`"title":"before"`)
	_ = srv.cmd.Process.Signal(syscall.SIGTERM)
	<-srv.done
	expect(`"code":"unavailable"`)
	again := exec.Command(needBinary(t, RPC), append([]string{"serve", "--addr", srv.Addr}, args...)...)
	again.Env = append(processEnv(true), "HOME="+dir, "NOGGIN_RPC_TOKEN="+remoteToken)
	if err := again.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = again.Process.Signal(syscall.SIGTERM); _ = again.Wait() })
	wloc := "http://" + writer.Addr + "/w.yaml"
	wenv := append(tokenEnv(writer.Addr), "HOME="+dir)
	for i := 0; ; i++ {
		if out := runCLI(t, dir, wenv, "--noggin", wloc, "push", "after"); strings.Contains(out, "[exit 0]") {
			break
		} else if i == 50 {
			t.Fatalf("push after the restart: %s", out)
		}
		time.Sleep(100 * time.Millisecond)
	}
	expect(`"title":"after"`)
}
