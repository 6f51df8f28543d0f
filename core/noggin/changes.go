package noggin

import (
	"context"

	"github.com/noggin-go/noggin/core/jsonw"
)

// ChangesOpts are changes' options.
type ChangesOpts struct {
	// Since is the revision the caller last saw (an answer's revision).
	Since string
	// Limit caps the writes listed; 0 means DefaultChangesLimit.
	Limit int
}

// DefaultChangesLimit is how many writes changes lists unless told.
const DefaultChangesLimit = 100

// ChangesResult is the result of changes: the writes after revision Since,
// oldest first, at most the limit. Next is the revision after the last
// write listed (Since when none is), to pass as the next Since; More says
// that writes after Next are left for the next call.
type ChangesResult struct {
	Since  string
	Writes []*ChangesWrite
	Next   string
	More   bool
}

// ChangesWrite is one write of changes: the history's entry, the revision
// it made and its changes with the values they set.
type ChangesWrite struct {
	Seq                        int
	Time, Verb                 string
	Agent, Principal, Revision string
	Undoes, Redoes             int
	Changes                    []ChangeRecord
}

// ChangeRecord is one change of a write: what the history records, the
// item's path now ("" when it is gone) and the values the write set —
// the parent of an added or moved item (HasParent; "" for a root), an
// added item's done flag, a noted item's note.
type ChangeRecord struct {
	EntryChange
	Path      string
	HasParent bool
	Parent    string
	Done      bool
	Note      *Note
}

// Changes lists the writes of the noggin's history after revision
// o.Since. When the history cannot say (the revision is older than the
// kept history or unknown, or a tool that keeps no history — the
// original, an editor — wrote since), it fails with revision-unknown: the
// caller reads the view again.
func (e *Engine) Changes(ctx context.Context, s Store, o ChangesOpts) (_ *ChangesResult, err error) {
	var r reads
	defer r.check(&err) // a lazy read's item that could not be decoded (Undecoded)
	s = r.track(s)
	limit := o.Limit
	if limit <= 0 {
		limit = DefaultChangesLimit
	}
	doc, err := s.Load(ctx)
	if err != nil {
		return nil, err
	}
	cur := doc.Revision()
	res := &ChangesResult{Since: o.Since, Writes: []*ChangesWrite{}, Next: o.Since}
	if o.Since == cur {
		return res, nil
	}
	j, err := s.History(ctx)
	if err != nil {
		return nil, historyError(err)
	}
	entries, start := feedRange(j.Entries, o.Since, cur)
	if start < 0 {
		return nil, NewError(CodeRevisionUnknown, F("since", o.Since), F("revision", cur))
	}
	x := newIndex(doc)
	for i := start; i < len(entries); i++ {
		if len(res.Writes) == limit {
			res.More = true
			break
		}
		res.Writes = append(res.Writes, feedWrite(&entries[i], x))
		res.Next = entries[i].After
	}
	return res, nil
}

// feedRange returns the entries that led to revision cur, and the index of
// the first one after revision since (-1 when the history cannot tell).
// Entries after the newest that made cur were recorded by a write that
// had not replaced the noggin when it was read; they are left out. A
// revision that occurs twice (an undo returns to the same content) is
// taken at its newest occurrence. The chain from since to cur must be
// unbroken: each entry starting where the one before ended.
func feedRange(entries []Entry, since, cur string) ([]Entry, int) {
	end := -1
	for i := len(entries) - 1; i >= 0; i-- {
		if entries[i].After == cur {
			end = i
			break
		}
	}
	if end < 0 || since == "" {
		return nil, -1
	}
	entries = entries[:end+1]
	start := -1
	for i := end; i >= 0 && start < 0; i-- {
		switch {
		case entries[i].After == since:
			start = i + 1
		case entries[i].Before == since:
			start = i
		}
	}
	if start < 0 {
		return nil, -1
	}
	for i, prev := start, since; i <= end; i++ {
		if entries[i].Before != prev {
			return nil, -1
		}
		prev = entries[i].After
	}
	return entries, start
}

// feedWrite is entry e as changes lists it, its paths those of x (the
// noggin now).
func feedWrite(e *Entry, x *index) *ChangesWrite {
	w := &ChangesWrite{Seq: e.Seq, Time: e.Time, Verb: e.Verb, Agent: e.Agent, Principal: e.Principal,
		Revision: e.After, Undoes: e.Undoes, Redoes: e.Redoes, Changes: make([]ChangeRecord, 0, len(e.Changes))}
	// The ops' values, by key, taken in the order the changes name them.
	added := map[string]*Op{}
	moved := map[string][]*Op{}
	notes := map[string][]*Note{}
	for i := range e.Ops {
		op := &e.Ops[i]
		switch {
		case op.Type == OpAdd && op.Item != nil:
			added[op.Item.Key] = op
		case op.Type == OpMove:
			moved[op.Key] = append(moved[op.Key], op)
		case op.Type == OpNote && op.Note != nil:
			notes[op.Key] = append(notes[op.Key], op.Note)
		}
	}
	for _, c := range e.Changes {
		rec := ChangeRecord{EntryChange: c}
		if c.Key != "" {
			if it := x.item(c.Key); it != nil {
				rec.Path = x.path(it)
			}
		}
		switch c.Kind {
		case "added":
			if op := added[c.Key]; op != nil {
				rec.HasParent, rec.Parent, rec.Done = true, op.ParentKey, op.Item.done()
			}
		case "moved":
			if ops := moved[c.Key]; len(ops) > 0 {
				rec.HasParent, rec.Parent = true, ops[0].ParentKey
				moved[c.Key] = ops[1:]
			}
		case "noted":
			if ns := notes[c.Key]; len(ns) > 0 {
				rec.Note = ns[0]
				notes[c.Key] = ns[1:]
			}
		}
		w.Changes = append(w.Changes, rec)
	}
	return w
}

