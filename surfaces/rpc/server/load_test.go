package server_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/noggin-go/noggin/core/codec"
	"github.com/noggin-go/noggin/core/sampledoc"

	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/surfaces/rpc/client"
)

// TestLoad: 8 concurrent clients × 250 mixed verbs on one noggin over
// loopback; every write is present afterwards. (-short: 25 verbs each;
// under the race detector, which makes the growing document's rewrites
// slow, 50 — make bench-rpc runs the full load without it.)
func TestLoad(t *testing.T) {
	const clients = 8
	perClient := 250
	if raceEnabled {
		perClient = 50
	}
	if testing.Short() {
		perClient = 25
	}
	ts := startServer(t, "")
	const loc = "load.yaml"
	ctx := context.Background()
	if _, err := ts.client(t, "connect").Push(ctx, loc, noggin.PushOpts{Title: "hub"}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	for i := 0; i < clients; i++ {
		// Alternate protocols so the mix runs over all three.
		c := ts.client(t, protocols[i%len(protocols)].name)
		wg.Add(1)
		go func(i int, c *client.Client) {
			defer wg.Done()
			for j := 0; j < perClient; j++ {
				var err error
				switch j % 5 {
				case 0:
					_, err = c.Add(ctx, loc, noggin.AddOpts{Title: fmt.Sprintf("c%d-%d", i, j), Placement: place("into", "/1")})
				case 1:
					_, err = c.Note(ctx, loc, noggin.NoteOpts{Path: "/1", Text: fmt.Sprintf("n%d-%d", i, j)})
				case 2:
					_, err = c.Show(ctx, loc, noggin.ShowOpts{Path: "/1"})
				case 3:
					_, err = c.Push(ctx, loc, noggin.PushOpts{Title: fmt.Sprintf("p%d-%d", i, j)})
				case 4:
					_, err = c.Snapshot(ctx, loc)
				}
				if err != nil {
					errs <- fmt.Errorf("client %d call %d: %w", i, j, err)
					return
				}
			}
		}(i, c)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	elapsed := time.Since(start)
	doc, err := ts.client(t, "connect").Snapshot(ctx, loc)
	if err != nil {
		t.Fatal(err)
	}
	titles := map[string]bool{}
	var hub *noggin.Item
	for _, it := range doc.Items {
		titles[it.Title] = true
		if it.Title == "hub" {
			hub = it
		}
	}
	notes := map[string]bool{}
	for _, n := range hub.Notes {
		notes[n.Text] = true
	}
	missing := 0
	for i := 0; i < clients; i++ {
		for j := 0; j < perClient; j++ {
			switch j % 5 {
			case 0:
				if !titles[fmt.Sprintf("c%d-%d", i, j)] {
					missing++
				}
			case 1:
				if !notes[fmt.Sprintf("n%d-%d", i, j)] {
					missing++
				}
			case 3:
				if !titles[fmt.Sprintf("p%d-%d", i, j)] {
					missing++
				}
			}
		}
	}
	if missing > 0 {
		t.Fatalf("%d writes lost", missing)
	}
	if want := 1 + clients*perClient*2/5; len(doc.Items) != want {
		t.Fatalf("%d items, want %d", len(doc.Items), want)
	}
	t.Logf("load: %d clients × %d mixed verbs in %v (%.0f req/s), every write present",
		clients, perClient, elapsed.Round(time.Millisecond), float64(clients*perClient)/elapsed.Seconds())
}

// BenchmarkRPC measures Show and Note over loopback (Connect protocol, 8
// concurrent clients) on generated 1k- and 10k-item noggins, reporting
// requests/s and p50/p99 latency. "show" repeats the default view of the
// active item (served from the per-document view cache after the first
// call); "showcold" asks for a different item on every call (100
// absolute paths round robin), so every call builds its view.
func BenchmarkRPC(b *testing.B) {
	for _, verb := range []string{"show", "showcold", "note"} {
		for _, n := range []int{1000, 10000} {
			b.Run(fmt.Sprintf("%s/%dk", verb, n/1000), func(b *testing.B) {
				benchVerb(b, verb, n)
			})
		}
	}
}

func benchVerb(b *testing.B, verb string, n int) {
	b.Helper()
	ts := startServer(b, "")
	name := fmt.Sprintf("gen-%d.yaml", n)
	doc := sampledoc.Doc(n, 1)
	if err := os.WriteFile(filepath.Join(ts.root, name), codec.EncodeYAML(doc), 0o644); err != nil {
		b.Fatal(err)
	}
	const clients = 8
	cs := make([]*client.Client, clients)
	for i := range cs {
		tr := &http.Transport{MaxIdleConnsPerHost: 4}
		b.Cleanup(tr.CloseIdleConnections)
		cs[i] = client.New(&http.Client{Transport: tr}, ts.url)
	}
	ctx := context.Background()
	paths := make([]string, 0, 100)
	for _, it := range doc.Items[:100] {
		paths = append(paths, noggin.PathOf(doc, it.Key))
	}
	var seq atomic.Int64
	call := func(c *client.Client) error {
		var err error
		switch verb {
		case "show":
			_, err = c.Show(ctx, name, noggin.ShowOpts{})
		case "showcold":
			// The first 100 items, round robin: more than the view cache
			// holds per noggin.
			i := int(seq.Add(1)) % len(paths)
			_, err = c.Show(ctx, name, noggin.ShowOpts{Path: paths[i]})
		default:
			_, err = c.Note(ctx, name, noggin.NoteOpts{Text: "bench"})
		}
		return err
	}
	// Warm up: open the noggin, establish connections.
	for _, c := range cs {
		if err := call(c); err != nil {
			b.Fatal(err)
		}
	}
	lat := make([][]time.Duration, clients)
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < clients; i++ {
		count := b.N / clients
		if i < b.N%clients {
			count++
		}
		wg.Add(1)
		go func(i, count int) {
			defer wg.Done()
			for k := 0; k < count; k++ {
				t0 := time.Now()
				if err := call(cs[i]); err != nil {
					b.Error(err)
					return
				}
				lat[i] = append(lat[i], time.Since(t0))
			}
		}(i, count)
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	if len(all) == 0 {
		return
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	pct := func(p float64) float64 {
		return float64(all[int(p*float64(len(all)-1))].Microseconds()) / 1000
	}
	b.ReportMetric(float64(len(all))/elapsed.Seconds(), "req/s")
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
}
