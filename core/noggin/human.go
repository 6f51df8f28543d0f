package noggin

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/noggin-go/noggin/core/jstext"
)

// Human is where a result writes the text a person reads (the CLI's
// output, docs/cli.md), and what that text depends on besides the result.
type Human struct {
	B *bytes.Buffer
	// Verb is the verb that answered (show and redo read differently).
	Verb string
	// WithNotes asks show for the notes of its target.
	WithNotes bool
	// From and To are copy's locations as the caller gave them.
	From, To string
	// TreeEmpty tells a delete that left nothing active whether the
	// noggin has no item left (nil: it has some).
	TreeEmpty func() bool
}

// Markers of the human tree lines (docs/cli.md).
const (
	markActive = "\U0001F4CD"    // 📍
	markDone   = "\u2705"        // ✅
	markNotes  = " \u270F\uFE0F" // space, ✏️
)

// Human output lines that are not tree lines.
const (
	noItemLine       = "(no item)"
	itemsOmittedLine = "(items left out to fit maxBytes)"
	noTargetLine     = "(no active item; pass a path)"
	treeEmptyLine    = "(tree is now empty)"
	noActiveLine     = "(no active item)"
	noProvidersLine  = "(no providers registered)"
	notesHeader      = "notes:"
	notesNoneHeader  = "notes: (none)"
	noTimestampLabel = "(no timestamp)"
)

// Human writes a view's tree lines; show writes "(no active item; pass a
// path)" for no target and, with WithNotes, the notes of its target.
func (v *View) Human(h *Human) {
	if h.Verb == "show" {
		if v == nil {
			h.B.WriteString(noTargetLine + "\n")
			return
		}
		v.writeTree(h.B, h.WithNotes)
		return
	}
	v.writeTree(h.B, false)
}

// writeTree appends the tree lines of v (and, with withNotes, the notes
// block of its target); a nil view or one without items is "(no item)".
func (v *View) writeTree(b *bytes.Buffer, withNotes bool) {
	if v != nil && v.Narrowed == NarrowItems {
		b.WriteString(itemsOmittedLine + "\n")
		return
	}
	if v == nil || len(v.Items) == 0 {
		b.WriteString(noItemLine + "\n")
		return
	}
	r := treeWriter{b: b, v: v, withNotes: withNotes}
	r.row(v.Items, v.OmittedBefore, v.OmittedAfter, 0)
}

// row writes a row's nodes at depth, with a line for the nodes a window
// left out before and after them ("… 12 before").
func (r *treeWriter) row(ns []*Node, before, after, depth int) {
	omitted := func(n int, where string) {
		if n > 0 {
			indent(r.b, depth)
			r.b.WriteString("\u2026 " + strconv.Itoa(n) + " " + where + "\n")
		}
	}
	omitted(before, "before")
	for _, c := range ns {
		r.node(c, depth)
	}
	omitted(after, "after")
}

type treeWriter struct {
	b         *bytes.Buffer
	v         *View
	withNotes bool
}

func (r *treeWriter) node(n *Node, depth int) {
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
	WriteSafe(b, n.Title)
	if len(n.Notes) > 0 || n.NoteCount > 0 {
		b.WriteString(markNotes)
	}
	b.WriteByte('\n')
	r.row(n.Children, n.OmittedBefore, n.OmittedAfter, depth+1)
	if r.withNotes && n.Key == r.v.TargetKey {
		r.notes(n, depth)
	}
}

func (r *treeWriter) notes(n *Node, depth int) {
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
			WriteSafe(b, note.Timestamp)
		}
		b.WriteByte('\n')
		// Each line of a note is its own indented line under the note.
		for _, line := range strings.Split(note.Text, "\n") {
			indent(b, depth+3)
			WriteSafe(b, line)
			b.WriteByte('\n')
		}
	}
}

func indent(b *bytes.Buffer, depth int) {
	for range depth {
		b.WriteString("  ")
	}
}

// Human writes "deleted /1/2 and 3 descendant(s)", then the view; without
// one "(tree is now empty)" or "(no active item)" (the reference claims
// the tree is empty in both cases).
func (r *DeleteResult) Human(h *Human) {
	b := h.B
	b.WriteString("deleted ")
	WriteSafe(b, r.Deleted.Path)
	if r.DescendantCount > 0 {
		b.WriteString(" and ")
		b.WriteString(strconv.Itoa(r.DescendantCount))
		b.WriteString(" descendant(s)")
	}
	b.WriteByte('\n')
	switch {
	case r.View != nil:
		r.View.writeTree(b, false)
	case h.TreeEmpty != nil && h.TreeEmpty():
		b.WriteString(treeEmptyLine + "\n")
	default:
		b.WriteString(noActiveLine + "\n")
	}
}

// Human writes "copied <n> item(s) from <from> to <to>".
func (r *CopyResult) Human(h *Human) {
	b := h.B
	b.WriteString("copied ")
	b.WriteString(strconv.Itoa(r.Copied))
	b.WriteString(" item(s) from ")
	WriteSafe(b, h.From)
	b.WriteString(" to ")
	WriteSafe(b, h.To)
	b.WriteByte('\n')
}

