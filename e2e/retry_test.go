package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/noggin-go/noggin/core/request"
	"github.com/noggin-go/noggin/surfaces/rpc/pgstore/pgtest"
)

// runWithID makes one Run call to the server at addr, as the remote
// client does, with request id id; it returns the envelope text.
func runWithID(addr, id string, req request.Request) (string, error) {
	reqJSON, err := req.MarshalJSON()
	if err != nil {
		return "", err
	}
	body, _ := json.Marshal(map[string]string{"request": string(reqJSON), "requestId": id})
	hr, _ := http.NewRequest("POST", "http://"+addr+"/noggin.v1.NogginService/Run", bytes.NewReader(body))
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("Authorization", "Bearer "+remoteToken)
	c := http.Client{Timeout: 10 * time.Second}
	res, err := c.Do(hr)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != 200 {
		return "", fmt.Errorf("status %d: %s %v", res.StatusCode, b, err)
	}
	var out struct{ Envelope string }
	err = json.Unmarshal(b, &out)
	return out.Envelope, err
}

// retryCycles sends a write to target() and kills that server at a random
// moment, cycles times, then retries the write with its request id on the
// server retryOn() gives (restarted, or another replica) until it is
// answered. Each write must be in the noggin exactly once (count), and a
// retry of a write answered before the kill gets the same answer.
func retryCycles(t *testing.T, cycles int, target, retryOn func() *RPCServer, count func(title string) int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(20261204, 2))
	answeredBefore, dup := 0, 0
	for i := range cycles {
		srv := target()
		id := fmt.Sprintf("cycle-%d", i)
		req := request.Request{Verb: "push", Title: request.String(id), Location: request.String("team.yaml")}
		firstAnswer := make(chan string, 1)
		go func() {
			env, err := runWithID(srv.Addr, id, req)
			if err != nil {
				env = ""
			}
			firstAnswer <- env
		}()
		time.Sleep(time.Duration(rng.IntN(6000)) * time.Microsecond)
		_ = srv.cmd.Process.Signal(syscall.SIGKILL)
		<-srv.done
		got := <-firstAnswer
		srv = retryOn()
		var retry string
		for attempt := 0; retry == ""; attempt++ {
			env, err := runWithID(srv.Addr, id, req)
			if err == nil {
				retry = env
			} else if attempt == 20 {
				t.Fatalf("cycle %d: retry failed: %v", i, err)
			}
		}
		if !strings.Contains(retry, `"status": "ok"`) {
			t.Fatalf("cycle %d: retry answered %s", i, retry)
		}
		if got != "" {
			answeredBefore++
			if got != retry {
				t.Errorf("cycle %d: first answer\n%s\nretry's\n%s", i, got, retry)
			}
		}
		if n := count(id); n != 1 {
			dup++
			t.Errorf("cycle %d: the write is in the noggin %d times", i, n)
		}
	}
	t.Logf("%d kill-and-retry cycles: %d answered before the kill, %d applied twice or never", cycles, answeredBefore, dup)
}

// countTitle counts the items titled title in a show of the whole noggin.
func countTitle(t *testing.T, addr, title string) int {
	t.Helper()
	env, err := runWithID(addr, "", request.Request{Verb: "show", Location: request.String("team.yaml"), WithAll: request.Flag(true)})
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(env, `"title": "`+title+`"`)
}

// TestRetryAfterRestart: on the file server, a write whose server was
// killed is retried on the restarted server; it is applied exactly once.
func TestRetryAfterRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIPPED in -short (make short): a fault or fuzz run; make test runs it")
	}
	root := t.TempDir()
	cur := startTokenServer(t, root)
	retryCycles(t, 30, func() *RPCServer { return cur }, func() *RPCServer { cur = startTokenServer(t, root); return cur },
		func(title string) int { return countTitle(t, cur.Addr, title) })
}

// TestRetryAfterRestartPostgres: the same on the team server, and through
// another replica.
func TestRetryAfterRestartPostgres(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIPPED in -short (make short): a fault or fuzz run; make test runs it")
	}
	c := pgtest.Start(t, pgtest.Options{})
	env := append(processEnv(true), "HOME="+t.TempDir(), "NOGGIN_RPC_TOKEN="+remoteToken)
	start := func() *RPCServer {
		srv, err := StartRPCServer(needBinary(t, RPC), "", env, "--store", c.DSN)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(srv.Stop)
		return srv
	}
	t.Run("restart", func(t *testing.T) {
		cur := start()
		retryCycles(t, 30, func() *RPCServer { return cur }, func() *RPCServer { cur = start(); return cur },
			func(title string) int { return countTitle(t, cur.Addr, title) })
	})
	t.Run("another replica", func(t *testing.T) {
		other := start()
		// Answered, then asked again of another replica.
		req := request.Request{Verb: "push", Title: request.String("once"), Location: request.String("team.yaml")}
		a, err := runWithID(start().Addr, "replica-id", req)
		if err != nil {
			t.Fatal(err)
		}
		b, err := runWithID(other.Addr, "replica-id", req)
		if err != nil || a != b {
			t.Fatalf("another replica answered %s %v, the first %s", b, err, a)
		}
		// Killed mid-write, retried on another replica.
		retryCycles(t, 10, start, func() *RPCServer { return other }, func(title string) int { return countTitle(t, other.Addr, title) })
		if n := countTitle(t, other.Addr, "once"); n != 1 {
			t.Errorf("once is there %d times", n)
		}
	})
}

// TestReusedRequestIDRefused: a request id used for one push and sent
// again with another is request-id-reused (exit 2) and writes nothing,
// on the file server and on the team server; a true retry still gets the
// first answer.
func TestReusedRequestIDRefused(t *testing.T) {
	servers := map[string]func(t *testing.T) *RPCServer{
		"files": func(t *testing.T) *RPCServer {
			t.Helper()
			return startTokenServer(t, t.TempDir())
		},
		"postgres": func(t *testing.T) *RPCServer {
			t.Helper()
			c := pgtest.Start(t, pgtest.Options{})
			srv, err := StartRPCServer(needBinary(t, RPC), "", append(processEnv(true), "HOME="+t.TempDir(), "NOGGIN_RPC_TOKEN="+remoteToken), "--store", c.DSN)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(srv.Stop)
			return srv
		},
	}
	for _, name := range []string{"files", "postgres"} {
		t.Run(name, func(t *testing.T) {
			srv := servers[name](t)
			push := func(title string) request.Request {
				return request.Request{Verb: "push", Title: request.String(title), Location: request.String("team.yaml")}
			}
			first, err := runWithID(srv.Addr, "abc-1", push("first"))
			if err != nil || !strings.Contains(first, `"status": "ok"`) {
				t.Fatalf("first: %s %v", first, err)
			}
			second, err := runWithID(srv.Addr, "abc-1", push("second"))
			if err != nil || !strings.Contains(second, `"code": "request-id-reused"`) || !strings.Contains(second, `"exitCode": 2`) || !strings.Contains(second, `"requestId": "abc-1"`) {
				t.Fatalf("another request under the id: %s %v", second, err)
			}
			if retry, err := runWithID(srv.Addr, "abc-1", push("first")); err != nil || retry != first {
				t.Fatalf("a retry: %s %v, want the first answer", retry, err)
			}
			if n, m := countTitle(t, srv.Addr, "first"), countTitle(t, srv.Addr, "second"); n != 1 || m != 0 {
				t.Fatalf("first written %d times, second %d times", n, m)
			}
		})
	}
}
