package server

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/noggin-go/noggin/core/store"
)

// FuzzCall feeds arbitrary arguments to every tool on a real noggin file:
// the result is always one valid envelope and never an internal error.
func FuzzCall(f *testing.F) {
	for _, c := range callCases {
		if c.fixture == "F1" && c.setup == nil && c.opts == nil {
			f.Add(c.tool, c.args)
		}
	}
	f.Add("noggin_edit", `{"noggin": "$N", "state": ["done"], "title": {"x": 1}, "goto": [], "path": 1e300}`)
	f.Add("noggin_add", `{"noggin": "$N", "title": "\u0000", "into": true, "goto": 0.5}`)
	dir := f.TempDir()
	file := writeFixture(f, dir, "n.yaml", "F1")
	h := NewHandler(Config{Engine: testEngine(f), Store: store.Options{Root: dir}})
	f.Fuzz(func(t *testing.T, tool, args string) {
		args = strings.ReplaceAll(args, "$N", jsonInner(file))
		args = strings.ReplaceAll(args, "$D", jsonInner(dir))
		env := h.Call(context.Background(), tool, json.RawMessage(args))
		text := env.Text()
		var v struct {
			Status string `json:"status"`
		}
		if err := json.Unmarshal(text, &v); err != nil {
			t.Fatalf("invalid envelope: %v\n%s", err, text)
		}
		if (v.Status == "ok") != env.OK() {
			t.Fatalf("status %q vs OK %v", v.Status, env.OK())
		}
		if strings.Contains(env.Message(), "internal error: ") {
			t.Fatalf("%s %s: %s", tool, args, env.Message())
		}
	})
}
