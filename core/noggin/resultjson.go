package noggin

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	"github.com/noggin-go/noggin/core/jsonw"
	"github.com/noggin-go/noggin/core/jstext"
)

// The results' envelope data (docs/envelope.md), written as
// JSON.stringify(v, null, 2) writes the reference's pruned data:
// default-valued fields (done false, empty notes, zero counts, null
// keys) are left out.

// Result is what a verb answers: it writes itself as an envelope's data
// (AppendJSON) and as the text a person reads (Human); each type's
// Decode… function reads it back from an envelope. A nil pointer of a
// result type is the verb's null data.
type Result interface {
	AppendJSON(w *jsonw.Writer, depth int)
	Human(h *Human)
}

// Location is where's result: the noggin's location as the caller named it.
type Location string

// Providers is the providers verb's result: the location schemes.
type Providers []Provider

// AppendJSON writes the location string.
func (l Location) AppendJSON(w *jsonw.Writer, _ int) { w.Str(string(l)) }

// AppendJSON writes [{scheme}…].
func (ps Providers) AppendJSON(w *jsonw.Writer, depth int) {
	a := w.OpenArray(depth)
	for _, p := range ps {
		a.Elem()
		o := w.OpenObject(depth + 1)
		o.Lit(`"scheme": `)
		w.Str(p.Scheme)
		o.Close()
	}
	a.Close()
}

// AppendJSON writes a CurrentTreeView (nil = null).
func (v *View) AppendJSON(w *jsonw.Writer, depth int) { w.B = appendView(w.B, v, depth) }

// SizeHint estimates the encoded size of v (slightly over), so that a
// large view is written into one allocation.
func (v *View) SizeHint() int {
	if v == nil {
		return 0
	}
	return viewSize(v, 1)
}

func viewSize(v *View, depth int) int {
	return 128 + len(v.ActivePath) + len(v.ActiveKey) + len(v.Cursor) + len(v.TargetKey) + nodesSize(v.Items, depth+2)
}

// nodesSize estimates the bytes of the nodes of a row whose objects are
// indented at depth: every line costs its indentation plus its text.
func nodesSize(ns []*Node, depth int) int {
	ind := 2*depth + 2 // indentation of a field line (+ newline, comma)
	n := 0
	for _, c := range ns {
		if c == nil {
			n += ind + 4
			continue
		}
		// braces + key, parentKey, path, position, title, done, createdAt, notes, children
		n += 13*ind + 110 + len(c.Key) + len(c.ParentKey) + len(c.Path) + len(c.Title)
		if c.CreatedAt != nil {
			n += len(*c.CreatedAt)
		}
		for _, note := range c.Notes {
			n += 4*(ind+4) + 30 + len(note.Timestamp) + len(note.Text) + len(note.Text)/8
		}
		if len(c.Children) > 0 {
			n += nodesSize(c.Children, depth+2)
		}
	}
	return n
}

// appendView appends a CurrentTreeView, pruned: activePath and activeKey
// are omitted when null, cursor when the view is not an agent's. The view, node and note writers work on a local
// slice rather than through a pointer: storing the growing buffer through
// a pointer on every append costs a GC write barrier each time.
func appendView(b []byte, v *View, depth int) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	d := depth + 1
	b = append(b, '{')
	first := true
	if v.ActivePath != "" {
		b = jstext.AppendString(jsonw.AppendField(b, first, d, `"activePath": `), v.ActivePath)
		first = false
	}
	if v.ActiveKey != "" {
		b = jstext.AppendString(jsonw.AppendField(b, first, d, `"activeKey": `), v.ActiveKey)
		first = false
	}
	if v.Cursor != "" {
		b = jstext.AppendString(jsonw.AppendField(b, first, d, `"cursor": `), v.Cursor)
		first = false
	}
	b = jstext.AppendString(jsonw.AppendField(b, first, d, `"targetKey": `), v.TargetKey)
	if v.Window > 0 {
		b = strconv.AppendInt(jsonw.AppendField(b, false, d, `"window": `), int64(v.Window), 10)
	}
	if v.Narrowed != "" {
		b = jstext.AppendString(jsonw.AppendField(b, false, d, `"narrowed": `), v.Narrowed)
	}
	b = appendOmitted(b, d, v.OmittedBefore, v.OmittedAfter)
	b = appendNodes(jsonw.AppendField(b, false, d, `"items": `), v.Items, d)
	return append(jsonw.AppendNL(b, depth), '}')
}

// appendNodes appends a row of nodes as an array.
func appendNodes(b []byte, ns []*Node, depth int) []byte {
	if len(ns) == 0 {
		return append(b, '[', ']')
	}
	b = append(b, '[')
	for i, n := range ns {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendNode(jsonw.AppendNL(b, depth+1), n, depth+1)
	}
	return append(jsonw.AppendNL(b, depth), ']')
}

