package e2e

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/noggin-go/noggin/surfaces/rpc/pgstore/pgtest"
)

// TestReplicaWaitsForDatabase: a replica started while its database is
// down serves /healthz 200 and /readyz 503, answers calls unavailable,
// logs why without the database's user, name or socket directory, and
// serves as soon as the database is up.
func TestReplicaWaitsForDatabase(t *testing.T) {
	c := pgtest.Start(t, pgtest.Options{})
	dsn := c.NewDatabase(t, "replica_waits_db")
	c.StopServer(t)
	srv, err := startRPCServer(needBinary(t, RPC), "", processEnv(true), false, "--store", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	status := func(path string) int {
		resp, err := http.Get("http://" + srv.Addr + path)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		return resp.StatusCode
	}
	if h, r := status("/healthz"), status("/readyz"); h != http.StatusOK || r != http.StatusServiceUnavailable {
		t.Fatalf("before the database: /healthz %d, /readyz %d", h, r)
	}
	sf, err := NewRPCSurface(srv.Addr)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	push := map[string]any{"noggin": "team.yaml", "title": "first"}
	env, err := sf.c.Call(ctx, "push", push)
	if err != nil || !bytes.Contains(env, []byte(`"code": "unavailable"`)) {
		t.Fatalf("a call before the database: %s, %v", env, err)
	}
	c.StartServer(t)
	if !pgtest.WaitFor(30*time.Second, srv.Ready) {
		t.Fatalf("/readyz never said ready; log:\n%s", srv.log)
	}
	if env, err = sf.c.Call(ctx, "push", push); err != nil || !bytes.Contains(env, []byte(`"status": "ok"`)) {
		t.Fatalf("a call once the database answers: %s, %v", env, err)
	}
	log := srv.log.String()
	if !strings.Contains(log, "waiting for the team database") {
		t.Errorf("the log does not say it waits:\n%s", log)
	}
	_, sockets, _ := strings.Cut(strings.TrimSuffix(dsn, "&sslmode=disable"), "host=")
	for _, secret := range []string{"replica_waits_db", "user=", sockets} {
		if strings.Contains(log, secret) {
			t.Errorf("the log shows %q:\n%s", secret, log)
		}
	}
}
