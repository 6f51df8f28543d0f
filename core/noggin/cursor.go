package noggin

import (
	"context"
	"slices"
	"strings"
)

// Agents' cursors (docs/file-format.md, "Cursors"): a noggin may hold a
// top-level mapping `cursors: {AGENT: KEY}` beside the shared `active`.
// The original keeps it as an unknown field; noggin for Go reads it as
// each agent's own active item. An agent without an entry starts at the
// shared active item; an entry of null is no active item.

// CursorsField is the top-level field that holds the cursors.
const CursorsField = "cursors"

// MaxAgent is the longest agent name, in bytes.
const MaxAgent = 64

// Cursor is one agent's cursor: Key "" is null (no active item).
type Cursor struct {
	Agent string
	Key   string
}

// ValidAgent reports whether name may name an agent: 1 to MaxAgent
// letters, digits and ".-_", starting with a letter or digit (a plain
// YAML key that the original writes back as it is).
func ValidAgent(name string) bool {
	if name == "" || len(name) > MaxAgent {
		return false
	}
	for i, c := range []byte(name) {
		alnum := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
		if !alnum && (i == 0 || c != '.' && c != '-' && c != '_') {
			return false
		}
	}
	return true
}

// cursorMap is the cursors mapping of doc, nil when it has none (or holds
// something else there: a field of another tool, left as it is).
func cursorMap(doc *Document) Map {
	for _, f := range doc.Extra {
		if f.Name == CursorsField {
			m, _ := f.Value.(Map)
			return m
		}
	}
	return nil
}

// Cursors lists the noggin's cursors in the order the file holds them;
// an entry whose value is not a key or null is left out.
func (doc *Document) Cursors() []Cursor {
	var out []Cursor
	for _, f := range cursorMap(doc) {
		switch v := f.Value.(type) {
		case string:
			out = append(out, Cursor{Agent: f.Name, Key: v})
		case nil:
			out = append(out, Cursor{Agent: f.Name})
		}
	}
	return out
}

// cursorOf is agent's cursor key and whether it has one.
func cursorOf(doc *Document, agent string) (string, bool) {
	for _, c := range doc.Cursors() {
		if c.Agent == agent {
			return c.Key, true
		}
	}
	return "", false
}

// Viewer is the agent whose cursor doc's Active is ("" for the shared
// active item).
func (doc *Document) Viewer() string { return doc.viewer }

// Seen returns doc as agent sees it: Active is the agent's cursor (the
// shared active item while it has none). doc itself for no agent.
func Seen(doc *Document, agent string) *Document {
	if doc == nil || agent == "" {
		return doc
	}
	active := doc.Active
	if k, ok := cursorOf(doc, agent); ok {
		active = k
	}
	return &Document{Active: active, Items: doc.Items, Order: doc.Order, Extra: doc.Extra,
		undecodable: doc.undecodable, viewer: agent, base: doc}
}

// activate is the op that makes key the active item of doc's viewer: the
// shared active item, or the agent's cursor.
func activate(doc *Document, key string) Op {
	if doc.viewer != "" {
		return Op{Type: OpCursor, Cursor: doc.viewer, Key: key}
	}
	return Op{Type: OpSetActive, Key: key}
}