// Human writes the providers table: "scheme", dashes, then one scheme per
// line, all padded to max(6, the longest scheme).
func (ps Providers) Human(h *Human) {
	b := h.B
	if len(ps) == 0 {
		b.WriteString(noProvidersLine + "\n")
		return
	}
	w := len("scheme")
	for _, p := range ps {
		w = max(w, len(p.Scheme))
	}
	pad := func(s string) {
		WriteSafe(b, s)
		b.WriteString(strings.Repeat(" ", w-len(s)))
		b.WriteByte('\n')
	}
	pad("scheme")
	b.WriteString(strings.Repeat("-", w) + "\n")
	for _, p := range ps {
		pad(p.Scheme)
	}
}

// Human writes the location on its line.
func (l Location) Human(h *Human) {
	WriteSafe(h.B, string(l))
	h.B.WriteByte('\n')
}

// Human writes one line per match ("/1/2 ✅ title"), its matching notes'
// timestamps below it, and a last line when the limit left some out;
// "(no match)" when there is none.
func (r *FindResult) Human(h *Human) {
	b := h.B
	if r.Total == 0 {
		b.WriteString("(no match)\n")
		return
	}
	for _, m := range r.Matches {
		WriteSafe(b, m.Path)
		b.WriteByte(' ')
		if m.Done {
			b.WriteString(markDone + " ")
		}
		WriteSafe(b, m.Title)
		b.WriteByte('\n')
		for _, ts := range m.Notes {
			b.WriteString("  note ")
			if ts == "" {
				b.WriteString(noTimestampLabel)
			} else {
				WriteSafe(b, ts)
			}
			b.WriteByte('\n')
		}
	}
	if len(r.Matches) < r.Total {
		b.WriteString("(" + strconv.Itoa(len(r.Matches)) + " of " + strconv.Itoa(r.Total) + " matches; --limit shows more)\n")
	}
}

// Human writes one line per entry, newest first:
// "#7 2026-01-02T03:04:05.678Z note: noted "spec"".
func (r *LogResult) Human(h *Human) {
	b := h.B
	if len(r.Entries) == 0 {
		if r.Missing {
			b.WriteString("(no history yet)\n")
		} else {
			b.WriteString("(no entries)\n")
		}
	}
	for _, e := range r.Entries {
		e.writeLine(b)
	}
	if r.Unreadable > 0 {
		b.WriteString("(" + strconv.Itoa(r.Unreadable) + " unreadable line(s) of the history skipped)\n")
	}
}

func (e *Entry) writeLine(b *bytes.Buffer) {
	b.WriteString("#" + strconv.Itoa(e.Seq) + " ")
	WriteSafe(b, e.Time)
	b.WriteByte(' ')
	WriteSafe(b, e.Verb)
	if e.Agent != "" {
		b.WriteString(" by ")
		WriteSafe(b, e.Agent)
	}
	if e.Principal != "" {
		b.WriteString(" (")
		WriteSafe(b, e.Principal)
		b.WriteByte(')')
	}
	switch {
	case e.Undoes != 0:
		b.WriteString(" (of #" + strconv.Itoa(e.Undoes) + ")")
	case e.Redoes != 0:
		b.WriteString(" (of #" + strconv.Itoa(e.Redoes) + ")")
	}
	b.WriteString(": ")
	WriteSafe(b, e.Summary())
	b.WriteByte('\n')
}

// Human writes "undid #4 push: added "spec"; …" (redo: "redid …") and the
// view of the active item.
func (r *UndoResult) Human(h *Human) {
	b := h.B
	if h.Verb == "redo" {
		b.WriteString("redid ")
	} else {
		b.WriteString("undid ")
	}
	if r.Entry != nil {
		(&Entry{Seq: r.Entry.Seq, Time: r.Entry.Time, Verb: r.Entry.Verb, Agent: r.Entry.Agent, Principal: r.Entry.Principal, Changes: r.Entry.Changes}).writeLine(b)
	} else {
		b.WriteByte('\n')
	}
	if r.View == nil {
		b.WriteString(noActiveLine + "\n")
		return
	}
	r.View.writeTree(b, false)
}

// WriteSafe writes s for a terminal. Human output is read by people in
// terminals, and titles, notes and locations are written by agents:
// nothing they contain may act on the terminal or pass for another line.
// So every control
// character (C0 but tab, DEL, C1), invalid byte, bidirectional override or
// isolate (U+202A–U+202E, U+2066–U+2069) and line or paragraph separator
// (U+2028, U+2029) shown as a visible escape (\x1b, \u202e), and a newline
// as a visible ⏎, so one title is always one line. JSON output is never
// neutralised: it is exact.
func WriteSafe(b *bytes.Buffer, s string) {
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f || c == '\t' {
			i++
			continue
		}
		r, size := rune(c), 1
		if c >= utf8.RuneSelf {
			r, size = jstext.DecodeRune(s[i:])
		}
		esc := ""
		switch {
		case c == '\n':
			esc = "\u23ce" // ⏎
		case r == utf8.RuneError && size == 1, r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
			esc = `\x` + hex2(c)
			if r >= 0x80 && r <= 0x9f { // a C1 control, written as its code point
				esc = `\u00` + hex2(byte(r))
			}
		case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x2028, r == 0x2029, jstext.IsSurrogate(r):
			esc = `\u` + strconv.FormatInt(int64(r), 16)
		default:
			i += size
			continue
		}
		b.WriteString(s[start:i])
		b.WriteString(esc)
		i += size
		start = i
	}
	b.WriteString(s[start:])
}

func hex2(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&0xf]})
}

// Safe is WriteSafe as a string.
func Safe(s string) string {
	var b bytes.Buffer
	WriteSafe(&b, s)
	return b.String()
}