// appendNode appends one ViewNode, pruned: parentKey null, done false and
// empty notes are omitted; createdAt is omitted when absent; children is
// present iff the node is expanded.
func appendNode(b []byte, n *Node, depth int) []byte {
	if n == nil {
		return append(b, "null"...)
	}
	d := depth + 1
	b = append(b, '{')
	b = jstext.AppendString(jsonw.AppendField(b, true, d, `"key": `), n.Key)
	if n.ParentKey != "" {
		b = jstext.AppendString(jsonw.AppendField(b, false, d, `"parentKey": `), n.ParentKey)
	}
	b = jstext.AppendString(jsonw.AppendField(b, false, d, `"path": `), n.Path)
	b = strconv.AppendInt(jsonw.AppendField(b, false, d, `"position": `), int64(n.Position), 10)
	b = jstext.AppendString(jsonw.AppendField(b, false, d, `"title": `), n.Title)
	if n.Done {
		b = append(jsonw.AppendField(b, false, d, `"done": `), "true"...)
	}
	if n.CreatedAt != nil {
		b = jstext.AppendString(jsonw.AppendField(b, false, d, `"createdAt": `), *n.CreatedAt)
	}
	if len(n.Notes) > 0 {
		b = appendNotes(jsonw.AppendField(b, false, d, `"notes": `), n.Notes, d)
	}
	if n.NoteCount > 0 {
		b = strconv.AppendInt(jsonw.AppendField(b, false, d, `"noteCount": `), int64(n.NoteCount), 10)
	}
	b = appendOmitted(b, d, n.OmittedBefore, n.OmittedAfter)
	if n.Expanded {
		b = appendNodes(jsonw.AppendField(b, false, d, `"children": `), n.Children, d)
	}
	return append(jsonw.AppendNL(b, depth), '}')
}

// appendOmitted appends the counts of a row's nodes a window left out
// (each left out when 0).
func appendOmitted(b []byte, d, before, after int) []byte {
	if before > 0 {
		b = strconv.AppendInt(jsonw.AppendField(b, false, d, `"omittedBefore": `), int64(before), 10)
	}
	if after > 0 {
		b = strconv.AppendInt(jsonw.AppendField(b, false, d, `"omittedAfter": `), int64(after), 10)
	}
	return b
}

// appendNote appends one note as {timestamp, text}; an empty timestamp
// is null.
func appendNote(b []byte, n Note, depth int) []byte {
	b = append(b, '{')
	b = jsonw.AppendField(b, true, depth+1, `"timestamp": `)
	if n.Timestamp == "" {
		b = append(b, "null"...)
	} else {
		b = jstext.AppendString(b, n.Timestamp)
	}
	b = jstext.AppendString(jsonw.AppendField(b, false, depth+1, `"text": `), n.Text)
	return append(jsonw.AppendNL(b, depth), '}')
}

// appendNotes appends notes as an array of {timestamp, text}; an empty
// timestamp is null.
func appendNotes(b []byte, ns []Note, depth int) []byte {
	if len(ns) == 0 {
		return append(b, '[', ']')
	}
	b = append(b, '[')
	for i, n := range ns {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendNote(jsonw.AppendNL(b, depth+1), n, depth+1)
	}
	return append(jsonw.AppendNL(b, depth), ']')
}

// AppendJSON writes {deleted, descendantCount, view}, pruned.
func (r *DeleteResult) AppendJSON(w *jsonw.Writer, depth int) {
	if r == nil {
		w.Null()
		return
	}
	o := w.OpenObject(depth)
	o.Lit(`"deleted": `)
	d := w.OpenObject(depth + 1)
	d.Lit(`"key": `)
	w.Str(r.Deleted.Key)
	d.Lit(`"path": `)
	w.Str(r.Deleted.Path)
	d.Lit(`"title": `)
	w.Str(r.Deleted.Title)
	d.Close()
	if r.DescendantCount != 0 {
		o.Lit(`"descendantCount": `)
		w.Int(r.DescendantCount)
	}
	if r.View != nil {
		o.Lit(`"view": `)
		r.View.AppendJSON(w, depth+1)
	}
	o.Close()
}

// SizeHint estimates the encoded size of r.
func (r *DeleteResult) SizeHint() int {
	if r == nil || r.View == nil {
		return 0
	}
	return viewSize(r.View, 2)
}

