package pgstore_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/noggin-go/noggin/core/codec"
	"github.com/noggin-go/noggin/core/request"
	"github.com/noggin-go/noggin/core/sampledoc"
	"github.com/noggin-go/noggin/core/store"
	"github.com/noggin-go/noggin/surfaces/rpc/pgstore"
	"github.com/noggin-go/noggin/surfaces/rpc/pgstore/pgtest"
)

// The benchmarks run on a durable cluster (fsync and synchronous commit
// on), side by side with the file store (atomic durable rewrites), and
// report server-side latency percentiles of whole verbs (request layer,
// engine, store): p50-ms and p99-ms.

var benchCluster struct {
	once   sync.Once
	shared *pgtest.Shared
	n      int
}

// durable is the benchmarks' cluster, started on first use and stopped by
// TestMain.
func durable(b *testing.B) *pgtest.Cluster {
	b.Helper()
	benchCluster.once.Do(func() { benchCluster.shared = pgtest.StartShared(pgtest.Options{Durable: true}) })
	return benchCluster.shared.Need(b)
}

// benchDB imports an n-item noggin as team.yaml into a fresh database.
func benchDB(b *testing.B, n int) string {
	b.Helper()
	c := durable(b)
	benchCluster.n++
	dsn := c.NewDatabase(b, fmt.Sprintf("bench%d", benchCluster.n))
	db, err := pgstore.Open(context.Background(), dsn)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if err := db.Import(context.Background(), "team.yaml", sampledoc.Doc(n, 1), false); err != nil {
		b.Fatal(err)
	}
	return dsn
}

