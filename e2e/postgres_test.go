package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/noggin-go/noggin/core/codec"
	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/store"
	"github.com/noggin-go/noggin/surfaces/rpc/pgstore"
	"github.com/noggin-go/noggin/surfaces/rpc/pgstore/pgtest"
)

// Postgres is the mode that runs scenarios on noggin-rpc serve --store.
const Postgres = "postgres"

// fileOnlyCodes are failures only a file can give (a file that does not
// parse, a lock, a path outside the root, a scheme): a scenario expecting
// one is about files, not about the verbs.
var fileOnlyCodes = map[string]bool{
	"io": true, "invalid-document": true, "unsupported-schema": true, "lock-timeout": true,
	"location-refused": true, "no-provider": true, "invalid-note": true, "undo-conflict": true,
	"history-unavailable": true,
}

// pgEligible says why scenario s cannot run against the team database
// ("" when it can): its fixtures and finals must be noggin files that
// load, its steps must not expect a file-only failure or name files by
// absolute path or URI.
func pgEligible(s *Scenario, work string) string {
	for _, sec := range s.Sections {
		switch sec.Kind {
		case KindDir:
			return "a directory fixture"
		case KindFile, KindGenerate:
			if !nogginName(sec.Name) {
				return "fixture " + sec.Name + " is not a noggin"
			}
			if strings.Contains(string(sec.Body), "$PID") || strings.Contains(string(sec.Body), "$NOWMS") {
				return "a fixture about locks"
			}
		case KindFinal:
			if !nogginName(sec.Name) && !strings.HasSuffix(sec.Name, ".history") {
				return "final " + sec.Name + " is not a noggin"
			}
		case KindStep:
			if sec.Step.Verb == "providers" {
				return "providers lists the server's kinds of location"
			}
			for _, o := range sec.Step.Opts {
				if (o.Key == "noggin" || o.Key == "from" || o.Key == "to") && (strings.Contains(o.Val, "://") || strings.HasPrefix(o.Val, "/")) {
					return "a location that is a URI or an absolute path"
				}
			}
			var env struct {
				Error struct{ Code string } `json:"error"`
			}
			if json.Unmarshal(sec.Body, &env) == nil && fileOnlyCodes[env.Error.Code] {
				return "expects " + env.Error.Code
			}
		}
	}
	return ""
}

func nogginName(n string) bool {
	l := strings.ToLower(n)
	return strings.HasSuffix(l, ".yaml") || strings.HasSuffix(l, ".yml") || strings.HasSuffix(l, ".json")
}

// TestScenariosPostgres runs every eligible scenario against noggin-rpc
// on a throwaway PostgreSQL: fixtures are imported, the steps run over
// RPC, and every envelope and every exported final noggin must be
// byte-identical to the goldens the file store gives (histories are not
// files there; undo and log are compared by their envelopes).
func TestScenariosPostgres(t *testing.T) {
	c := pgtest.Start(t, pgtest.Options{})
	bin := needBinary(t, RPC)
	srv, err := StartRPCServer(bin, "", processEnv(true), "--store", c.DSN)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	sf, err := NewRPCSurface(srv.Addr)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	db, err := pgstore.Open(ctx, c.DSN)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	work := filepath.Join(suite.tmp, "pg-work")
	r := &Runner{Work: work, Surfaces: map[string]Surface{RPC: sf}}
	reasons := map[string]int{}
	ran := 0
	norm := Normalizer(work)
	for _, s := range loadScenarios(t) {
		if why := pgEligible(s, work); why != "" {
			reasons[why]++
			continue
		}
		ran++
		t.Run(s.Name, func(t *testing.T) {
			if _, err := r.Setup(s); err != nil {
				t.Fatal(err)
			}
			for _, sec := range s.Sections {
				if sec.Kind != KindFile && sec.Kind != KindGenerate {
					continue
				}
				st, err := store.Open(ctx, filepath.Join(work, s.Name, sec.Name), store.Options{})
				if err != nil {
					t.Fatalf("fixture %s: %v", sec.Name, err)
				}
				doc, err := st.Load(ctx)
				if err == nil {
					err = db.Import(ctx, s.Location(sec.Name), doc, true)
				}
				if err != nil {
					t.Fatalf("import %s: %v", sec.Name, err)
				}
			}
			res := &RunResult{Mode: Postgres, Files: map[string][]byte{}}
			for _, sec := range s.Steps() {
				if sec.Step.Alt || !sec.Step.Runs(RPC) {
					res.Steps = append(res.Steps, nil)
					res.Surfaces = append(res.Surfaces, "")
					continue
				}
				res.Steps = append(res.Steps, sf.Do(ctx, s, sec.Step))
				res.Surfaces = append(res.Surfaces, Postgres)
			}
			// Without histories: the database keeps them in a table.
			trimmed := *s
			trimmed.Sections = nil
			for _, sec := range s.Sections {
				if sec.Kind == KindFinal && strings.HasSuffix(sec.Name, ".history") {
					continue
				}
				trimmed.Sections = append(trimmed.Sections, sec)
			}
			for _, f := range trimmed.Finals() {
				doc, err := db.Export(ctx, s.Location(f.Name))
				if err == pgstore.ErrNotFound {
					continue
				}
				if err != nil {
					t.Fatalf("export %s: %v", f.Name, err)
				}
				if strings.HasSuffix(strings.ToLower(f.Name), ".json") {
					res.Files[f.Name] = codec.EncodeJSON(doc)
				} else {
					res.Files[f.Name] = codec.EncodeYAML(doc)
				}
			}
			for _, msg := range Compare(&trimmed, []*RunResult{res}, norm) {
				t.Error(msg)
			}
		})
	}
	var why []string
	for k, n := range reasons {
		why = append(why, fmt.Sprintf("%d: %s", n, k))
	}
	sort.Strings(why)
	t.Logf("postgres mode: %d scenarios ran; left out (file-only behaviour): %s", ran, strings.Join(why, "; "))
	if ran < 200 {
		t.Errorf("only %d scenarios are eligible for the postgres mode", ran)
	}
}

