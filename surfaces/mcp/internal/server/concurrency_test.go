package server

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/noggin-go/noggin/core/codec"
	"github.com/noggin-go/noggin/core/store"
)

// titlesIn reads a noggin file and returns its item titles, sorted.
func titlesIn(t *testing.T, file string) []string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := codec.DecodeYAML(data)
	if err != nil {
		t.Fatal(err)
	}
	var titles []string
	for _, it := range doc.Items {
		titles = append(titles, it.Title)
	}
	sort.Strings(titles)
	return titles
}

func wantTitles(prefixes []string, n int) []string {
	var w []string
	for _, p := range prefixes {
		for i := range n {
			w = append(w, fmt.Sprintf("%s%02d", p, i))
		}
	}
	sort.Strings(w)
	return w
}

// Test16ConcurrentAdds fires 16 noggin_add calls at once from one client
// (the SDK handles them concurrently): every item must be present.
func Test16ConcurrentAdds(t *testing.T) {
	dir := t.TempDir()
	file := writeFixture(t, dir, "n.yaml", "F3")
	// Sequential keys are derived from the document: a call planned on a
	// stale document would reuse a key and fail, so this also checks that
	// every write re-plans on the fresh document.
	cs := newSession(t, store.Options{})
	const n = 16
	var wg sync.WaitGroup
	errs := make(chan string, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{
				Name:      "noggin_add",
				Arguments: map[string]any{"noggin": file, "title": fmt.Sprintf("c%02d", i), "into": "/1"},
			})
			if err != nil {
				errs <- err.Error()
				return
			}
			if res.IsError {
				errs <- res.Content[0].(*mcp.TextContent).Text
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	got := titlesIn(t, file)
	want := append(wantTitles([]string{"c"}, n), "only")
	sort.Strings(want)
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("titles after 16 concurrent adds:\n%v\nwant\n%v", got, want)
	}
}

// spawn starts the built binary over stdio with the SDK's command
// transport.
func spawn(t testing.TB, dir string, env []string, args ...string) *mcp.ClientSession {
	t.Helper()
	needMCPBinary(t)
	cmd := exec.Command(mcpBin, args...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stderr = os.Stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "0"}, nil).
		Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("spawn %s: %v", mcpBin, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// TestTwoProcessesOneFile runs two server processes that add to the same
// file at the same time (each with concurrent calls): no update is lost.
func TestTwoProcessesOneFile(t *testing.T) {
	dir := t.TempDir()
	file := writeFixture(t, dir, "n.yaml", "F4")
	// Sequential keys across two processes: only re-planning under the
	// file lock keeps them unique.
	env := envList()
	servers := []*mcp.ClientSession{spawn(t, dir, env), spawn(t, dir, env)}
	const n = 12
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failures []string
	for s, cs := range servers {
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{
					Name:      "noggin_add",
					Arguments: map[string]any{"noggin": "n.yaml", "title": fmt.Sprintf("p%d-%02d", s, i)},
				})
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					failures = append(failures, err.Error())
				} else if res.IsError {
					failures = append(failures, res.Content[0].(*mcp.TextContent).Text)
				}
			}()
		}
	}
	wg.Wait()
	for _, f := range failures {
		t.Error(f)
	}
	got := titlesIn(t, file)
	want := append(wantTitles([]string{"p0-", "p1-"}, n), "a", "b")
	sort.Strings(want)
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("titles:\n%v\nwant\n%v", got, want)
	}
	// The lock directory is gone and no temp file is left behind (the
	// version the last write replaced is kept).
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() != "n.yaml" && e.Name() != "n.yaml.history" && e.Name() != "n.yaml.previous" {
			t.Errorf("left behind: %s", filepath.Join(dir, e.Name()))
		}
	}
}
