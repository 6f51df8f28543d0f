package server_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/noggin-go/noggin/core/noggin"
)

// TestLoneSurrogateNoggin: a noggin the original wrote with lone
// surrogates ("\uD800") is served on every protocol: typed messages show
// U+FFFD (protobuf strings are UTF-8), the envelope of Call "\ud800".
func TestLoneSurrogateNoggin(t *testing.T) {
	ts := startServer(t, "")
	doc := "schemaVersion: 1\nactive: k\nitems:\n  - key: k\n    parentKey: null\n    title: \"a\\uD800b\"\n    done: false\n    notes:\n      - timestamp: null\n        text: \"\\uDFFF\"\n"
	if err := os.WriteFile(filepath.Join(ts.root, "s.yaml"), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range protocols {
		c := ts.client(t, p.name)
		v, err := c.Show(context.Background(), "s.yaml", noggin.ShowOpts{})
		if err != nil {
			t.Fatalf("%s: Show: %v", p.name, err)
		}
		if got := v.Items[0].Title; got != "a\ufffdb" {
			t.Errorf("%s: typed title %q", p.name, got)
		}
		env, err := c.Call(context.Background(), "show", map[string]any{"noggin": "s.yaml", "withNotes": true})
		if err != nil || !bytes.Contains(env, []byte(`"title": "a\ud800b"`)) || !bytes.Contains(env, []byte(`"text": "\udfff"`)) {
			t.Errorf("%s: Call: %v %s", p.name, err, env)
		}
	}
	// A write through RPC leaves the surrogates as the original wrote them.
	if _, err := ts.client(t, "connect").Note(context.Background(), "s.yaml", noggin.NoteOpts{Text: "more"}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(ts.root, "s.yaml"))
	if !strings.Contains(string(b), `title: "a\uD800b"`) || !strings.Contains(string(b), `text: "\uDFFF"`) {
		t.Errorf("file after a write:\n%s", b)
	}
}

// TestCallArgumentTypes: Call checks arguments against their declared
// types (in core), as MCP does: no silent conversion.
func TestCallArgumentTypes(t *testing.T) {
	ts := startServer(t, "")
	c := ts.client(t, "connect")
	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"noggin": "t.yaml", "title": 42}, `"message": "push: argument 'title' must be a string, not integer"`},
		{map[string]any{"noggin": "t.yaml", "title": []any{"a", "b"}}, `"message": "push: argument 'title' must be a string, not array"`},
		{map[string]any{"noggin": "t.yaml", "title": map[string]any{"x": 1}}, `"message": "push: argument 'title' must be a string, not object"`},
	} {
		env, err := c.Call(context.Background(), "push", tc.args)
		if err != nil || !bytes.Contains(env, []byte(tc.want)) || !bytes.Contains(env, []byte(`"code": "invalid-argument"`)) {
			t.Errorf("%v: %v %s", tc.args, err, env)
		}
	}
	if _, err := os.Stat(filepath.Join(ts.root, "t.yaml")); err == nil {
		t.Error("a wrong-typed call wrote")
	}
	env, err := c.Call(context.Background(), "show", map[string]any{"noggin": "t.yaml", "withAll": "yes"})
	if err != nil || !bytes.Contains(env, []byte(`argument 'withAll' must be a boolean, not string`)) {
		t.Errorf("withAll yes: %v %s", err, env)
	}
}
