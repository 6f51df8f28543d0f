package e2e

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/noggin-go/noggin/core/codec"
	"github.com/noggin-go/noggin/surfaces/rpc/client"
	"github.com/noggin-go/noggin/surfaces/rpc/pgstore"
	"github.com/noggin-go/noggin/surfaces/rpc/pgstore/pgtest"
)

// benchNoggin is the n-item noggin of the UI benchmarks:
// $NOGGIN_UI_NOGGINS/n{n/1000}k.yaml when set (bench's generated
// noggins, as make bench-ui and bench-web make them), else
// GenerateNoggin's.
func benchNoggin(b *testing.B, n int) []byte {
	b.Helper()
	dir := os.Getenv("NOGGIN_UI_NOGGINS")
	if dir == "" {
		return GenerateNoggin(n)
	}
	data, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("n%dk.yaml", n/1000)))
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// BenchmarkUIPaint: from navigating to /ui/NAME until the rows of a noggin
// of 1k, 10k and 100k items are painted (the page's script loaded, the
// Watch stream's first document decoded, the tree laid out), in headless
// Chromium. The noggins are $NOGGIN_UI_NOGGINS/n1k.yaml, n10k.yaml and
// n100k.yaml when set (make bench-ui: bench's generated noggins, as in
// bench-report), else GenerateNoggin's.
func BenchmarkUIPaint(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		b.Run(fmt.Sprintf("%dk", n/1000), func(b *testing.B) {
			data := benchNoggin(b, n)
			ctx, _ := browser(b, 1200, 800)
			srv, _ := uiServer(b, map[string][]byte{"big.yaml": data})
			for b.Loop() {
				tab, cancel := chromedp.NewContext(ctx)
				run(b, tab, chromedp.Navigate("http://"+srv.Addr+"/ui/big.yaml"),
					waitJS(fmt.Sprintf(`document.querySelector('.page')?.dataset.items === "%d" && document.querySelectorAll('.row:not([hidden])').length > 10`, n)))
				cancel()
			}
		})
	}
}

// BenchmarkUILiveUpdate: from the end of a CLI write (noggin add) until the
// page shows it, on a 5-item noggin (the new row painted) and a 100k-item
// one (the page's item count, set when the new tree is painted); ns/op is
// the mean, median-ms the median. make bench-ui runs it 20 times.
func BenchmarkUILiveUpdate(b *testing.B) {
	big := benchNoggin(b, 100000)
	for _, tc := range []struct {
		name  string
		data  []byte
		shown func(title string, items int) string
	}{
		{"5", []byte(fuzzFixture), func(title string, _ int) string {
			return fmt.Sprintf(`[...document.querySelectorAll('.row:not([hidden]) .title')].some(e => e.textContent === %s)`, jsString(title))
		}},
		{"100k", big, func(_ string, items int) string {
			return fmt.Sprintf(`document.querySelector('.page')?.dataset.items === "%d"`, items)
		}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			ctx, _ := browser(b, 1200, 1400)
			srv, root := uiServer(b, map[string][]byte{"work.yaml": tc.data})
			file := filepath.Join(root, "work.yaml")
			items := len(readDoc(b, file).Items)
			run(b, ctx, chromedp.Navigate("http://"+srv.Addr+"/ui/work.yaml"), waitJS(fmt.Sprintf(`document.querySelector('.page')?.dataset.items === "%d"`, items)))
			var delays []time.Duration
			for b.Loop() {
				b.StopTimer()
				items++
				title := fmt.Sprintf("written by the CLI %d", items)
				c := exec.Command(suite.bins[CLI], "--noggin", file, "add", title)
				c.Env = processEnv(true)
				if out, err := c.CombinedOutput(); err != nil {
					b.Fatalf("%v: %s", err, out)
				}
				b.StartTimer()
				start := time.Now()
				wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
				_, err := chromedp.Run(wctx, chromedp.Poll[any](tc.shown(title, items), chromedp.WithPollingMutation()))
				cancel()
				if err != nil {
					b.Fatal(err)
				}
				delays = append(delays, time.Since(start))
			}
			slices.Sort(delays)
			b.ReportMetric(float64(delays[len(delays)/2].Microseconds())/1000, "median-ms")
		})
	}
}