// AppendJSON writes {since, writes: [{seq, time, verb, agent, principal,
// undoes, redoes, revision, changes: [{kind, key, path, title, parentKey,
// done, note, cursor}]}], next, more}.
func (r *ChangesResult) AppendJSON(w *jsonw.Writer, depth int) {
	if r == nil {
		w.Null()
		return
	}
	o := w.OpenObject(depth)
	o.Lit(`"since": `)
	w.Str(r.Since)
	o.Lit(`"writes": `)
	a := w.OpenArray(depth + 1)
	for _, cw := range r.Writes {
		a.Elem()
		cw.appendJSON(w, depth+2)
	}
	a.Close()
	o.Lit(`"next": `)
	w.Str(r.Next)
	o.Lit(`"more": `)
	w.Bool(r.More)
	o.Close()
}

// entry is the history entry cw names, without its changes.
func (cw *ChangesWrite) entry() Entry {
	return Entry{Seq: cw.Seq, Time: cw.Time, Verb: cw.Verb, Agent: cw.Agent, Principal: cw.Principal,
		Undoes: cw.Undoes, Redoes: cw.Redoes}
}

func (cw *ChangesWrite) appendJSON(w *jsonw.Writer, depth int) {
	o := w.OpenObject(depth)
	head := cw.entry()
	head.appendHead(&o, w)
	o.Lit(`"revision": `)
	w.Str(cw.Revision)
	o.Lit(`"changes": `)
	a := w.OpenArray(depth + 1)
	for i := range cw.Changes {
		c := &cw.Changes[i]
		a.Elem()
		co := w.OpenObject(depth + 2)
		co.Lit(`"kind": `)
		w.Str(c.Kind)
		co.Lit(`"key": `)
		w.OptStr(c.Key)
		co.Lit(`"path": `)
		w.OptStr(c.Path)
		co.Lit(`"title": `)
		w.Str(c.Title)
		if c.HasParent {
			co.Lit(`"parentKey": `)
			w.OptStr(c.Parent)
		}
		if c.Done {
			co.Lit(`"done": `)
			w.Bool(true)
		}
		if c.Note != nil {
			co.Lit(`"note": `)
			w.B = appendNote(w.B, *c.Note, depth+3)
		}
		if c.Cursor != "" {
			co.Lit(`"cursor": `)
			w.Str(c.Cursor)
		}
		co.Close()
	}
	a.Close()
	o.Close()
}

// Human writes one line per write, oldest first, as log does, then where
// the list ends: "(up to date at REV)" or how to read on.
func (r *ChangesResult) Human(h *Human) {
	b := h.B
	if len(r.Writes) == 0 {
		b.WriteString("(no changes since ")
		WriteSafe(b, r.Since)
		b.WriteString(")\n")
		return
	}
	for _, cw := range r.Writes {
		e := cw.entry()
		for _, c := range cw.Changes {
			e.Changes = append(e.Changes, c.EntryChange)
		}
		e.writeLine(b)
	}
	if r.More {
		b.WriteString("(more: changes --since ")
		WriteSafe(b, r.Next)
		b.WriteString(")\n")
	} else {
		b.WriteString("(up to date at ")
		WriteSafe(b, r.Next)
		b.WriteString(")\n")
	}
}

// DecodeChanges reads changes' result.
func DecodeChanges(d any) (Result, error) {
	if d == nil {
		return (*ChangesResult)(nil), nil
	}
	r := &ChangesResult{Writes: []*ChangesWrite{}}
	for _, f := range asFields(d) {
		switch f.Name {
		case "since":
			r.Since, _ = f.Value.(string)
		case "next":
			r.Next, _ = f.Value.(string)
		case "more":
			r.More, _ = f.Value.(bool)
		case "writes":
			for _, v := range asSlice(f.Value) {
				r.Writes = append(r.Writes, toChangesWrite(v))
			}
		}
	}
	return r, nil
}

func toChangesWrite(v any) *ChangesWrite {
	cw := &ChangesWrite{Changes: []ChangeRecord{}}
	for _, f := range asFields(v) {
		s, _ := f.Value.(string)
		n, _ := f.Value.(int)
		switch f.Name {
		case "seq":
			cw.Seq = n
		case "time":
			cw.Time = s
		case "verb":
			cw.Verb = s
		case "agent":
			cw.Agent = s
		case "principal":
			cw.Principal = s
		case "undoes":
			cw.Undoes = n
		case "redoes":
			cw.Redoes = n
		case "revision":
			cw.Revision = s
		case "changes":
			for _, c := range asSlice(f.Value) {
				cw.Changes = append(cw.Changes, toChangeRecord(c))
			}
		}
	}
	return cw
}

func toChangeRecord(v any) ChangeRecord {
	var c ChangeRecord
	for _, g := range asFields(v) {
		s, _ := g.Value.(string)
		switch g.Name {
		case "kind":
			c.Kind = s
		case "key":
			c.Key = s
		case "path":
			c.Path = s
		case "title":
			c.Title = s
		case "parentKey":
			c.HasParent, c.Parent = true, s
		case "done":
			c.Done, _ = g.Value.(bool)
		case "note":
			n := toNote(g.Value)
			c.Note = &n
		case "cursor":
			c.Cursor = s
		}
	}
	return c
}
