package pgstore_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/noggin-go/noggin/core/codec"
	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/request"
	"github.com/noggin-go/noggin/core/store"
	"github.com/noggin-go/noggin/surfaces/rpc/internal/app"
	"github.com/noggin-go/noggin/surfaces/rpc/pgstore"
	"github.com/noggin-go/noggin/surfaces/rpc/pgstore/pgtest"
)

var shared *pgtest.Shared

func TestMain(m *testing.M) {
	app.SetGC() // as noggin-rpc runs: the benchmarks measure the server's configuration
	shared = pgtest.StartShared(pgtest.Options{})
	code := m.Run()
	shared.Stop()
	if benchCluster.shared != nil {
		benchCluster.shared.Stop()
	}
	os.Exit(code)
}

// dbCount numbers the databases the tests create.
var dbCount int

// newDB returns a fresh database of the shared cluster and the address to
// open more replicas on it.
func newDB(t *testing.T) (*pgstore.DB, string) {
	t.Helper()
	c := shared.Need(t)
	dbCount++
	dsn := c.NewDatabase(t, fmt.Sprintf("t%d_%s", dbCount, strings.ToLower(strings.NewReplacer("/", "_", "-", "_").Replace(t.Name()))))
	return openDB(t, dsn), dsn
}

func openDB(t *testing.T, dsn string) *pgstore.DB {
	t.Helper()
	db, err := pgstore.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	return db
}

