package server

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// fixItem is one item of a fixture: key, parent key ("" = root), title, done.
type fixItem struct {
	key, parent, title string
	done               bool
}

// fixture is a starting state of docs/cli.md.
type fixture struct {
	active string
	items  []fixItem
	raw    string // if set, the file's exact content instead
}

const fixCreated = "2026-12-01T09:00:00.000Z"

var fixtures = map[string]fixture{
	// F0: missing file.
	"F0": {},
	"F1": {active: "r1", items: []fixItem{
		{"r1", "", "root1", false},
		{"al", "r1", "alpha", false},
		{"be", "r1", "beta", false},
		{"bk", "be", "beta-kid", false},
		{"r2", "", "root2", false},
	}},
	"F3": {active: "on", items: []fixItem{{"on", "", "only", false}}},
	"F4": {items: []fixItem{{"a", "", "a", false}, {"b", "", "b", false}}},
	"F5": {active: "kid", items: []fixItem{{"par", "", "parent", false}, {"kid", "par", "kid", false}}},
	// Invalid and unsupported documents.
	"BAD":    {raw: "schemaVersion: 1\nactive: null\nitems: [\n"},
	"SCHEMA": {raw: "schemaVersion: 2\nactive: null\nitems: []\n"},
	// A note without text (invalid-note on read).
	"NOTE": {raw: "schemaVersion: 1\nactive: null\nitems:\n  - key: k1\n    parentKey: null\n    title: t\n    done: false\n    notes:\n      - timestamp: null\n"},
	// A dangling parentKey: readable, but no write validates.
	"DANGLING": {raw: "schemaVersion: 1\nactive: null\nitems:\n  - key: k1\n    parentKey: ghost\n    title: orphan\n    done: false\n    notes: []\n"},
}

// writeFixture writes fixture name to dir/file (nothing for F0) and
// returns the absolute path.
func writeFixture(t testing.TB, dir, file, name string) string {
	t.Helper()
	f, ok := fixtures[name]
	if !ok {
		t.Fatalf("unknown fixture %s", name)
	}
	p := filepath.Join(dir, file)
	if name == "F0" {
		return p
	}
	data := []byte(f.raw)
	if f.raw == "" {
		data = fixtureJSON(f)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// fixtureJSON renders a fixture as a JSON document (valid YAML too).
func fixtureJSON(f fixture) []byte {
	type item struct {
		Key       string   `json:"key"`
		ParentKey *string  `json:"parentKey"`
		Title     string   `json:"title"`
		Done      bool     `json:"done"`
		CreatedAt string   `json:"createdAt"`
		Notes     []string `json:"notes"`
	}
	doc := struct {
		SchemaVersion int     `json:"schemaVersion"`
		Active        *string `json:"active"`
		Items         []item  `json:"items"`
	}{SchemaVersion: 1, Items: []item{}}
	if f.active != "" {
		doc.Active = &f.active
	}
	for _, it := range f.items {
		i := item{Key: it.key, Title: it.title, Done: it.done, CreatedAt: fixCreated, Notes: []string{}}
		if it.parent != "" {
			p := it.parent
			i.ParentKey = &p
		}
		doc.Items = append(doc.Items, i)
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		panic(err)
	}
	return append(b, '\n')
}
