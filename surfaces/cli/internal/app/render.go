package app

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/noggin-go/noggin/core/noggin"
)

// Markers of the human tree lines (docs/cli.md).
const (
	markActive = "\U0001F4CD"    // 📍
	markDone   = "\u2705"        // ✅
	markNotes  = " \u270F\uFE0F" // space, ✏️
)

// Human output lines that are not tree lines.
const (
	noItemLine       = "(no item)"
	noTargetLine     = "(no active item; pass a path)"
	treeEmptyLine    = "(tree is now empty)"
	noActiveLine     = "(no active item)"
	noProvidersLine  = "(no providers registered)"
	notesHeader      = "notes:"
	notesNoneHeader  = "notes: (none)"
	noTimestampLabel = "(no timestamp)"
)

// RenderView appends the tree lines of v (and, with withNotes, the notes
// block of its target) to b. A nil view or one without items renders as
// "(no item)".
func RenderView(b *bytes.Buffer, v *noggin.View, withNotes bool) {
	if v == nil || len(v.Items) == 0 {
		b.WriteString(noItemLine + "\n")
		return
	}
	r := renderer{b: b, v: v, withNotes: withNotes}
	for _, n := range v.Items {
		r.node(n, 0)
	}
}

type renderer struct {
	b         *bytes.Buffer
	v         *noggin.View
	withNotes bool
}

func (r *renderer) node(n *noggin.Node, depth int) {
	b := r.b
	indent(b, depth)
	if n.Path == "" {
		b.WriteByte('?')
	} else {
		b.WriteString(n.Path)
	}
	b.WriteByte(' ')
	active := r.v.ActiveKey != "" && n.Key == r.v.ActiveKey
	if active {
		b.WriteString(markActive)
	}
	if n.Done {
		b.WriteString(markDone)
	}
	if active || n.Done {
		b.WriteByte(' ')
	}
	writeSafe(b, n.Title)
	if len(n.Notes) > 0 {
		b.WriteString(markNotes)
	}
	b.WriteByte('\n')
	for _, c := range n.Children {
		r.node(c, depth+1)
	}
	if r.withNotes && n.Key == r.v.TargetKey {
		r.notes(n, depth)
	}
}

func (r *renderer) notes(n *noggin.Node, depth int) {
	b := r.b
	indent(b, depth+1)
	if len(n.Notes) == 0 {
		b.WriteString(notesNoneHeader + "\n")
		return
	}
	b.WriteString(notesHeader + "\n")
	for _, note := range n.Notes {
		indent(b, depth+2)
		b.WriteString("- ")
		if note.Timestamp == "" {
			b.WriteString(noTimestampLabel)
		} else {
			writeSafe(b, note.Timestamp)
		}
		b.WriteByte('\n')
		// Each line of a note is its own indented line under the note.
		for _, line := range strings.Split(note.Text, "\n") {
			indent(b, depth+3)
			writeSafe(b, line)
			b.WriteByte('\n')
		}
	}
}

func indent(b *bytes.Buffer, depth int) {
	for range depth {
		b.WriteString("  ")
	}
}

// RenderShow appends the human output of show: the tree lines, or
// "(no active item; pass a path)" when there is no target.
func RenderShow(b *bytes.Buffer, v *noggin.View, withNotes bool) {
	if v == nil {
		b.WriteString(noTargetLine + "\n")
		return
	}
	RenderView(b, v, withNotes)
}

// RenderDelete appends the human output of delete. treeEmpty tells whether
// the noggin has no items left; it only matters when r.View is nil: an empty
// tree prints "(tree is now empty)", a tree with items but no active item
// "(no active item)" (the reference claims the tree is empty in both cases).
func RenderDelete(b *bytes.Buffer, r *noggin.DeleteResult, treeEmpty bool) {
	b.WriteString("deleted ")
	writeSafe(b, r.Deleted.Path)
	if r.DescendantCount > 0 {
		b.WriteString(" and ")
		b.WriteString(strconv.Itoa(r.DescendantCount))
		b.WriteString(" descendant(s)")
	}
	b.WriteByte('\n')
	switch {
	case r.View != nil:
		RenderView(b, r.View, false)
	case treeEmpty:
		b.WriteString(treeEmptyLine + "\n")
	default:
		b.WriteString(noActiveLine + "\n")
	}
}