// AppendJSON writes {copied, mapping} with mapping entries in copy order.
func (r *CopyResult) AppendJSON(w *jsonw.Writer, depth int) {
	if r == nil {
		w.Null()
		return
	}
	o := w.OpenObject(depth)
	o.Lit(`"copied": `)
	w.Int(r.Copied)
	o.Lit(`"mapping": `)
	m := w.OpenObject(depth + 1)
	for _, p := range jsObjectOrder(r.Mapping) {
		m.Key(p.Old)
		w.Str(p.New)
	}
	m.Close()
	if r.Narrowed != "" {
		o.Lit(`"narrowed": `)
		w.Str(r.Narrowed)
	}
	o.Close()
}

// SizeHint estimates the encoded size of r.
func (r *CopyResult) SizeHint() int {
	n := 0
	if r != nil {
		for _, p := range r.Mapping {
			n += len(p.Old) + len(p.New) + 16
		}
	}
	return n
}

// jsObjectOrder returns the mapping entries in the order a JavaScript
// object built by assigning them in order enumerates them: keys that are
// array indices ("0", "1", … up to 2^32-2) first in ascending numeric
// order, then the other keys in insertion order; a repeated key keeps its
// first position and its last value. Ordinary item keys are not indices,
// so this is the copy order.
func jsObjectOrder(ps []KeyPair) []KeyPair {
	special := false
	seen := make(map[string]bool, len(ps))
	for _, p := range ps {
		if seen[p.Old] || isArrayIndex(p.Old) {
			special = true
			break
		}
		seen[p.Old] = true
	}
	if !special {
		return ps
	}
	var idx, rest []KeyPair
	pos := make(map[string]int, len(ps))
	for _, p := range ps {
		if i, ok := pos[p.Old]; ok {
			if isArrayIndex(p.Old) {
				idx[i].New = p.New
			} else {
				rest[i].New = p.New
			}
			continue
		}
		if isArrayIndex(p.Old) {
			pos[p.Old] = len(idx)
			idx = append(idx, p)
		} else {
			pos[p.Old] = len(rest)
			rest = append(rest, p)
		}
	}
	slices.SortStableFunc(idx, func(a, b KeyPair) int {
		x, _ := strconv.ParseUint(a.Old, 10, 64)
		y, _ := strconv.ParseUint(b.Old, 10, 64)
		return cmp.Compare(x, y)
	})
	return append(idx, rest...)
}

// isArrayIndex reports whether s is a canonical array index of JavaScript.
func isArrayIndex(s string) bool {
	if s == "" || len(s) > 10 || (s[0] == '0' && len(s) > 1) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	v, _ := strconv.ParseUint(s, 10, 64)
	return v <= 4294967294
}

// AppendJSON writes {matches: [{key, path, title, done, notes}], total}.
func (r *FindResult) AppendJSON(w *jsonw.Writer, depth int) {
	if r == nil {
		w.Null()
		return
	}
	o := w.OpenObject(depth)
	o.Lit(`"matches": `)
	a := w.OpenArray(depth + 1)
	for _, m := range r.Matches {
		a.Elem()
		mo := w.OpenObject(depth + 2)
		mo.Lit(`"key": `)
		w.Str(m.Key)
		mo.Lit(`"path": `)
		w.Str(m.Path)
		mo.Lit(`"title": `)
		w.Str(m.Title)
		if m.Done {
			mo.Lit(`"done": `)
			w.Bool(true)
		}
		if len(m.Notes) > 0 {
			mo.Lit(`"notes": `)
			na := w.OpenArray(depth + 3)
			for _, ts := range m.Notes {
				na.Elem()
				w.OptStr(ts)
			}
			na.Close()
		}
		mo.Close()
	}
	a.Close()
	o.Lit(`"total": `)
	w.Int(r.Total)
	o.Close()
}

// AppendJSON writes {entries: [entry…], unreadable, missing}.
func (r *LogResult) AppendJSON(w *jsonw.Writer, depth int) {
	if r == nil {
		w.Null()
		return
	}
	o := w.OpenObject(depth)
	o.Lit(`"entries": `)
	a := w.OpenArray(depth + 1)
	for _, e := range r.Entries {
		a.Elem()
		e.appendJSON(w, depth+2)
	}
	a.Close()
	if r.Unreadable != 0 {
		o.Lit(`"unreadable": `)
		w.Int(r.Unreadable)
	}
	if r.Missing {
		o.Lit(`"missing": `)
		w.Bool(true)
	}
	o.Close()
}

// AppendJSON writes {entry, view}.
func (r *UndoResult) AppendJSON(w *jsonw.Writer, depth int) {
	if r == nil {
		w.Null()
		return
	}
	o := w.OpenObject(depth)
	o.Lit(`"entry": `)
	r.Entry.appendJSON(w, depth+1)
	if r.View != nil {
		o.Lit(`"view": `)
		r.View.AppendJSON(w, depth+1)
	}
	o.Close()
}

