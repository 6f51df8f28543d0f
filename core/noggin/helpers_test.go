package noggin

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// memStore is a tiny in-memory Store for engine tests. It counts writes
// and records the change lists of its writes.
type memStore struct {
	mu      sync.Mutex
	doc     *Document
	writes  int
	updates int
	events  [][]Change
	// lazy hands the engine every document as a lazy read leaves it
	// (lazyCopy: keys and parent keys, the rest undecoded), as a one-shot
	// store does for a noggin this build wrote; doc stays whole. lazyErr
	// is the first difference from the whole document the store saw (the
	// history entry of a write).
	lazy    bool
	lazyErr error
	decodes int
}

func newMem(doc *Document) *memStore {
	if doc == nil {
		doc = NewDocument()
	}
	return &memStore{doc: doc}
}

func (m *memStore) Load(context.Context) (*Document, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.view(), nil
}

// view is the document handed to the engine: doc, or a lazy copy of it.
func (m *memStore) view() *Document {
	if !m.lazy {
		return m.doc
	}
	return lazyCopy(m.doc, &m.decodes, nil)
}

func (m *memStore) Update(_ context.Context, w Write) (*Document, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.updates++
	plan := func(d *Document) ([]Op, error) { return w.Plan(d, NewHistory(nil, nil)) }
	ops, err := plan(m.view())
	if err != nil {
		return nil, err
	}
	if len(ops) == 0 {
		return m.view(), nil
	}
	// Re-plan on the "fresh" document, as the real stores do.
	fresh := m.view()
	ops, err = plan(fresh)
	if err != nil {
		return nil, err
	}
	next, err := Apply(fresh, ops)
	if err != nil {
		return nil, err
	}
	if m.lazy {
		// The history entry a store writes, from a lazy read and whole.
		got, err1 := NewEntry(w, nil, m.view(), ops)
		want, err2 := NewEntry(w, nil, m.doc, ops)
		if m.lazyErr == nil && (!reflect.DeepEqual(got, want) || (err1 == nil) != (err2 == nil)) {
			m.lazyErr = fmt.Errorf("history entry from a lazy read: %+v, %v; whole: %+v, %v", got, err1, want, err2)
		}
		for _, it := range next.Items {
			if err := it.Decode(); err != nil {
				return nil, err
			}
		}
	}
	if ch := Diff(m.doc, next); len(ch) > 0 {
		m.events = append(m.events, ch)
	}
	m.doc = next
	m.writes++
	return next, nil
}

func (m *memStore) Describe() string { return "memory://test" }

func (m *memStore) History(context.Context) (Journal, error) { return Journal{Missing: true}, nil }

func (m *memStore) Watch(ctx context.Context) <-chan Event {
	c := make(chan Event)
	go func() { <-ctx.Done(); close(c) }()
	return c
}

// tree builds a document from an indented outline. Each line is
// "<indent>title [key=K] [done] [active] [note=TEXT]" with two spaces per
// level; keys default to k1, k2, … in line order.
func tree(outline string) *Document {
	doc := NewDocument()
	var stack []*Item
	n := 0
	for _, line := range strings.Split(outline, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		trimmed := strings.TrimLeft(line, " ")
		depth := (len(line) - len(trimmed)) / 2
		n++
		it := &Item{Key: fmt.Sprintf("k%d", n), Notes: []Note{}}
		ts := "2026-01-01T00:00:00.000Z"
		it.CreatedAt = &ts
		var title []string
		for _, w := range strings.Fields(trimmed) {
			switch {
			case strings.HasPrefix(w, "key="):
				it.Key = w[4:]
			case w == "done":
				it.Done = true
			case w == "active":
				defer func(it *Item) { doc.Active = it.Key }(it)
			case strings.HasPrefix(w, "note="):
				it.Notes = append(it.Notes, Note{Timestamp: ts, Text: w[5:]})
			default:
				title = append(title, w)
			}
		}
		it.Title = strings.Join(title, " ")
		stack = stack[:depth]
		if depth > 0 {
			it.ParentKey = stack[depth-1].Key
		}
		stack = append(stack, it)
		doc.Items = append(doc.Items, it)
	}
	return doc
}

// The fixtures of docs/cli.md.
const (
	F1 = `
root1 active
  alpha
  beta
    beta-kid
root2`
	F2 = `
root1
  alpha
    alpha-kid
  beta active
    beta-kid
  gamma
root2`
	F3 = `only active`
	F4 = `
a
b`
	F5 = `
parent
  kid active`
)

// fixedEngine is the deterministic engine of the tests.
func fixedEngine() *Engine {
	t := time.Date(2026, 6, 16, 18, 46, 44, 71e6, time.UTC)
	return &Engine{Now: func() time.Time { return t }, Keys: SequentialKeys{}}
}

const fixedStamp = "2026-06-16T18:46:44.071Z"

// wantErr checks an error's code, exit code, message (as the CLI renders
// it with verb) and data (fields in order).
func wantErr(t *testing.T, err error, code string, exit int, msg string, data ...Field) {
	t.Helper()
	e, ok := err.(*Error)
	if !ok {
		t.Fatalf("error = %v (%T), want %s", err, err, code)
	}
	if e.Code != code || e.ExitCode != exit {
		t.Fatalf("error = %s/%d %q, want %s/%d", e.Code, e.ExitCode, e.Message, code, exit)
	}
	if msg != "" && e.MessageFor("") != msg {
		t.Errorf("message = %q, want %q", e.MessageFor(""), msg)
	}
	if len(data) == 0 {
		data = nil
	}
	if len(e.Data) == 0 {
		e.Data = nil
	}
	if !reflect.DeepEqual(e.Data, data) {
		t.Errorf("data = %v, want %v", e.Data, data)
	}
}

// titlesOf renders a document as an indented outline of titles (roots in
// sibling order), with "*" marking the active item and "✓" done items.
func titlesOf(doc *Document) string {
	x := newIndex(doc)
	var b strings.Builder
	var walk func(parent string, depth int)
	walk = func(parent string, depth int) {
		for _, it := range x.children(parent) {
			b.WriteString(strings.Repeat("  ", depth) + it.Title)
			if it.Done {
				b.WriteString(" ✓")
			}
			if it.Key == doc.Active {
				b.WriteString(" *")
			}
			b.WriteString("\n")
			walk(it.Key, depth+1)
		}
	}
	walk("", 0)
	return b.String()
}

// byTitle returns the first item with title.
func byTitle(doc *Document, title string) *Item {
	for _, it := range doc.Items {
		if it.Title == title {
			return it
		}
	}
	return nil
}

// viewOutline renders a view as lines "path title" with a "+" suffix on
// expanded nodes, indented by depth.
func viewOutline(v *View) string {
	if v == nil {
		return "<nil>"
	}
	var b strings.Builder
	b.WriteString("active=" + v.ActivePath + "\n")
	var walk func(ns []*Node, depth int)
	walk = func(ns []*Node, depth int) {
		for _, n := range ns {
			b.WriteString(strings.Repeat("  ", depth) + n.Path + " " + n.Title)
			if n.Expanded {
				b.WriteString(" +")
			}
			if n.Key == v.TargetKey {
				b.WriteString(" <")
			}
			b.WriteString("\n")
			walk(n.Children, depth+1)
		}
	}
	walk(v.Items, 0)
	return b.String()
}

func ptr[T any](v T) *T { return &v }