// BenchmarkUISmooth: the page's frames while a writer adds 50 items a
// second through the server (Call add, 4 s) on a 10k-item noggin, in
// headless Chromium: the longest gap between animation frames and the
// 95th percentile (a frame is 16.7 ms at 60 Hz), and the writes the page
// showed. make bench-ui runs it.
func BenchmarkUISmooth(b *testing.B) {
	data := benchNoggin(b, 10000)
	srv, root := uiServer(b, map[string][]byte{"work.yaml": data})
	smooth(b, srv.Addr, len(readDoc(b, filepath.Join(root, "work.yaml")).Items))
}

// BenchmarkUISmoothTeam: BenchmarkUISmooth on a 100k-item noggin of a
// team server (noggin-rpc on a throwaway durable PostgreSQL), which takes
// 50 writes a second at that size; a file store does not (a durable write
// of a 39 MB file takes about 100 ms).
func BenchmarkUISmoothTeam(b *testing.B) {
	doc, err := codec.DecodeYAML(benchNoggin(b, 100000))
	if err != nil {
		b.Fatal(err)
	}
	dsn := pgtest.Start(b, pgtest.Options{Durable: true}).NewDatabase(b, "smooth")
	db, err := pgstore.Open(context.Background(), dsn)
	if err != nil {
		b.Fatal(err)
	}
	err = db.Import(context.Background(), "work.yaml", doc, false)
	db.Close()
	if err != nil {
		b.Fatal(err)
	}
	if err := suite.buildErr[RPC]; err != nil {
		b.Fatal(err)
	}
	srv, err := StartRPCServer(suite.bins[RPC], "", append(processEnv(true), "HOME="+b.TempDir()), "--store", dsn)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(srv.Stop)
	smooth(b, srv.Addr, len(doc.Items))
}

// smooth measures the page of work.yaml (items of them) on the server at
// addr while a writer adds 50 items a second through it.
func smooth(b *testing.B, addr string, items int) {
	b.Helper()
	ctx, _ := browser(b, 1200, 1400)
	run(b, ctx, chromedp.Navigate("http://"+addr+"/ui/work.yaml"))
	if _, err := chromedp.Run(ctx, chromedp.Poll[any](fmt.Sprintf(`document.querySelector('.page')?.dataset.items === "%d" && document.querySelector('.page').dataset.loading === "false"`, items),
		chromedp.WithPollingTimeout(60*time.Second))); err != nil {
		b.Fatalf("%v: %s", err, eval[string](b, ctx, `document.querySelector('.status')?.textContent + " " + document.querySelector('.alert')?.textContent + " " + JSON.stringify(document.querySelector('.page')?.dataset)`))
	}
	c := client.New(&http.Client{Timeout: time.Minute}, "http://"+addr)
	for b.Loop() {
		// Record every frame's time until told to stop.
		eval[any](b, ctx, `window.frames_ = []; window.framing_ = true; (function f(t) { if (!window.framing_) return; window.frames_.push(t); requestAnimationFrame(f); })(performance.now()); 0`)
		const rate, seconds = 50, 4
		tick := time.NewTicker(time.Second / rate)
		for range rate * seconds {
			<-tick.C
			env, err := c.Call(context.Background(), "add", map[string]any{"noggin": "work.yaml", "title": "smooth"})
			if err != nil {
				b.Fatal(err)
			}
			if !bytes.Contains(env, []byte(`"status": "ok"`)) {
				b.Fatalf("write %d: %s", items, env)
			}
			items++
		}
		tick.Stop()
		run(b, ctx, waitJS(fmt.Sprintf(`document.querySelector('.page')?.dataset.items === "%d"`, items)))
		gaps := eval[[]float64](b, ctx, `window.framing_ = false; window.frames_.slice(1).map((t, i) => t - window.frames_[i])`)
		slices.Sort(gaps)
		if len(gaps) < 10 {
			b.Fatalf("only %d frames", len(gaps))
		}
		b.ReportMetric(gaps[len(gaps)-1], "max-frame-ms")
		b.ReportMetric(gaps[len(gaps)*95/100], "p95-frame-ms")
		b.ReportMetric(float64(len(gaps))/seconds, "frames/s")
	}
}

