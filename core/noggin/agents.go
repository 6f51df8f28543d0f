package noggin

import (
	"context"
	"strings"

	"github.com/noggin-go/noggin/core/jsonw"
)

// AgentsOpts are agents' options: Forget names a cursor to drop first.
type AgentsOpts struct{ Forget string }

// AgentCursor is one agent's cursor as agents lists it. Key is "" for a
// cursor of null; Path and Title are "" when no item has Key (null, or an
// item another tool removed).
type AgentCursor struct {
	Agent, Key, Path, Title string
}

// AgentsResult is agents' result: the cursors in the file's order, after
// dropping Forgotten ("" for none).
type AgentsResult struct {
	Forgotten string
	Agents    []AgentCursor
}

// AgentLocation is where's result for an agent: the location and the
// agent's name.
type AgentLocation struct{ Location, Agent string }

// Agents lists the agents' cursors; with o.Forget it first drops that
// agent's cursor (unknown-agent when it has none), a write undo takes back.
func (e *Engine) Agents(ctx context.Context, s Store, o AgentsOpts) (_ *AgentsResult, err error) {
	var r reads
	defer r.check(&err) // a lazy read's item that could not be decoded (Undecoded)
	s = r.track(s)
	var doc *Document
	if o.Forget != "" {
		doc, err = s.Update(ctx, write("agents", Stamp(e.now()), func(d *Document) ([]Op, error) {
			if _, ok := cursorOf(d, o.Forget); !ok {
				return nil, NewError(CodeUnknownAgent, F("agent", o.Forget))
			}
			return []Op{{Type: OpCursor, Cursor: o.Forget, Unset: true}}, nil
		}))
	} else {
		doc, err = s.Load(ctx)
	}
	if err != nil {
		return nil, err
	}
	res := &AgentsResult{Forgotten: o.Forget, Agents: []AgentCursor{}}
	x := newIndex(doc)
	for _, c := range doc.Cursors() {
		ac := AgentCursor{Agent: c.Agent, Key: c.Key}
		if it := x.item(c.Key); c.Key != "" && it != nil {
			ac.Path, ac.Title = x.path(it), it.title()
		}
		res.Agents = append(res.Agents, ac)
	}
	return res, nil
}

// AppendJSON writes {forgotten?, agents: [{agent, key, path, title}]},
// null for a key, path or title there is none of.
func (r *AgentsResult) AppendJSON(w *jsonw.Writer, depth int) {
	o := w.OpenObject(depth)
	if r.Forgotten != "" {
		o.Lit(`"forgotten": `)
		w.Str(r.Forgotten)
	}
	o.Lit(`"agents": `)
	a := w.OpenArray(depth + 1)
	for _, c := range r.Agents {
		a.Elem()
		e := w.OpenObject(depth + 2)
		e.Lit(`"agent": `)
		w.Str(c.Agent)
		e.Lit(`"key": `)
		w.OptStr(c.Key)
		e.Lit(`"path": `)
		w.OptStr(c.Path)
		e.Lit(`"title": `)
		if c.Path == "" {
			w.Null()
		} else {
			w.Str(c.Title)
		}
		e.Close()
	}
	a.Close()
	o.Close()
}

// Human writes "forgot NAME" when one was dropped, then one line per
// cursor ("NAME /1/2 title", "NAME (no active item)"); "(no agents)" when
// there are none.
func (r *AgentsResult) Human(h *Human) {
	b := h.B
	if r.Forgotten != "" {
		b.WriteString("forgot ")
		WriteSafe(b, r.Forgotten)
		b.WriteByte('\n')
	}
	if len(r.Agents) == 0 {
		b.WriteString("(no agents)\n")
		return
	}
	w := 0
	for _, c := range r.Agents {
		w = max(w, len(c.Agent))
	}
	for _, c := range r.Agents {
		WriteSafe(b, c.Agent)
		b.WriteString(strings.Repeat(" ", w-len(c.Agent)+2))
		switch {
		case c.Path != "":
			WriteSafe(b, c.Path)
			b.WriteByte(' ')
			WriteSafe(b, c.Title)
		case c.Key != "":
			b.WriteString("(item ")
			WriteSafe(b, c.Key) // the file's text: it may hold escapes
			b.WriteString(" is gone)")
		default:
			b.WriteString(noActiveLine)
		}
		b.WriteByte('\n')
	}
}

// AppendJSON writes {location, agent}.
func (l AgentLocation) AppendJSON(w *jsonw.Writer, depth int) {
	o := w.OpenObject(depth)
	o.Lit(`"location": `)
	w.Str(l.Location)
	o.Lit(`"agent": `)
	w.Str(l.Agent)
	o.Close()
}

// Human writes the location and, below it, the agent.
func (l AgentLocation) Human(h *Human) {
	WriteSafe(h.B, l.Location)
	h.B.WriteString("\nagent ")
	WriteSafe(h.B, l.Agent)
	h.B.WriteByte('\n')
}

// DecodeAgents reads agents' result.
func DecodeAgents(d any) (Result, error) {
	r := &AgentsResult{Agents: []AgentCursor{}}
	for _, f := range asFields(d) {
		switch f.Name {
		case "forgotten":
			r.Forgotten, _ = f.Value.(string)
		case "agents":
			for _, e := range asSlice(f.Value) {
				var c AgentCursor
				for _, g := range asFields(e) {
					s, _ := g.Value.(string)
					switch g.Name {
					case "agent":
						c.Agent = s
					case "key":
						c.Key = s
					case "path":
						c.Path = s
					case "title":
						c.Title = s
					}
				}
				r.Agents = append(r.Agents, c)
			}
		}
	}
	return r, nil
}