// setCursor applies a cursor op to a copy of the document's extra fields.
func (a *applier) setCursor(op *Op) error {
	if !ValidAgent(op.Cursor) {
		return invalidOp("invalid cursor agent", F("agent", op.Cursor))
	}
	var value any
	if op.Key != "" {
		value = op.Key
	}
	extra := slices.Clone(a.doc.Extra)
	at := slices.IndexFunc(extra, func(f Field) bool { return f.Name == CursorsField })
	var m Map
	if at >= 0 {
		m, _ = extra[at].Value.(Map) // a value of another tool is replaced
	}
	m = slices.Clone(m)
	i := slices.IndexFunc(m, func(f Field) bool { return f.Name == op.Cursor })
	switch {
	case op.Unset && i >= 0:
		m = slices.Delete(m, i, i+1)
	case op.Unset:
	case i >= 0:
		m[i].Value = value
	default:
		m = append(m, Field{Name: op.Cursor, Value: value})
	}
	switch {
	case len(m) == 0 && at >= 0:
		extra = slices.Delete(extra, at, at+1) // the last one forgotten: as before the first
	case len(m) == 0:
	case at >= 0:
		extra[at].Value = m
	default:
		extra = append(extra, Field{Name: CursorsField, Value: m})
	}
	if len(extra) == 0 {
		extra = nil
	}
	a.doc.Extra = extra
	return nil
}

// cursorsInto are the ops that move every other pointer into the removed
// items (keys) to parent, as a delete moves the viewer's: the shared
// active item when an agent deletes, and the other agents' cursors.
func cursorsInto(doc *Document, removed map[string]bool, parent string) []Op {
	var ops []Op
	if doc.viewer != "" && removed[doc.base.Active] {
		ops = append(ops, Op{Type: OpSetActive, Key: parent})
	}
	for _, c := range doc.Cursors() {
		// A name noggin could not have written (another tool's) is left
		// as it is: a cursor op refuses it.
		if c.Agent != doc.viewer && removed[c.Key] && ValidAgent(c.Agent) {
			ops = append(ops, Op{Type: OpCursor, Cursor: c.Agent, Key: parent})
		}
	}
	return ops
}

// Through returns s as agent uses it: every document it reads is Seen by
// agent, and every write it makes is recorded as agent's. s itself for
// no agent.
func Through(s Store, agent string) Store {
	if agent == "" {
		return s
	}
	return cursorStore{Store: s, agent: agent}
}

// Signed returns s whose writes are recorded as made by principal, who a
// server authenticated the caller as (its history shows it beside the
// agent). s itself for "".
func Signed(s Store, principal string) Store {
	if principal == "" {
		return s
	}
	return signedStore{Store: s, principal: principal}
}

type signedStore struct {
	Store
	principal string
}

func (s signedStore) Update(ctx context.Context, w Write) (*Document, error) {
	w.Principal = s.principal
	return s.Store.Update(ctx, w)
}

type cursorStore struct {
	Store
	agent string
}

func (c cursorStore) Load(ctx context.Context) (*Document, error) {
	doc, err := c.Store.Load(ctx)
	return Seen(doc, c.agent), err
}

func (c cursorStore) Update(ctx context.Context, w Write) (*Document, error) {
	plan := w.Plan
	w.Plan = func(d *Document, h *History) ([]Op, error) { return plan(Seen(d, c.agent), h) }
	w.Agent = c.agent
	doc, err := c.Store.Update(ctx, w)
	return Seen(doc, c.agent), err
}

func (c cursorStore) Watch(ctx context.Context) <-chan Event {
	in := c.Store.Watch(ctx)
	out := make(chan Event)
	go func() {
		defer close(out)
		for ev := range in {
			ev.Doc = Seen(ev.Doc, c.agent)
			select {
			case out <- ev:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}

// AgentName is the agent name of an MCP connection that names none: the
// client's name (its clientInfo.name) in lower case, each run of other
// characters than letters and digits one "-", at most 40 bytes ("agent"
// when nothing is left), then "-" and id, a short id of the connection.
func AgentName(client, id string) string {
	var b []byte
	dash := false
	for _, c := range []byte(client) {
		switch {
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		case 'a' <= c && c <= 'z' || '0' <= c && c <= '9':
		default:
			dash = len(b) > 0
			continue
		}
		if dash {
			b = append(b, '-')
			dash = false
		}
		if len(b) >= 40 {
			break
		}
		b = append(b, c)
	}
	name := strings.TrimRight(string(b), "-")
	if name == "" {
		name = "agent"
	}
	return name + "-" + id
}