// BenchmarkWebOpen (make bench-web): a noggin of 1k, 10k and 100k items
// opened in headless Chromium, from navigating to /ui/NAME until its first
// rows are in the page: the bytes the page received meanwhile (every
// response body, as Chromium's network events count them: the page, its
// script and style, the token check, the Watch stream so far), the time,
// and then the median time a CLI write takes to show in the page once the
// whole noggin has arrived.
func BenchmarkWebOpen(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		b.Run(fmt.Sprintf("%dk", n/1000), func(b *testing.B) {
			data := benchNoggin(b, n)
			ctx, _ := browser(b, 1200, 800)
			srv, root := uiServer(b, map[string][]byte{"big.yaml": data})
			file := filepath.Join(root, "big.yaml")
			items := len(readDoc(b, file).Items)
			var bytes, firsts, shows []float64
			for b.Loop() {
				tab, cancel := chromedp.NewContext(ctx)
				var received atomic.Int64
				if err := chromedp.Listen(tab, func(ev any) {
					if e, ok := ev.(*network.EventDataReceived); ok {
						received.Add(e.EncodedDataLength)
					}
				}); err != nil {
					b.Fatal(err)
				}
				if _, err := chromedp.Call(tab, network.Enable, network.EnableParams{}); err != nil {
					b.Fatal(err)
				}
				start := time.Now()
				run(b, tab, chromedp.Navigate("http://"+srv.Addr+"/ui/big.yaml"))
				if _, err := chromedp.Run(tab, chromedp.Poll[any](`document.querySelectorAll('.row:not([hidden]):not(.pending)').length > 10`,
					chromedp.WithPollingMutation(), chromedp.WithPollingTimeout(60*time.Second))); err != nil {
					b.Fatal(err)
				}
				firsts = append(firsts, float64(time.Since(start).Microseconds())/1000)
				bytes = append(bytes, float64(received.Load())/1024)
				run(b, tab, waitJS(fmt.Sprintf(`document.querySelector('.page')?.dataset.loading === "false" && document.querySelector('.page').dataset.items === "%d"`, items)))
				b.StopTimer()
				items++
				c := exec.Command(suite.bins[CLI], "--noggin", file, "add", fmt.Sprintf("written by the CLI %d", items))
				c.Env = processEnv(true)
				if out, err := c.CombinedOutput(); err != nil {
					b.Fatalf("%v: %s", err, out)
				}
				t0 := time.Now()
				if _, err := chromedp.Run(tab, chromedp.Poll[any](fmt.Sprintf(`document.querySelector('.page')?.dataset.items === "%d"`, items),
					chromedp.WithPollingMutation(), chromedp.WithPollingTimeout(30*time.Second))); err != nil {
					b.Fatal(err)
				}
				shows = append(shows, float64(time.Since(t0).Microseconds())/1000)
				b.StartTimer()
				cancel()
			}
			median := func(xs []float64) float64 {
				slices.Sort(xs)
				return xs[len(xs)/2]
			}
			b.ReportMetric(median(bytes), "first-row-KiB")
			b.ReportMetric(median(firsts), "first-row-ms")
			b.ReportMetric(median(shows), "write-shows-ms")
		})
	}
}
