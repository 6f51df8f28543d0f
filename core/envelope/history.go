package envelope

import "github.com/noggin-go/noggin/core/noggin"

// The payloads of find, log, undo and redo (docs/envelope.md), pruned like
// views: done only when true, notes only when not empty, counts only when
// not zero.

// findResult writes {matches: [{key, path, title, done, notes}], total}.
func (w *writer) findResult(r *noggin.FindResult, depth int) {
	o := w.openObject(depth)
	o.lit(`"matches": `)
	a := w.openArray(depth + 1)
	for _, m := range r.Matches {
		a.elem()
		mo := w.openObject(depth + 2)
		mo.lit(`"key": `)
		w.str(m.Key)
		mo.lit(`"path": `)
		w.str(m.Path)
		mo.lit(`"title": `)
		w.str(m.Title)
		if m.Done {
			mo.lit(`"done": `)
			w.bool(true)
		}
		if len(m.Notes) > 0 {
			mo.lit(`"notes": `)
			na := w.openArray(depth + 3)
			for _, ts := range m.Notes {
				na.elem()
				if ts == "" {
					w.null()
				} else {
					w.str(ts)
				}
			}
			na.close()
		}
		mo.close()
	}
	a.close()
	o.lit(`"total": `)
	w.int(r.Total)
	o.close()
}

// logResult writes {entries: [entry…], unreadable, missing}.
func (w *writer) logResult(r *noggin.LogResult, depth int) {
	o := w.openObject(depth)
	o.lit(`"entries": `)
	a := w.openArray(depth + 1)
	for _, e := range r.Entries {
		a.elem()
		w.entry(e, depth+2)
	}
	a.close()
	if r.Unreadable != 0 {
		o.lit(`"unreadable": `)
		w.int(r.Unreadable)
	}
	if r.Missing {
		o.lit(`"missing": `)
		w.bool(true)
	}
	o.close()
}

// undoResult writes {entry, view}.
func (w *writer) undoResult(r *noggin.UndoResult, depth int) {
	o := w.openObject(depth)
	o.lit(`"entry": `)
	w.entry(r.Entry, depth+1)
	if r.View != nil {
		o.lit(`"view": `)
		w.view(r.View, depth+1)
	}
	o.close()
}

// entry writes one history entry: {seq, time, verb, undoes, redoes,
// summary, changes: [{kind, key, title}]}.
func (w *writer) entry(e *noggin.Entry, depth int) {
	if e == nil {
		w.null()
		return
	}
	o := w.openObject(depth)
	o.lit(`"seq": `)
	w.int(e.Seq)
	o.lit(`"time": `)
	w.str(e.Time)
	o.lit(`"verb": `)
	w.str(e.Verb)
	if e.Undoes != 0 {
		o.lit(`"undoes": `)
		w.int(e.Undoes)
	}
	if e.Redoes != 0 {
		o.lit(`"redoes": `)
		w.int(e.Redoes)
	}
	o.lit(`"summary": `)
	w.str(e.Summary())
	o.lit(`"changes": `)
	a := w.openArray(depth + 1)
	for _, c := range e.Changes {
		a.elem()
		co := w.openObject(depth + 2)
		co.lit(`"kind": `)
		w.str(c.Kind)
		co.lit(`"key": `)
		if c.Key == "" {
			w.null()
		} else {
			w.str(c.Key)
		}
		co.lit(`"title": `)
		w.str(c.Title)
		co.close()
	}
	a.close()
	o.close()
}
