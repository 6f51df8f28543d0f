package pgstore_test

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
	"weak"

	"github.com/jackc/pgx/v5"

	"github.com/noggin-go/noggin/core/codec"
	"github.com/noggin-go/noggin/core/envelope"
	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/request"
	"github.com/noggin-go/noggin/core/store"
	"github.com/noggin-go/noggin/surfaces/rpc/pgstore"
	"github.com/noggin-go/noggin/surfaces/rpc/pgstore/pgtest"
)

func call(t *testing.T, r *request.Runner, verb string, kv ...any) error {
	t.Helper()
	args := map[string]any{"noggin": "team.yaml"}
	for i := 0; i < len(kv); i += 2 {
		args[kv[i].(string)] = kv[i+1]
	}
	env := r.RunCall(context.Background(), verb, args).Envelope
	if !env.OK() {
		return env.Err
	}
	return nil
}

// TestWatchAcrossReplicas: writes through two replicas reach watchers on
// three, in commit order, exactly once.
func TestWatchAcrossReplicas(t *testing.T) {
	db1, dsn := newDB(t)
	dbs := []*pgstore.DB{db1, openDB(t, dsn), openDB(t, dsn)}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var chans []<-chan noggin.Event
	for _, db := range dbs {
		st, err := db.Open(ctx, "team.yaml")
		if err != nil {
			t.Fatal(err)
		}
		_, ch, err := store.Subscribe(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		chans = append(chans, ch)
	}
	eng := engine(t)
	const n = 40
	for i := range n {
		r := &request.Runner{Engine: eng, Opener: dbs[i%2]}
		if err := call(t, r, "add", "title", fmt.Sprintf("item %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	for w, ch := range chans {
		have := 0 // items added so far: the versions not taken yet arrive merged
		for have < n {
			select {
			case ev := <-ch:
				have = checkAdds(t, fmt.Sprintf("watcher %d", w), ev, have)
			case <-time.After(10 * time.Second):
				t.Fatalf("watcher %d: item %d never came", w, have)
			}
		}
		select {
		case ev := <-ch:
			t.Fatalf("watcher %d: an extra event: %v", w, ev.Changes)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// checkAdds checks that ev adds, in commit order, the items after the
// first have ("item <i>"), each once, and returns how many there are now.
func checkAdds(t *testing.T, who string, ev noggin.Event, have int) int {
	t.Helper()
	if ev.Err != nil || len(ev.Changes) == 0 {
		t.Fatalf("%s: event %+v after %d items", who, ev, have)
	}
	title := map[string]string{}
	for _, it := range ev.Doc.Items {
		title[it.Key] = it.Title
	}
	for k, c := range ev.Changes {
		want := fmt.Sprintf("item %d", have+k)
		if c.Kind != noggin.ChangeAdded || title[c.Key] != want {
			t.Fatalf("%s: change %d is %s of %q, want added %q", who, have+k, c.Kind, title[c.Key], want)
		}
	}
	have += len(ev.Changes)
	if len(ev.Doc.Items) != have || ev.Doc.Items[have-1].Title != fmt.Sprintf("item %d", have-1) {
		t.Fatalf("%s: document of %d items after %d adds", who, len(ev.Doc.Items), have)
	}
	return have
}

// TestWatchCreatedElsewhere: a replica that knew a noggin as absent and
// catches up late on the writes that created it (another replica's) sends
// its watchers the changes of each commit, in order, not one diff of all of
// them (the commits a watcher has not taken yet arrive merged).
func TestWatchCreatedElsewhere(t *testing.T) {
	db1, dsn := newDB(t)
	db2 := openDB(t, dsn)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, err := db2.Open(ctx, "team.yaml")
	if err != nil {
		t.Fatal(err)
	}
	_, ch, err := store.Subscribe(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	release := pgstore.Hold(db2, "team.yaml")
	r := &request.Runner{Engine: engine(t), Opener: db1}
	const n = 5
	for i := range n {
		if err := call(t, r, "add", "title", fmt.Sprintf("item %d", i)); err != nil {
			release()
			t.Fatal(err)
		}
	}
	release()
	for have := 0; have < n; {
		select {
		case ev := <-ch:
			have = checkAdds(t, "watcher", ev, have)
		case <-time.After(10 * time.Second):
			t.Fatalf("item %d never came", have)
		}
	}
}

// TestWriteAfterImportElsewhere: a replica that knew a noggin as absent
// writes to it, with no read first, after another imported it: the write
// lands on the imported noggin, not on the empty one it remembered.
func TestWriteAfterImportElsewhere(t *testing.T) {
	db1, dsn := newDB(t)
	ctx := context.Background()
	st, err := openDB(t, dsn).Open(ctx, "team.yaml")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := codec.DecodeYAML([]byte("schemaVersion: 1\nactive: null\nitems:\n  - key: a\n    parentKey: null\n    title: imported\n    done: false\n    notes: []\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := db1.Import(ctx, "team.yaml", doc, false); err != nil {
		t.Fatal(err)
	}
	var saw int
	_, err = st.Update(ctx, noggin.Write{Verb: "note", Time: "2026-01-01T00:00:00.000Z",
		Plan: func(d *noggin.Document, _ *noggin.History) ([]noggin.Op, error) {
			saw = len(d.Items)
			return nil, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	if saw != 1 {
		t.Fatalf("the write planned on %d items, want the imported one", saw)
	}
}

// TestConcurrentReplicas: three replicas, four clients each, 100 mixed
// writes per client on one noggin: all 1,200 acknowledged and present.
func TestConcurrentReplicas(t *testing.T) {
	db1, dsn := newDB(t)
	dbs := []*pgstore.DB{db1, openDB(t, dsn), openDB(t, dsn)}
	eng := engine(t)
	if err := call(t, &request.Runner{Engine: eng, Opener: db1}, "push", "title", "shared root"); err != nil {
		t.Fatal(err)
	}
	const clients, writes = 4, 100
	start := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, len(dbs)*clients)
	for r, db := range dbs {
		for c := range clients {
			wg.Go(func() {
				run := &request.Runner{Engine: eng, Opener: db}
				for i := range writes {
					var err error
					tag := fmt.Sprintf("r%dc%dw%d", r, c, i)
					switch i % 3 {
					case 0, 1:
						err = call(t, run, "add", "title", tag, "into", "/1")
					default:
						err = call(t, run, "note", "path", "/1", "text", tag)
					}
					if err != nil {
						errs <- fmt.Errorf("%s: %w", tag, err)
						return
					}
				}
			})
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	elapsed := time.Since(start)
	doc, err := openDB(t, dsn).Export(context.Background(), "team.yaml")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, it := range doc.Items {
		got[it.Title] = true
	}
	for _, n := range doc.Items[0].Notes {
		got[n.Text] = true
	}
	missing := 0
	for r := range dbs {
		for c := range clients {
			for i := range writes {
				if !got[fmt.Sprintf("r%dc%dw%d", r, c, i)] {
					missing++
				}
			}
		}
	}
	if missing > 0 || len(got) != 1+len(dbs)*clients*writes {
		t.Fatalf("%d acknowledged writes missing (%d present)", missing, len(got))
	}
	t.Logf("%d writes through 3 replicas in %v (%.0f writes/s)", len(dbs)*clients*writes, elapsed,
		float64(len(dbs)*clients*writes)/elapsed.Seconds())
}

// TestDatabaseRestart: the database restarts under load; writes while it
// is down fail with unavailable (never another answer), the replica
// reconnects by itself, and every acknowledged write is present.
func TestDatabaseRestart(t *testing.T) {
	c := pgtest.Start(t, pgtest.Options{})
	db := openDB(t, c.DSN)
	eng := engine(t)
	run := &request.Runner{Engine: eng, Opener: db}
	var mu sync.Mutex
	var acked []string
	codes := map[string]int{}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range 3 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				tag := fmt.Sprintf("w%d-%d", w, i)
				err := call(t, run, "add", "title", tag)
				mu.Lock()
				if err == nil {
					acked = append(acked, tag)
				} else {
					codes[noggin.Wrap(err).Code]++
				}
				mu.Unlock()
				if err != nil {
					time.Sleep(20 * time.Millisecond)
				}
			}
		})
	}
	time.Sleep(300 * time.Millisecond)
	c.StopServer(t)
	time.Sleep(300 * time.Millisecond)
	c.StartServer(t)
	// Writes succeed again by themselves.
	mu.Lock()
	before := len(acked)
	mu.Unlock()
	if !pgtest.WaitFor(20*time.Second, func() bool { mu.Lock(); defer mu.Unlock(); return len(acked) > before+20 }) {
		t.Fatal("writes did not resume after the restart")
	}
	close(stop)
	wg.Wait()
	for code := range codes {
		if code != noggin.CodeUnavailable {
			t.Fatalf("failures during the restart: %v (only unavailable is allowed)", codes)
		}
	}
	if codes[noggin.CodeUnavailable] == 0 {
		t.Fatal("no write failed while the database was down")
	}
	doc, err := db.Export(context.Background(), "team.yaml")
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
	t.Logf("%d writes acknowledged, failures %v", len(acked), codes)
	if strings.Contains(fmt.Sprint(codes), "noggin-error") {
		t.Fatal("internal error")
	}
}

// TestLockTimeout: a write that waits longer than lock_timeout for the
// noggin's row (held here by a stuck transaction) is unavailable, and
// nothing is written; once the lock is gone, writes go through.
func TestLockTimeout(t *testing.T) {
	_, dsn := newDB(t)
	db := openDB(t, dsn+"&lock_timeout=300")
	run := &request.Runner{Engine: engine(t), Opener: db}
	if err := call(t, run, "push", "title", "first"); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `SELECT 1 FROM noggins WHERE name = 'team.yaml' FOR UPDATE`); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err = call(t, run, "push", "title", "second")
	if noggin.Wrap(err).Code != noggin.CodeUnavailable || time.Since(start) > 5*time.Second {
		t.Fatalf("a write behind a held lock: %v after %v", err, time.Since(start))
	}
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if err := call(t, run, "push", "title", "third"); err != nil {
		t.Fatal(err)
	}
	doc, err := db.Export(ctx, "team.yaml")
	if err != nil || len(doc.Items) != 2 || doc.Items[1].Title != "third" {
		t.Fatalf("after the lock: %v %+v", err, doc)
	}
}

// TestOpsInOneWrite: one write whose ops change a note in the middle of the
// list (unnote then note), move an item into a removed item's place and
// add items in a run lands in the database exactly as Apply computes it.
func TestOpsInOneWrite(t *testing.T) {
	db, dsn := newDB(t)
	ctx := context.Background()
	run := &request.Runner{Engine: engine(t), Opener: db}
	for _, title := range []string{"a", "b", "c"} {
		if err := call(t, run, "add", "title", title); err != nil {
			t.Fatal(err)
		}
	}
	if err := call(t, run, "note", "path", "/1", "text", "one"); err != nil {
		t.Fatal(err)
	}
	st, err := db.Open(ctx, "team.yaml")
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := st.Load(ctx)
	a, b, c := doc.Items[0].Key, doc.Items[1].Key, doc.Items[2].Key
	want, err := st.Update(ctx, noggin.Write{Verb: "test", Time: "2026-01-02T03:04:05.678Z", Plan: func(*noggin.Document, *noggin.History) ([]noggin.Op, error) {
		return []noggin.Op{
			{Type: noggin.OpUnnote, Key: a},
			{Type: noggin.OpNote, Key: a, Note: &noggin.Note{Text: "two"}},
			{Type: noggin.OpRemove, Keys: []string{b}},
			{Type: noggin.OpMove, Key: c, Position: 0},
			{Type: noggin.OpAdd, Item: &noggin.Item{Key: "x1", Title: "x1", Notes: []noggin.Note{}}, Position: 1},
			{Type: noggin.OpAdd, Item: &noggin.Item{Key: "x2", Title: "x2", Notes: []noggin.Note{}}, Position: 2},
		}, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	// A replica that reads everything from the rows sees the same noggin.
	got, err := openDB(t, dsn).Export(ctx, "team.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if string(codec.EncodeYAML(got)) != string(codec.EncodeYAML(want)) {
		t.Fatalf("rows give\n%s\nApply gave\n%s", codec.EncodeYAML(got), codec.EncodeYAML(want))
	}
}

// TestCommitFails: a write whose connection dies at its commit (its outcome
// unknown to the replica) answers unavailable, never a wrong answer; the
// replica then reads the noggin again, answers with what the database
// holds, and writes again on a new connection.
func TestCommitFails(t *testing.T) {
	db, dsn := newDB(t)
	ctx := context.Background()
	run := &request.Runner{Engine: engine(t), Opener: db}
	if err := call(t, run, "push", "title", "first"); err != nil {
		t.Fatal(err)
	}
	killer, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer killer.Close(ctx)
	pgstore.SetBeforeCommit(func(pid uint32) {
		if _, err := killer.Exec(ctx, `SELECT pg_terminate_backend($1)`, pid); err != nil {
			t.Error(err)
		}
	})
	err = call(t, run, "push", "title", "lost")
	pgstore.SetBeforeCommit(nil)
	if code := noggin.Wrap(err).Code; code != noggin.CodeUnavailable {
		t.Fatalf("a write whose commit failed: %v (code %s), want unavailable", err, code)
	}
	// The write did not commit: the replica's answers say so.
	env := run.RunCall(ctx, "show", map[string]any{"noggin": "team.yaml"}).Envelope
	if !env.OK() || strings.Contains(string(env.Encode()), "lost") || !strings.Contains(string(env.Encode()), "first") {
		t.Fatalf("after the failed commit:\n%s", env.Encode())
	}
	if err := call(t, run, "push", "title", "second"); err != nil {
		t.Fatal(err)
	}
	doc, err := db.Export(ctx, "team.yaml")
	if err != nil || len(doc.Items) != 2 || doc.Items[0].Title != "first" || doc.Items[1].Title != "second" {
		t.Fatalf("after the failed commit and a write: %v %+v", err, doc)
	}
}

// TestReplicaKeepsFewVersions: a replica caches the latest version of each
// noggin, not the versions its writes went through (see
// TestLongLivedStoreKeepsFewVersions in core/store; this store applies
// ops to its cached documents the same way).
func TestReplicaKeepsFewVersions(t *testing.T) {
	first, dsn := newDB(t)
	ctx := context.Background()
	if err := call(t, &request.Runner{Engine: engine(t), Opener: first}, "push", "title", "root"); err != nil {
		t.Fatal(err)
	}
	// A replica that reads the noggin from the database indexes it, and
	// its writes derive their indexes from that one.
	db := openDB(t, dsn)
	run := &request.Runner{Engine: engine(t), Opener: db}
	st, err := db.Open(ctx, "team.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var early []weak.Pointer[noggin.Document]
	for i := range 60 {
		var err error
		switch i % 4 {
		case 0:
			err = call(t, run, "add", "title", fmt.Sprint("todo ", i))
		case 1, 2:
			err = call(t, run, "note", "text", fmt.Sprint("note ", i))
		case 3:
			err = call(t, run, "edit", "path", ".", "title", fmt.Sprint("root ", i))
		}
		if err != nil {
			t.Fatalf("write %d: %v", i, err)
		}
		if i < 10 {
			doc, err := st.Load(ctx)
			if err != nil {
				t.Fatal(err)
			}
			early = append(early, weak.Make(doc))
		}
	}
	runtime.GC()
	runtime.GC()
	reachable := 0
	for _, w := range early {
		if w.Value() != nil {
			reachable++
		}
	}
	if reachable > 1 {
		t.Errorf("%d of the first 10 versions are still reachable after 50 more writes, want at most 1", reachable)
	}
}

// TestGroupCommit: writes that wait for a replica's running transaction
// run in one transaction of their own, each planned on the one before and
// answered as if it ran alone (a failing verb fails alone); every write
// is in the noggin once, its history without gaps. When a group's commit
// fails, every write of it is unavailable and none is in the noggin.
func TestGroupCommit(t *testing.T) {
	db, dsn := newDB(t)
	ctx := context.Background()
	groups := 0
	db.Observe = func(what string, _ time.Duration) {
		if what == "write" {
			groups++ // under the replica's lock
		}
	}
	run := &request.Runner{Engine: engine(t), Opener: db}
	if err := call(t, run, "push", "title", "root"); err != nil {
		t.Fatal(err)
	}
	burst := func(n int, write func(i int) error) []error {
		t.Helper()
		release := pgstore.Hold(db, "team.yaml")
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() { errs[i] = write(i) })
		}
		for pgstore.Queued(db, "team.yaml") < n {
			runtime.Gosched()
		}
		release()
		wg.Wait()
		return errs
	}
	groups = 0
	errs := burst(12, func(i int) error {
		if i%4 == 3 {
			return call(t, run, "goto", "path", "/9")
		}
		return call(t, run, "add", "title", fmt.Sprint("w", i), "into", "/1")
	})
	for i, err := range errs {
		if i%4 == 3 {
			if noggin.Wrap(err).Code != noggin.CodePathNotFound {
				t.Errorf("write %d (goto /9): %v", i, err)
			}
		} else if err != nil {
			t.Errorf("write %d: %v", i, err)
		}
	}
	if groups != 1 {
		t.Errorf("12 waiting writes ran in %d transactions, want 1", groups)
	}
	doc, err := db.Export(ctx, "team.yaml")
	if err != nil || len(doc.Items) != 1+9 {
		t.Fatalf("after the group: %v, %d items", err, len(doc.Items))
	}
	log := run.RunCall(ctx, "log", map[string]any{"noggin": "team.yaml", "limit": 50.0}).Envelope
	if got := strings.Count(string(log.Encode()), `"seq": `); got != 10 || !strings.Contains(string(log.Encode()), `"seq": 10,`) {
		t.Fatalf("history of %d entries:\n%s", got, log.Encode())
	}

	killer, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer killer.Close(ctx)
	pgstore.SetBeforeCommit(func(pid uint32) {
		if _, err := killer.Exec(ctx, `SELECT pg_terminate_backend($1)`, pid); err != nil {
			t.Error(err)
		}
	})
	errs = burst(5, func(i int) error { return call(t, run, "add", "title", fmt.Sprint("lost", i)) })
	pgstore.SetBeforeCommit(nil)
	for i, err := range errs {
		if noggin.Wrap(err).Code != noggin.CodeUnavailable {
			t.Errorf("write %d of a failed commit: %v", i, err)
		}
	}
	if err := call(t, run, "add", "title", "after"); err != nil {
		t.Fatal(err)
	}
	doc, err = db.Export(ctx, "team.yaml")
	if err != nil || len(doc.Items) != 1+9+1 || doc.Items[len(doc.Items)-1].Title != "after" {
		t.Fatalf("after the failed group: %v, %d items", err, len(doc.Items))
	}
}

// TestWriteOnAReplicaBehind: a write through a replica whose cache is a
// commit behind (it loads the noggin as it last knew it, without asking)
// plans on the last commit, and if-revision is checked against it.
func TestWriteOnAReplicaBehind(t *testing.T) {
	for _, tc := range []struct {
		name string
		verb string
		args []any
		// ifRevision sends the other replica's last revision (true) or a
		// revision before it.
		fresh, stale bool
		want         string // the title of the item the answer's target is, or the error code
	}{
		{name: "note on the active item the other replica pushed", verb: "note", args: []any{"text", "on b"}, want: "b"},
		{name: "done of that item surfaces to its parent", verb: "done", want: "a"},
		{name: "a relative path from that item", verb: "note", args: []any{"path", "..", "text", "on a"}, want: "a"},
		{name: "if-revision of the other replica's answer", verb: "note", args: []any{"text", "on b"}, fresh: true, want: "b"},
		{name: "if-revision from before it", verb: "note", args: []any{"text", "on b"}, stale: true, want: noggin.CodeStaleRevision},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dbA, dsn := newDB(t)
			eng := engine(t)
			a := &request.Runner{Engine: eng, Opener: dbA}
			b := &request.Runner{Engine: eng, Opener: openDB(t, dsn)}
			run := func(r *request.Runner, verb string, kv ...any) envelope.Envelope {
				t.Helper()
				args := map[string]any{"noggin": "team.yaml"}
				for i := 0; i < len(kv); i += 2 {
					args[kv[i].(string)] = kv[i+1]
				}
				return r.RunCall(context.Background(), verb, args).Envelope
			}
			before := run(a, "push", "title", "a").Revision
			if env := run(b, "show"); !env.OK() { // b knows the noggin with a active
				t.Fatal(env.Err)
			}
			last := run(a, "push", "title", "b").Revision
			args := tc.args
			switch {
			case tc.fresh:
				args = append(args, "ifRevision", last)
			case tc.stale:
				args = append(args, "ifRevision", before)
			}
			env := run(b, tc.verb, args...)
			if !env.OK() {
				if env.Err.Code != tc.want {
					t.Fatalf("error %s, want %s", env.Err.Code, tc.want)
				}
				return
			}
			v, ok := env.Data.(*noggin.View)
			if !ok {
				t.Fatalf("answer %T, want a view", env.Data)
			}
			if got := targetTitle(v); got != tc.want {
				t.Fatalf("the write's target is %q, want %q", got, tc.want)
			}
			if show := run(a, "show"); show.Revision != env.Revision {
				t.Fatalf("the answer names revision %s, the noggin is at %s", env.Revision, show.Revision)
			}
		})
	}
}

// targetTitle is the title of the view's target item.
func targetTitle(v *noggin.View) string {
	var walk func(ns []*noggin.Node) string
	walk = func(ns []*noggin.Node) string {
		for _, n := range ns {
			if n.Key == v.TargetKey {
				return n.Title
			}
			if t := walk(n.Children); t != "" {
				return t
			}
		}
		return ""
	}
	return walk(v.Items)
}

// TestNoteKeyWordOnAReplicaBehind: a note's first word "@KEY" is its path
// when the noggin has that item; through a replica a commit behind, an
// item the other replica just added still counts (the word is not taken
// as text on the active item).
func TestNoteKeyWordOnAReplicaBehind(t *testing.T) {
	dbA, dsn := newDB(t)
	eng := engine(t)
	a := &request.Runner{Engine: eng, Opener: dbA}
	b := &request.Runner{Engine: eng, Opener: openDB(t, dsn)}
	ctx := context.Background()
	if err := call(t, a, "push", "title", "a"); err != nil {
		t.Fatal(err)
	}
	if err := call(t, b, "show"); err != nil { // b knows the noggin without c
		t.Fatal(err)
	}
	added := a.RunCall(ctx, "add", map[string]any{"noggin": "team.yaml", "title": "c"}).Envelope
	if !added.OK() {
		t.Fatal(added.Err)
	}
	key := added.Data.(*noggin.View).TargetKey
	env := b.Run(ctx, &request.Request{Verb: "note", Location: request.String("team.yaml"), Positionals: []string{"@" + key, "on", "c"}}).Envelope
	if !env.OK() {
		t.Fatal(env.Err)
	}
	v := env.Data.(*noggin.View)
	if got := targetTitle(v); got != "c" {
		t.Fatalf("the note went to %q, want c", got)
	}
}
