package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
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
	// A revision is a file's digest there, the database's token here.
	"stale-revision": true,
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
	pr := &pgRunner{db: db, sf: sf, r: &Runner{Work: work, Surfaces: map[string]Surface{RPC: sf}}}
	reasons := map[string]int{}
	ran := 0
	norm := pgNormalizer(work)
	for _, s := range loadScenarios(t) {
		if why := pgEligible(s, work); why != "" {
			reasons[why]++
			continue
		}
		ran++
		t.Run(s.Name, func(t *testing.T) {
			// Without histories: the database keeps them in a table.
			trimmed := withoutHistories(s)
			var finals []string
			for _, f := range trimmed.Finals() {
				finals = append(finals, f.Name)
			}
			res := pr.run(t, s, finals)
			for _, msg := range Compare(trimmed, []*RunResult{res}, norm) {
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

// pgRunner runs scenarios on a noggin-rpc serving a team database.
type pgRunner struct {
	db *pgstore.DB
	sf *RPCSurface
	r  *Runner // its work directory holds the fixtures before import
}

// run imports s's fixtures, runs its steps that RPC can express and
// exports the noggins named finals (those that exist) as files.
func (pr *pgRunner) run(t *testing.T, s *Scenario, finals []string) *RunResult {
	t.Helper()
	ctx := context.Background()
	if _, err := pr.r.Setup(s); err != nil {
		t.Fatal(err)
	}
	for _, sec := range s.Sections {
		if sec.Kind != KindFile && sec.Kind != KindGenerate {
			continue
		}
		st, err := store.Open(ctx, filepath.Join(pr.r.Work, s.Name, sec.Name), store.Options{})
		if err != nil {
			t.Fatalf("fixture %s: %v", sec.Name, err)
		}
		doc, err := st.Load(ctx)
		if err == nil {
			err = pr.db.Import(ctx, s.Location(sec.Name), doc, true)
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
		res.Steps = append(res.Steps, pr.sf.Do(ctx, s, sec.Step.WithRevisions(res.Steps)))
		res.Surfaces = append(res.Surfaces, Postgres)
	}
	for _, name := range finals {
		doc, err := pr.db.Export(ctx, s.Location(name))
		if err == pgstore.ErrNotFound {
			continue
		}
		if err != nil {
			t.Fatalf("export %s: %v", name, err)
		}
		if strings.HasSuffix(strings.ToLower(name), ".json") {
			res.Files[name] = codec.EncodeJSON(doc)
		} else {
			res.Files[name] = codec.EncodeYAML(doc)
		}
	}
	return res
}

// withoutHistories is s without its final histories (a team database
// keeps them in a table), its answers' revisions written REV.
func withoutHistories(s *Scenario) *Scenario {
	trimmed := *s
	trimmed.Sections = nil
	for _, sec := range s.Sections {
		if sec.Kind == KindFinal && strings.HasSuffix(sec.Name, ".history") {
			continue
		}
		if sec.Kind != KindFinal && sec.Step != nil {
			c := *sec
			c.Body = revisionToken.ReplaceAll(withoutRevision(sec.Body), []byte("REV"))
			sec = &c
		}
		trimmed.Sections = append(trimmed.Sections, sec)
	}
	return &trimmed
}

// revisionLine is an envelope's revision: a file's digest there, the
// database's state token here (both name the state; they cannot agree).
var revisionLine = regexp.MustCompile(`(?m)^  "revision": "[^"]*",\n`)

func withoutRevision(b []byte) []byte { return revisionLine.ReplaceAll(b, nil) }

// revisionToken is a revision in a message (a text answer's error line):
// a file's digest or the database's token, written REV on both sides.
var revisionToken = regexp.MustCompile(`\b(crc:[0-9]+:[0-9a-f]+|pg:[0-9]+(:[0-9]+)?)\b`)

// pgNormalizer is Normalizer without the envelopes' revisions.
func pgNormalizer(work string) func([]byte) []byte {
	norm := Normalizer(work)
	return func(b []byte) []byte {
		return revisionToken.ReplaceAll(withoutRevision(norm(b)), []byte("REV"))
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
	if testing.Short() {
		t.Skip("SKIPPED in -short (make short): a fault or fuzz run; make test runs it")
	}
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
	// Every add once, in commit order; the ones a watcher has not taken
	// yet arrive merged into one event.
	for r, w := range ws {
		for have := 0; have < n; {
			ev, err := w.Next()
			if err != nil {
				t.Fatalf("replica %d, after %d items: %v", r, have, err)
			}
			title := map[string]string{}
			for _, it := range ev.Doc.Items {
				title[it.Key] = it.Title
			}
			for _, c := range ev.Changes {
				if want := fmt.Sprintf("item %d", have); c.Kind != noggin.ChangeAdded || title[c.Key] != want {
					t.Fatalf("replica %d: change %s of %q, want added %q", r, c.Kind, title[c.Key], want)
				}
				have++
			}
			if len(ev.Changes) == 0 || len(ev.Doc.Items) != have {
				t.Fatalf("replica %d: an event of %d changes and %d items after %d adds", r, len(ev.Changes), len(ev.Doc.Items), have)
			}
		}
	}
}

// TestDifferentialPostgres runs generated sequences (the differential
// fuzzer's generator: hostile titles and notes, every verb and path form)
// on the CLI over files and on noggin-rpc over a team database: every
// envelope and every final noggin must be the same bytes. Sequences about
// files (a location the database refuses, a failure only a file can give)
// are left out and counted.
func TestDifferentialPostgres(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIPPED in -short (make short): a fault or fuzz run; make test runs it")
	}
	c := pgtest.Start(t, pgtest.Options{})
	srv := startReplicas(t, c.DSN, 1, processEnv(true))[0]
	sf, err := NewRPCSurface(srv.Addr)
	if err != nil {
		t.Fatal(err)
	}
	db, err := pgstore.Open(context.Background(), c.DSN)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	pr := &pgRunner{db: db, sf: sf, r: &Runner{Work: filepath.Join(suite.tmp, "pg-diff"), Surfaces: map[string]Surface{RPC: sf}}}

	chooser := NewSeededChooser(*fuzzSeed + 1)
	scns := make([]*Scenario, *fuzzPGSeqs)
	for i := range scns {
		scns[i] = GenScenario(chooser, fmt.Sprintf("pgfuzz-%04d", i), *fuzzSteps)
	}
	cli := runModesOf(t, scns, []string{CLI}, false)
	ran, left, steps := 0, 0, 0
	for _, s := range scns {
		ref := cli[s.Name][0]
		if pgEligible(s, "") != "" || ref.Err != nil || touchesFileOnly(ref) {
			left++
			continue
		}
		ran++
		steps += len(s.Steps())
		trimmed := withoutHistories(s)
		files := map[string][]byte{}
		var finals []string
		for name, data := range ref.Files {
			if nogginName(name) {
				files[name] = data
				finals = append(finals, name)
			}
		}
		refTrimmed := *ref
		refTrimmed.Files = files
		res := pr.run(t, s, finals)
		msgs := Compare(trimmed, []*RunResult{&refTrimmed, res}, pgNormalizer(suite.work))
		if len(res.Files) != len(files) {
			msgs = append(msgs, fmt.Sprintf("%s: %d noggins on files, %d in the database", s.Name, len(files), len(res.Files)))
		}
		if len(msgs) > 0 {
			var lines []string
			for _, st := range s.Steps() {
				lines = append(lines, "-- "+st.Header+" --")
			}
			t.Errorf("files and the team database diverge on %s:\n%s\n%s", s.Name, strings.Join(lines, "\n"), strings.Join(msgs, "\n"))
		}
	}
	t.Logf("differential on PostgreSQL: %d sequences, %d steps (seed %d) ran; %d about files left out", ran, steps, *fuzzSeed+1, left)
	if ran < len(scns)/2 {
		t.Errorf("only %d of %d sequences could run on the team database", ran, len(scns))
	}
}

// touchesFileOnly reports whether a run met a failure only files give.
func touchesFileOnly(r *RunResult) bool {
	for _, o := range r.Steps {
		if o != nil && o.Err == nil && fileOnlyCodes[outcomeCode(o.Text)] {
			return true
		}
	}
	return false
}