// benchFile writes an n-item noggin as team.yaml in a fresh directory.
func benchFile(b *testing.B, n int) *store.Cache {
	b.Helper()
	dir := b.TempDir()
	st, err := store.Open(context.Background(), filepath.Join(dir, "team.yaml"), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	_ = st
	if err := writeYAML(filepath.Join(dir, "team.yaml"), n); err != nil {
		b.Fatal(err)
	}
	return store.NewCache(store.Options{Root: dir})
}

func writeYAML(path string, n int) error {
	return osWriteFile(path, codec.EncodeYAML(sampledoc.Doc(n, 1)))
}

// timed runs f b.N times, each followed by the untimed after, and reports
// the percentiles of f's durations.
func timed(b *testing.B, f func(i int), after func()) {
	b.Helper()
	ds := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		t0 := time.Now()
		f(i)
		ds = append(ds, time.Since(t0))
		b.StopTimer()
		after()
		b.StartTimer()
	}
	b.StopTimer()
	slices.Sort(ds)
	b.ReportMetric(float64(ds[len(ds)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(ds[len(ds)*99/100].Microseconds())/1000, "p99-ms")
}

func mustOK(b *testing.B, r *request.Runner, verb string, args map[string]any) {
	b.Helper()
	env := r.RunCall(context.Background(), verb, args).Envelope
	if !env.OK() {
		b.Fatalf("%s: %v", verb, env.Err)
	}
}

// BenchmarkWrite: push and note on one noggin, one client, warm replica.
func BenchmarkWrite(b *testing.B) {
	for _, n := range []int{10000, 100000} {
		for _, kind := range []string{"postgres", "file"} {
			for _, verb := range []string{"push", "note"} {
				b.Run(fmt.Sprintf("items=%d/%s/%s", n, kind, verb), func(b *testing.B) {
					var opener request.Opener
					if kind == "postgres" {
						db, err := pgstore.Open(context.Background(), benchDB(b, n))
						if err != nil {
							b.Fatal(err)
						}
						defer db.Close()
						opener = db
					} else {
						opener = benchFile(b, n)
					}
					r := &request.Runner{Engine: benchEngine(), Opener: opener}
					mustOK(b, r, "show", map[string]any{"noggin": "team.yaml"}) // warm
					timed(b, func(i int) {
						args := map[string]any{"noggin": "team.yaml"}
						if verb == "push" {
							args["title"] = fmt.Sprintf("side quest %d", i)
						} else {
							args["text"] = fmt.Sprintf("a note %d", i)
						}
						mustOK(b, r, verb, args)
					}, func() {
						if verb == "push" { // back up, so the spine keeps its depth
							mustOK(b, r, "pop", map[string]any{"noggin": "team.yaml"})
						}
					})
				})
			}
		}
	}
}

// BenchmarkClients: 8 and 16 clients writing one noggin at once (adds and
// notes, each client in its own root item's subtree), through one replica
// and through two; writes/s and the percentiles of the writes' latencies.
func BenchmarkClients(b *testing.B) {
	for _, run := range []struct {
		kind           string
		clients, items int
	}{
		{"postgres-1-replica", 8, 10000}, {"postgres-2-replicas", 8, 10000}, {"postgres-2-replicas", 16, 10000},
		{"postgres-2-replicas", 16, 100000}, {"file", 8, 10000},
	} {
		kind, clients := run.kind, run.clients
		b.Run(fmt.Sprintf("%s/clients=%d/items=%d", kind, clients, run.items), func(b *testing.B) {
			var openers []request.Opener
			if kind == "file" {
				openers = []request.Opener{benchFile(b, run.items)}
			} else {
				dsn := benchDB(b, run.items)
				for range map[string]int{"postgres-1-replica": 1, "postgres-2-replicas": 2}[kind] {
					db, err := pgstore.Open(context.Background(), dsn)
					if err != nil {
						b.Fatal(err)
					}
					defer db.Close()
					openers = append(openers, db)
				}
			}
			eng := benchEngine()
			for _, o := range openers {
				mustOK(b, &request.Runner{Engine: eng, Opener: o}, "show", map[string]any{"noggin": "team.yaml"})
			}
			per := max(b.N/clients, 1)
			took := make([][]time.Duration, clients)
			b.ResetTimer()
			t0 := time.Now()
			var wg sync.WaitGroup
			for c := range clients {
				r := &request.Runner{Engine: eng, Opener: openers[c%len(openers)]}
				wg.Go(func() {
					for i := range per {
						// Each client works in its own part of the tree, as
						// agents do: adds under and notes on the root item c+1.
						own := fmt.Sprintf("/%d", c+1)
						verb, args := "add", map[string]any{"noggin": "team.yaml", "title": fmt.Sprintf("c%d-%d", c, i), "into": own}
						if i%2 == 1 {
							verb, args = "note", map[string]any{"noggin": "team.yaml", "path": own, "text": fmt.Sprintf("c%d-%d", c, i)}
						}
						w0 := time.Now()
						mustOK(b, r, verb, args)
						took[c] = append(took[c], time.Since(w0))
					}
				})
			}
			wg.Wait()
			b.ReportMetric(float64(per*clients)/time.Since(t0).Seconds(), "writes/s")
			ds := slices.Concat(took...)
			slices.Sort(ds)
			b.ReportMetric(float64(ds[len(ds)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(ds[len(ds)*99/100].Microseconds())/1000, "p99-ms")
		})
	}
}

// BenchmarkShowOtherReplica: one replica writes a note, another shows the
// noggin (it catches up on the commit it did not make); the show's latency.
func BenchmarkShowOtherReplica(b *testing.B) {
	for _, n := range []int{10000, 100000} {
		b.Run(fmt.Sprintf("items=%d", n), func(b *testing.B) {
			dsn := benchDB(b, n)
			var rs []*request.Runner
			for range 2 {
				db, err := pgstore.Open(context.Background(), dsn)
				if err != nil {
					b.Fatal(err)
				}
				defer db.Close()
				rs = append(rs, &request.Runner{Engine: benchEngine(), Opener: db})
			}
			show := map[string]any{"noggin": "team.yaml"}
			mustOK(b, rs[1], "show", show)
			ds := make([]time.Duration, 0, b.N)
			for i := 0; b.Loop(); i++ {
				b.StopTimer()
				mustOK(b, rs[0], "note", map[string]any{"noggin": "team.yaml", "text": fmt.Sprintf("n%d", i)})
				b.StartTimer()
				t0 := time.Now()
				mustOK(b, rs[1], "show", show)
				ds = append(ds, time.Since(t0))
			}
			slices.Sort(ds)
			b.ReportMetric(float64(ds[len(ds)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(ds[len(ds)*99/100].Microseconds())/1000, "p99-ms")
		})
	}
}