// RenderCopy appends "copied <n> item(s) from <src> to <dst>".
func RenderCopy(b *bytes.Buffer, r *noggin.CopyResult, src, dst string) {
	b.WriteString("copied ")
	b.WriteString(strconv.Itoa(r.Copied))
	b.WriteString(" item(s) from ")
	writeSafe(b, src)
	b.WriteString(" to ")
	writeSafe(b, dst)
	b.WriteByte('\n')
}

// RenderProviders appends the providers table: "scheme", dashes, then one
// scheme per line, all padded to w = max(6, longest scheme).
func RenderProviders(b *bytes.Buffer, ps []noggin.Provider) {
	if len(ps) == 0 {
		b.WriteString(noProvidersLine + "\n")
		return
	}
	w := len("scheme")
	for _, p := range ps {
		w = max(w, len(p.Scheme))
	}
	pad := func(s string) {
		writeSafe(b, s)
		b.WriteString(strings.Repeat(" ", w-len(s)))
		b.WriteByte('\n')
	}
	pad("scheme")
	b.WriteString(strings.Repeat("-", w) + "\n")
	for _, p := range ps {
		pad(p.Scheme)
	}
}

// RenderLine appends s and a newline (where).
func RenderLine(b *bytes.Buffer, s string) {
	writeSafe(b, s)
	b.WriteByte('\n')
}

// RenderFind appends one line per match ("/1/2 ✅ title"), its matching
// notes' timestamps below it, and a last line when the limit left some
// out; "(no match)" when there is none.
func RenderFind(b *bytes.Buffer, r *noggin.FindResult) {
	if r.Total == 0 {
		b.WriteString("(no match)\n")
		return
	}
	for _, m := range r.Matches {
		writeSafe(b, m.Path)
		b.WriteByte(' ')
		if m.Done {
			b.WriteString(markDone + " ")
		}
		writeSafe(b, m.Title)
		b.WriteByte('\n')
		for _, ts := range m.Notes {
			b.WriteString("  note ")
			if ts == "" {
				b.WriteString(noTimestampLabel)
			} else {
				writeSafe(b, ts)
			}
			b.WriteByte('\n')
		}
	}
	if len(r.Matches) < r.Total {
		b.WriteString("(" + strconv.Itoa(len(r.Matches)) + " of " + strconv.Itoa(r.Total) + " matches; --limit shows more)\n")
	}
}

// RenderLog appends one line per entry, newest first:
// "#7 2026-01-02T03:04:05.678Z note: noted "spec"".
func RenderLog(b *bytes.Buffer, r *noggin.LogResult) {
	if len(r.Entries) == 0 {
		if r.Missing {
			b.WriteString("(no history yet)\n")
		} else {
			b.WriteString("(no entries)\n")
		}
	}
	for _, e := range r.Entries {
		writeEntry(b, e)
	}
	if r.Unreadable > 0 {
		b.WriteString("(" + strconv.Itoa(r.Unreadable) + " unreadable line(s) of the history skipped)\n")
	}
}

func writeEntry(b *bytes.Buffer, e *noggin.Entry) {
	b.WriteString("#" + strconv.Itoa(e.Seq) + " ")
	writeSafe(b, e.Time)
	b.WriteByte(' ')
	writeSafe(b, e.Verb)
	switch {
	case e.Undoes != 0:
		b.WriteString(" (of #" + strconv.Itoa(e.Undoes) + ")")
	case e.Redoes != 0:
		b.WriteString(" (of #" + strconv.Itoa(e.Redoes) + ")")
	}
	b.WriteString(": ")
	writeSafe(b, e.Summary())
	b.WriteByte('\n')
}

// RenderUndo appends "undid #4 push: added "spec"; …" (redo: "redid …")
// and the view of the active item.
func RenderUndo(b *bytes.Buffer, verb string, r *noggin.UndoResult) {
	if verb == "redo" {
		b.WriteString("redid ")
	} else {
		b.WriteString("undid ")
	}
	if r.Entry != nil {
		writeEntry(b, &noggin.Entry{Seq: r.Entry.Seq, Time: r.Entry.Time, Verb: r.Entry.Verb, Changes: r.Entry.Changes})
	} else {
		b.WriteByte('\n')
	}
	if r.View == nil {
		b.WriteString(noActiveLine + "\n")
		return
	}
	RenderView(b, r.View, false)
}
