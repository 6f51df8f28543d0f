package server

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/noggin-go/noggin/core/codec"
	"github.com/noggin-go/noggin/core/sampledoc"
	"github.com/noggin-go/noggin/core/store"
)

// OriginalShow2220Bytes is the original v0.9.0's noggin_show result on the
// 2,220-item noggin of the answer-size measurements (docs/mcp.md).
const OriginalShow2220Bytes = 9753

// TestAnswerSizeDefaults: by default an MCP answer stays small on the
// noggins the issue measured — a show on 2,220 items no larger than the
// original's, a write on 1,000 roots under 8 kB — and maxBytes 0 still
// gives the whole view.
func TestAnswerSizeDefaults(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, codec.EncodeYAML(sampledoc.Doc(2220, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	flat := filepath.Join(dir, "flat.yaml")
	if err := os.WriteFile(flat, codec.EncodeYAML(sampledoc.Flat(1000)), 0o644); err != nil {
		t.Fatal(err)
	}
	cs := newSession(t, store.Options{})
	cases := []struct {
		name string
		tool string
		args map[string]any
		max  int
	}{
		{"show on 2,220 items", "noggin_show", map[string]any{"noggin": big}, OriginalShow2220Bytes},
		{"add on 1,000 roots", "noggin_add", map[string]any{"noggin": flat, "title": "x", "after": "/500"}, 8000},
		{"push on 1,000 roots", "noggin_push", map[string]any{"noggin": flat, "title": "y"}, 8000},
		{"goto on 1,000 roots", "noggin_goto", map[string]any{"noggin": flat, "path": "/700"}, 8000},
	}
	for _, c := range cases {
		n := compactLen(t, cs, c.tool, c.args)
		t.Logf("%s: %d bytes", c.name, n)
		if n > c.max {
			t.Errorf("%s: %d bytes, over %d", c.name, n, c.max)
		}
	}
	t.Logf("show on 2,220 items, maxBytes 0: %d bytes; indented as --json prints it: %d bytes", compactLen(t, cs, "noggin_show", map[string]any{"noggin": big, "maxBytes": 0}),
		len(call(t, cs, "noggin_show", map[string]any{"noggin": big, "format": "json"}).Text))
	whole := compactLen(t, cs, "noggin_show", map[string]any{"noggin": flat, "maxBytes": 0, "path": "/1"})
	if whole < 100_000 {
		t.Errorf("maxBytes 0: %d bytes, want the whole row of 1,000", whole)
	}
}

// compactLen calls a tool and returns the length of its text content.
func compactLen(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) int {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, tool, res)
	if res.IsError {
		t.Fatalf("%s: error %s", tool, res.Content[0].(*mcp.TextContent).Text)
	}
	return len(res.Content[0].(*mcp.TextContent).Text)
}