func engine(t *testing.T) *noggin.Engine {
	t.Helper()
	env := map[string]string{"NOGGIN_CLOCK": "2026-01-02T03:04:05.678Z", "NOGGIN_KEYS": "sequential"}
	e, err := noggin.EngineFromEnv(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// step is one call in the MCP tools' argument language.
type step struct {
	verb string
	args map[string]any
}

func s(verb string, kv ...any) step {
	args := map[string]any{}
	for i := 0; i < len(kv); i += 2 {
		args[kv[i].(string)] = kv[i+1]
	}
	return step{verb, args}
}

// script exercises every writing verb, undo and redo, and the failures
// that must leave the noggin alone.
var script = []step{
	s("push", "title", "root"),
	s("push", "title", "child one"),
	s("add", "title", "todo a"),
	s("add", "title", "todo b", "before", "1"),
	s("note", "text", "first note"),
	s("note", "text", "second\nnote"),
	s("push", "title", "grandchild"),
	s("pop"),
	s("edit", "path", "1", "title", "renamed todo"),
	s("move", "path", "2", "into", "/1"),
	s("move", "path", "/1/2", "before", "/1/1"),
	s("done", "path", "/1/1", "force", true),
	s("goto", "path", "/1"),
	s("add", "title", "tail", "after", "/1/1"),
	s("copy", "from", "team.yaml", "to", "other.yaml"),
	s("delete", "path", "/1/2", "recursive", true),
	s("show", "withDescendants", true),
	s("undo"),
	s("undo"),
	s("redo"),
	s("find", "query", "todo"),
	s("log", "limit", float64(30)),
	s("edit", "path", "/9", "title", "x"), // path-not-found: no write
	s("delete", "path", "/1"),             // has-descendants: no write
	s("push", "title", "\x1b[31mred\u0085\ufeff"),
	s("note", "text", "yes"),
	s("push", "title", "nul\x00inside"),
	s("note", "text", "a\x00b"),
	s("pop"),
	s("done", "closeAll", true),
	s("undo"),
	s("undo"),
	s("undo"),
	s("redo"),
	s("show", "path", "/1", "withDescendants", true),
	s("log"),
}

// TestSameAsFileStore runs the script on a file and, alternating between
// two replicas, on the database: every envelope must be byte-identical, and
// the exported noggins must equal the files byte for byte.
func TestSameAsFileStore(t *testing.T) {
	db1, dsn := newDB(t)
	db2 := openDB(t, dsn)
	dir := t.TempDir()
	eng := engine(t)
	file := &request.Runner{Engine: eng, Opener: store.NewCache(store.Options{Root: dir})}
	replicas := []*request.Runner{{Engine: eng, Opener: db1}, {Engine: eng, Opener: db2}}
	ctx := context.Background()
	var failed []string
	for i, st := range script {
		args := map[string]any{}
		if st.verb != "copy" {
			args["noggin"] = "team.yaml"
		}
		for k, v := range st.args {
			args[k] = v
		}
		wantEnv := file.RunCall(ctx, st.verb, args).Envelope
		if !wantEnv.OK() {
			failed = append(failed, fmt.Sprintf("%d:%s", i, wantEnv.Err.Code))
		}
		gotEnv := replicas[i%2].RunCall(ctx, st.verb, args).Envelope
		if wantEnv.OK() && st.verb != "copy" && (wantEnv.Revision == "" || gotEnv.Revision == "") {
			t.Fatalf("step %d %s: revisions %q (file) and %q (pg)", i, st.verb, wantEnv.Revision, gotEnv.Revision)
		}
		// The revisions name the states each its own way (a file's digest,
		// the database's token).
		wantEnv.Revision, gotEnv.Revision = "", ""
		want, got := wantEnv.Text(), gotEnv.Text()
		if string(got) != string(want) {
			t.Fatalf("step %d %s %v:\nfile: %s\npg:   %s", i, st.verb, st.args, want, got)
		}
	}
	// Only the two steps meant to fail failed.
	if got := strings.Join(failed, " "); got != "22:path-not-found 23:has-descendants" {
		t.Fatalf("failed steps: %s", got)
	}
	for _, name := range []string{"team.yaml", "other.yaml"} {
		want, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		doc, err := db2.Export(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		if got := codec.EncodeYAML(doc); string(got) != string(want) {
			t.Fatalf("%s differs:\nfile:\n%s\npg:\n%s", name, want, got)
		}
	}
}

// TestImportExport: an imported document exports to the same bytes, with
// its unknown fields, key orders, null timestamps and list order.
func TestImportExport(t *testing.T) {
	db, _ := newDB(t)
	ctx := context.Background()
	src := `# comment dropped by any rewrite
schemaVersion: 1
custom: {a: [1, 2.5, "x"], b: null}
active: k3
items:
  - title: child first
    key: k2
    parentKey: k1
    done: false
    createdAt: '2026-01-01T00:00:00.000Z'
    notes:
      - timestamp: null
        text: a note
    color: blue
  - key: k1
    parentKey: null
    title: root
    done: true
    createdAt: null
    notes: []
  - key: k3
    parentKey: k1
    title: "\e[1mbold\u0085"
    done: false
    notes:
      - timestamp: '2026-01-01T00:00:00.000Z'
        text: "line\nline"
  - key: "k\0nul"
    parentKey: k1
    title: "\0"
    done: false
    createdAt: ''
    notes:
      - timestamp: ''
        text: "\0"
`
	doc, err := codec.DecodeYAML([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := codec.EncodeYAML(doc)
	if err := db.Import(ctx, "a/b.yaml", doc, false); err != nil {
		t.Fatal(err)
	}
	if err := db.Import(ctx, "a/b.yaml", doc, false); err != pgstore.ErrExists {
		t.Fatalf("second import: %v, want ErrExists", err)
	}
	got, err := db.Export(ctx, "./a/b.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if string(codec.EncodeYAML(got)) != string(want) {
		t.Fatalf("export differs:\n%s\nwant:\n%s", codec.EncodeYAML(got), want)
	}
	if _, err := db.Export(ctx, "nothing.yaml"); err != pgstore.ErrNotFound {
		t.Fatalf("export of a missing noggin: %v", err)
	}
}

// TestList: the database's noggins by name, bytewise sorted, at most max.
func TestList(t *testing.T) {
	db, _ := newDB(t)
	ctx := context.Background()
	for _, name := range []string{"team.yaml", "B.yaml", "a/b.yaml", "émoji.yaml"} {
		if err := db.Import(ctx, name, noggin.NewDocument(), false); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		max       int
		want      []string
		truncated bool
	}{
		{10, []string{"B.yaml", "a/b.yaml", "team.yaml", "émoji.yaml"}, false},
		{4, []string{"B.yaml", "a/b.yaml", "team.yaml", "émoji.yaml"}, false},
		{2, []string{"B.yaml", "a/b.yaml"}, true},
	} {
		got, truncated, err := db.List(ctx, tc.max)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, tc.want) || truncated != tc.truncated {
			t.Errorf("List(%d) = %q, %v; want %q, %v", tc.max, got, truncated, tc.want, tc.truncated)
		}
	}
}