// startReplicas starts n noggin-rpc replicas on the database dsn, stopped
// when t ends.
func startReplicas(t *testing.T, dsn string, n int, env []string) []*RPCServer {
	t.Helper()
	bin := needBinary(t, RPC)
	var srvs []*RPCServer
	for range n {
		srv, err := StartRPCServer(bin, "", env, "--store", dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(srv.Stop)
		srvs = append(srvs, srv)
	}
	return srvs
}

// TestReplicaKilled: three noggin-rpc replicas on one database, four
// clients each; one replica is killed (SIGKILL) in the middle. The
// clients of the other two go on, and no acknowledged write is lost.
func TestReplicaKilled(t *testing.T) {
	c := pgtest.Start(t, pgtest.Options{})
	srvs := startReplicas(t, c.DSN, 3, processEnv(false))
	ctx := context.Background()
	type result struct {
		acked  []string
		failed int
		err    error
	}
	results := make(chan result, 12)
	killed := make(chan struct{})
	for r, srv := range srvs {
		sf, err := NewRPCSurface(srv.Addr)
		if err != nil {
			t.Fatal(err)
		}
		for cl := range 4 {
			go func() {
				var res result
				for i := range 100 {
					tag := fmt.Sprintf("r%dc%dw%d", r, cl, i)
					text, err := sf.c.Call(ctx, "add", map[string]any{"noggin": "team.yaml", "title": tag})
					switch {
					case err == nil && strings.Contains(string(text), `"status": "ok"`):
						res.acked = append(res.acked, tag)
					case r == 0:
						res.failed++ // the killed replica's clients
					default:
						res.err = fmt.Errorf("%s: %v %s", tag, err, text)
						results <- res
						return
					}
					if r == 0 && i == 30 {
						<-killed
					}
				}
				results <- res
			}()
		}
	}
	time.Sleep(200 * time.Millisecond)
	if err := srvs[0].cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-srvs[0].done
	close(killed)
	var acked []string
	failed := 0
	for range 12 {
		res := <-results
		if res.err != nil {
			t.Fatal(res.err)
		}
		acked = append(acked, res.acked...)
		failed += res.failed
	}
	db, err := pgstore.Open(ctx, c.DSN)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	doc, err := db.Export(ctx, "team.yaml")
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, it := range doc.Items {
		have[it.Title] = true
	}
	for _, tag := range acked {
		if !have[tag] {
			t.Fatalf("acknowledged write %s lost", tag)
		}
	}
	if failed == 0 {
		t.Fatal("the killed replica's clients never failed: was it killed?")
	}
	t.Logf("%d writes acknowledged and present; %d calls to the killed replica failed", len(acked), failed)
}

// TestWatchAcrossReplicaProcesses: Watch streams of two noggin-rpc
// replicas on one database each deliver every write made through either
// replica, once, in commit order.
func TestWatchAcrossReplicaProcesses(t *testing.T) {
	c := pgtest.Start(t, pgtest.Options{})
	var sfs []*RPCSurface
	for _, srv := range startReplicas(t, c.DSN, 2, processEnv(true)) {
		sf, err := NewRPCSurface(srv.Addr)
		if err != nil {
			t.Fatal(err)
		}
		sfs = append(sfs, sf)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	type watcher interface {
		Next() (noggin.Event, error)
	}
	var ws []watcher
	for _, sf := range sfs {
		w, err := sf.c.Watch(ctx, "team.yaml")
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		ws = append(ws, w)
	}
	const n = 30
	for i := range n {
		text, err := sfs[i%2].c.Call(ctx, "add", map[string]any{"noggin": "team.yaml", "title": fmt.Sprintf("item %d", i)})
		if err != nil || !strings.Contains(string(text), `"status": "ok"`) {
			t.Fatalf("add %d: %v %s", i, err, text)
		}
	}
	for r, w := range ws {
		for i := range n {
			ev, err := w.Next()
			if err != nil {
				t.Fatalf("replica %d, event %d: %v", r, i, err)
			}
			if len(ev.Doc.Items) != i+1 || ev.Doc.Items[i].Title != fmt.Sprintf("item %d", i) {
				t.Fatalf("replica %d, event %d: %d items", r, i, len(ev.Doc.Items))
			}
		}
	}
}
