package e2e

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/noggin-go/noggin/core/codec"
)

// TestConcurrentWritersAcrossSurfaces has CLI processes, one MCP server and
// one RPC server each add 100 items to one file at the same time, with
// random keys (no NOGGIN_KEYS=sequential). Afterwards all 300 items are
// there, the file parses, and no lock directory or temp file is left.
var concSurfaces = flag.String("conc-surfaces", "cli,mcp,rpc", "surfaces of TestConcurrentWritersAcrossSurfaces (for diagnosis)")

func TestConcurrentWritersAcrossSurfaces(t *testing.T) {
	cliBin := needBinary(t, CLI)
	mcpBin := needBinary(t, MCP)
	rpcBin := needBinary(t, RPC)
	dir, err := os.MkdirTemp(suite.tmp, "concurrency-") // fresh per run (-count)
	if err != nil {
		t.Fatal(err)
	}
	env := processEnv(false)
	env = append(env, "NOGGIN_CLOCK="+Clock)
	srv, err := StartRPCServer(rpcBin, dir, env)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	rpcs, err := NewRPCSurface(srv.Addr)
	if err != nil {
		t.Skipf("SKIPPED: %v", err)
	}
	ctx := context.Background()
	mcps, err := StartMCP(ctx, mcpBin, dir, env)
	if err != nil {
		t.Fatal(err)
	}
	defer mcps.Close()
	cli := &CLISurface{Bin: cliBin, Dir: dir, Env: env}

	const perSurface = 100
	scn := &Scenario{Name: "."}
	step := func(title string) *Step {
		st, err := ParseStep("add noggin=shared.yaml title=" + title)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	type job struct {
		sf    Surface
		title string
	}
	// Each surface gets its own workers: three concurrent CLI processes,
	// three concurrent calls on the one MCP session and on the RPC server.
	var jobs [3]chan job
	var surfaces []Surface
	for _, sf := range []Surface{cli, mcps, rpcs} {
		if strings.Contains(*concSurfaces, sf.Name()) {
			surfaces = append(surfaces, sf)
		}
	}
	for i, sf := range surfaces {
		jobs[i] = make(chan job, perSurface)
		for n := 1; n <= perSurface; n++ {
			jobs[i] <- job{sf, fmt.Sprintf("%s-%03d", sf.Name(), n)}
		}
		close(jobs[i])
	}
	start := make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failures []string
	for i := range surfaces {
		for w := 0; w < 3; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				for j := range jobs[i] {
					o := j.sf.Do(ctx, scn, step(j.title))
					if o.Err == nil {
						if code, err := envelopeExit(o.Text); err != nil || code != 0 {
							o.Err = fmt.Errorf("%s", o.Text)
						}
					}
					if o.Err != nil {
						mu.Lock()
						failures = append(failures, fmt.Sprintf("%s add %s: %v", j.sf.Name(), j.title, o.Err))
						mu.Unlock()
					}
				}
			}()
		}
	}
	close(start)
	wg.Wait()
	for _, f := range failures {
		t.Error(f)
	}

	data, err := os.ReadFile(filepath.Join(dir, "shared.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := codec.DecodeYAML(data)
	if err != nil {
		t.Fatalf("the file does not parse: %v", err)
	}
	got := map[string]int{}
	keys := map[string]bool{}
	for _, it := range doc.Items {
		got[it.Title]++
		if keys[it.Key] {
			t.Errorf("duplicate key %s", it.Key)
		}
		keys[it.Key] = true
	}
	var missing, dup []string
	for _, sf := range surfaces {
		for n := 1; n <= perSurface; n++ {
			title := fmt.Sprintf("%s-%03d", sf.Name(), n)
			switch got[title] {
			case 0:
				missing = append(missing, title)
			case 1:
			default:
				dup = append(dup, title)
			}
		}
	}
	if len(doc.Items) != len(surfaces)*perSurface || missing != nil || dup != nil {
		t.Errorf("%d items, want %d; missing %v; duplicated %v", len(doc.Items), len(surfaces)*perSurface, missing, dup)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	if strings.Join(names, " ") != "shared.yaml shared.yaml.history" {
		t.Errorf("the directory holds %v, want only shared.yaml and its history (no lock directory, no temp file)", names)
	}
	// Every write has its history entry, numbered in the order of the writes.
	hist, err := os.ReadFile(filepath.Join(dir, "shared.yaml.history"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(hist), "\n"), "\n")
	if len(lines) != len(surfaces)*perSurface {
		t.Errorf("the history has %d entries, want %d", len(lines), len(surfaces)*perSurface)
	}
	for i, l := range lines {
		if !strings.HasPrefix(l, `{"v":1,"seq":`+strconv.Itoa(i+1)+`,`) {
			t.Errorf("history line %d: %.60s", i+1, l)
			break
		}
	}
}
