package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/surfaces/rpc/client"
	"github.com/noggin-go/noggin/surfaces/rpc/pgstore/pgtest"
)

// TestChangesFollow: a reader that sleeps through 1,000 writes (four
// writers at once) and then pages through changes sees each write once,
// in order, although the server is killed (-9) and started again between
// its pages; on a served directory and on the team database.
func TestChangesFollow(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIPPED in -short: 1,000 durable writes and a restart; make test runs it")
	}
	bin := needBinary(t, RPC)
	t.Run("file", func(t *testing.T) {
		root := t.TempDir()
		followChanges(t, func() *RPCServer {
			t.Helper()
			srv, err := StartRPCServer(bin, root, processEnv(false))
			if err != nil {
				t.Fatal(err)
			}
			return srv
		})
	})
	t.Run("postgres", func(t *testing.T) {
		c := pgtest.Start(t, pgtest.Options{})
		followChanges(t, func() *RPCServer {
			t.Helper()
			srv, err := StartRPCServer(bin, "", processEnv(false), "--store", c.DSN)
			if err != nil {
				t.Fatal(err)
			}
			return srv
		})
	})
}

func followChanges(t *testing.T, start func() *RPCServer) {
	t.Helper()
	const writers, each, name = 4, 250, "follow.yaml"
	ctx := context.Background()
	srv := start()
	t.Cleanup(func() { srv.Stop() })
	c := client.New(&http.Client{Timeout: time.Minute}, "http://"+srv.Addr)
	since := addAt(t, c, name, "start")
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				addAt(t, c, name, fmt.Sprintf("w%d-%03d", w, i))
			}
		})
	}
	wg.Wait()
	seen := map[string]int{}
	lastSeq, pages := 0, 0
	for {
		if pages == 4 { // a reader over a restart resumes from its revision
			_ = srv.cmd.Process.Kill()
			<-srv.done
			srv = start()
			c = client.New(&http.Client{Timeout: time.Minute}, "http://"+srv.Addr)
		}
		res, err := c.Changes(ctx, name, noggin.ChangesOpts{Since: since})
		if err != nil {
			t.Fatalf("changes since %s: %v", since, err)
		}
		pages++
		for _, w := range res.Writes {
			if lastSeq != 0 && w.Seq != lastSeq+1 {
				t.Fatalf("write #%d after #%d: a gap or a repeat", w.Seq, lastSeq)
			}
			lastSeq = w.Seq
			if len(w.Changes) != 1 || w.Changes[0].Kind != "added" {
				t.Fatalf("write #%d: %+v", w.Seq, w.Changes)
			}
			seen[w.Changes[0].Title]++
		}
		since = res.Next
		if !res.More {
			break
		}
	}
	if len(seen) != writers*each {
		t.Errorf("%d writes seen, want %d", len(seen), writers*each)
	}
	for title, n := range seen {
		if n != 1 {
			t.Errorf("%s seen %d times", title, n)
		}
	}
	t.Logf("%d writes in %d pages, a restart after the 4th", len(seen), pages)
}

// addAt adds an item titled title to noggin name through c's Call and
// returns the answer's revision.
func addAt(t *testing.T, c *client.Client, name, title string) string {
	t.Helper()
	b, err := c.Call(context.Background(), "add", map[string]any{"noggin": name, "title": title})
	var env struct {
		Status, Revision string
	}
	if err == nil {
		err = json.Unmarshal(b, &env)
	}
	if err != nil || env.Status != "ok" {
		t.Errorf("add %s: %v %s", title, err, b)
	}
	return env.Revision
}
