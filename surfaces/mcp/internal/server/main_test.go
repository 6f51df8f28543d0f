package server

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/store"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// Determinism seam shared by every test (and the spawned binaries).
const testClock = "2026-12-02T12:00:00.000Z"

var testEnv = map[string]string{"NOGGIN_CLOCK": testClock, "NOGGIN_KEYS": "sequential"}

func testGetenv(k string) string { return testEnv[k] }

// envList is the environment of spawned binaries.
func envList() []string {
	env := os.Environ()
	for k, v := range testEnv {
		env = append(env, k+"="+v)
	}
	return append(env, "NOGGIN=") // never fall back to a user noggin
}

// binDir holds the binaries built by TestMain.
var (
	binDir      string
	mcpBin      string
	mcpBuildErr error
)

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "noggin-mcp-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	exe := ""
	if runtime.GOOS == "windows" {
		exe = ".exe"
	}
	mcpBin = filepath.Join(dir, "noggin-mcp"+exe)
	mcpBuildErr = goBuild(mcpBin, "../../cmd/noggin-mcp", ".")
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func goBuild(out, pkg, dir string) error {
	if _, err := os.Stat(filepath.Join(dir, pkg)); err != nil {
		return err
	}
	cmd := exec.Command("go", "build", "-o", out, pkg)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build %s: %w\n%s", pkg, err, stderr.String())
	}
	return nil
}

func needMCPBinary(t testing.TB) {
	t.Helper()
	if mcpBuildErr != nil {
		t.Fatalf("noggin-mcp did not build: %v", mcpBuildErr)
	}
}

// testEngine is the deterministic engine of the in-process tests.
func testEngine(t testing.TB) *noggin.Engine {
	t.Helper()
	eng, err := noggin.EngineFromEnv(testGetenv)
	if err != nil {
		t.Fatal(err)
	}
	return eng
}

// connect serves h on an in-memory transport and returns a connected client.
func connect(t testing.TB, h *Handler) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := h.Server().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

// newSession is connect on a fresh handler with the test engine.
func newSession(t testing.TB, o store.Options) *mcp.ClientSession {
	t.Helper()
	return connect(t, NewHandler(Config{Engine: testEngine(t), Store: o}))
}

// callResult is one checked tool result; Text is its envelope indented.
type callResult struct {
	Text    string
	IsError bool
}

// call runs a tool and checks the result's shape: exactly one text content,
// no structured content, isError iff status is error.
func call(t testing.TB, cs *mcp.ClientSession, tool string, args any) callResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: CallTool: %v", tool, err)
	}
	return checkResult(t, tool, res)
}

func checkResult(t testing.TB, tool string, res *mcp.CallToolResult) callResult {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("%s: %d content items, want 1", tool, len(res.Content))
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("%s: content is %T, want text", tool, res.Content[0])
	}
	var env struct {
		Status string `json:"status"`
	}
	if err := json.Unmarshal([]byte(tc.Text), &env); err != nil {
		t.Fatalf("%s: text is not JSON: %v\n%s", tool, err, tc.Text)
	}
	if strings.HasSuffix(tc.Text, "\n") {
		t.Errorf("%s: text ends in a newline", tool)
	}
	if (env.Status == "error") != res.IsError {
		t.Errorf("%s: isError=%v with status %q", tool, res.IsError, env.Status)
	}
	// The envelope once: compact JSON, no structured content.
	if res.StructuredContent != nil {
		t.Errorf("%s: structured content %v beside the text", tool, res.StructuredContent)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, []byte(tc.Text)); err != nil || compact.String() != tc.Text {
		t.Errorf("%s: text is not compact JSON:\n%s", tool, tc.Text)
	}
	// Text is the canonical (indented) envelope the compact text stands
	// for: it indents back to core's bytes (the goldens).
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, []byte(tc.Text), "", "  "); err != nil {
		t.Fatal(err)
	}
	return callResult{Text: pretty.String(), IsError: res.IsError}
}

// golden compares got with testdata/<name>, rewriting it with -update.
func golden(t testing.TB, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}