// appendHead writes the fields that name a write into o: seq, time, verb,
// agent, principal, undoes and redoes (the last four when set).
func (e *Entry) appendHead(o *jsonw.Object, w *jsonw.Writer) {
	o.Lit(`"seq": `)
	w.Int(e.Seq)
	o.Lit(`"time": `)
	w.Str(e.Time)
	o.Lit(`"verb": `)
	w.Str(e.Verb)
	if e.Agent != "" {
		o.Lit(`"agent": `)
		w.Str(e.Agent)
	}
	if e.Principal != "" {
		o.Lit(`"principal": `)
		w.Str(e.Principal)
	}
	if e.Undoes != 0 {
		o.Lit(`"undoes": `)
		w.Int(e.Undoes)
	}
	if e.Redoes != 0 {
		o.Lit(`"redoes": `)
		w.Int(e.Redoes)
	}
}

// appendJSON writes one history entry: {seq, time, verb, undoes, redoes,
// summary, changes: [{kind, key, title}]}.
func (e *Entry) appendJSON(w *jsonw.Writer, depth int) {
	if e == nil {
		w.Null()
		return
	}
	o := w.OpenObject(depth)
	e.appendHead(&o, w)
	o.Lit(`"summary": `)
	w.Str(e.Summary())
	o.Lit(`"changes": `)
	a := w.OpenArray(depth + 1)
	for _, c := range e.Changes {
		a.Elem()
		co := w.OpenObject(depth + 2)
		co.Lit(`"kind": `)
		w.Str(c.Kind)
		co.Lit(`"key": `)
		w.OptStr(c.Key)
		co.Lit(`"title": `)
		w.Str(c.Title)
		if c.Cursor != "" {
			co.Lit(`"cursor": `)
			w.Str(c.Cursor)
		}
		co.Close()
	}
	a.Close()
	o.Close()
}

// AppendFields writes an ordered mapping (an error's data).
func AppendFields(w *jsonw.Writer, fs []Field, depth int) {
	o := w.OpenObject(depth)
	for _, f := range fs {
		o.Key(f.Name)
		AppendValue(w, f.Value, depth+1)
	}
	o.Close()
}

// AppendValue writes a Result or a value of the JSON model (an error's
// data). Other types are written as their fmt string.
func AppendValue(w *jsonw.Writer, v any, depth int) {
	switch x := v.(type) {
	case nil:
		w.Null()
	case Result:
		x.AppendJSON(w, depth)
	case string:
		w.Str(x)
	case *string:
		if x == nil {
			w.Null()
		} else {
			w.Str(*x)
		}
	case bool:
		w.Bool(x)
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		w.B = appendInteger(w.B, x)
	case float32:
		w.Float(float64(x))
	case float64:
		w.Float(x)
	case Number:
		f, err := strconv.ParseFloat(string(x), 64)
		if err != nil {
			w.Str(string(x))
		} else {
			w.Float(f)
		}
	case Map:
		AppendFields(w, x, depth)
	case []Field:
		AppendFields(w, x, depth)
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		fs := make([]Field, len(keys))
		for i, k := range keys {
			fs[i] = Field{Name: k, Value: x[k]}
		}
		AppendFields(w, fs, depth)
	case []any:
		a := w.OpenArray(depth)
		for _, e := range x {
			a.Elem()
			AppendValue(w, e, depth+1)
		}
		a.Close()
	case []string:
		a := w.OpenArray(depth)
		for _, e := range x {
			a.Elem()
			w.Str(e)
		}
		a.Close()
	case []Note:
		w.B = appendNotes(w.B, x, depth)
	case *Node:
		w.B = appendNode(w.B, x, depth)
	case error:
		w.Str(x.Error())
	case fmt.Stringer:
		w.Str(x.String())
	default:
		w.Str(fmt.Sprint(x))
	}
}

// appendInteger appends an integer of any Go integer type.
func appendInteger(b []byte, v any) []byte {
	switch x := v.(type) {
	case int:
		return strconv.AppendInt(b, int64(x), 10)
	case int8:
		return strconv.AppendInt(b, int64(x), 10)
	case int16:
		return strconv.AppendInt(b, int64(x), 10)
	case int32:
		return strconv.AppendInt(b, int64(x), 10)
	case int64:
		return strconv.AppendInt(b, x, 10)
	case uint:
		return strconv.AppendUint(b, uint64(x), 10)
	case uint8:
		return strconv.AppendUint(b, uint64(x), 10)
	case uint16:
		return strconv.AppendUint(b, uint64(x), 10)
	case uint32:
		return strconv.AppendUint(b, uint64(x), 10)
	case uint64:
		return strconv.AppendUint(b, x, 10)
	}
	return b
}
