package noggin

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
)

// Write is one write of a noggin: how it is planned, and how the noggin's
// history names it.
type Write struct {
	// Verb names the write in the history ("push", "undo", …).
	Verb string
	// Time is when the write happened (RFC 3339, from the engine's clock).
	Time string
	// Plan computes the ops from doc, which it must not mutate. h is the
	// noggin's history as of doc: only undo and redo read it, and they set
	// h.Undoes or h.Redoes to the entry they take back or apply again.
	Plan func(doc *Document, h *History) ([]Op, error)
	// Agent is the agent the write is made for ("" for none; see Through).
	Agent string
	// Principal is who a server authenticated the write's caller as (""
	// for a local write; see Signed).
	Principal string
}

// History is a noggin's journal as a plan sees it. Its entries and the
// digest of the planned document are read on first use.
type History struct {
	// Undoes and Redoes are set by the plan of undo and redo: the Seq of
	// the entry that the write takes back or applies again.
	Undoes, Redoes int

	load   func() (Journal, error)
	digest func(like string) string

	once    sync.Once
	journal Journal
	err     error
	dmu     sync.Mutex
	d       map[string]string // by scheme
}

// NewHistory returns the history a store hands to a plan: load reads the
// journal, digest fingerprints the document being planned on — in the
// scheme of like (a digest the store wrote, possibly with an older
// scheme), or in the store's current scheme when like is "".
func NewHistory(load func() (Journal, error), digest func(like string) string) *History {
	return &History{load: load, digest: digest}
}

// digestScheme is the scheme of a digest: the text before its first ':'.
func digestScheme(d string) string {
	if i := strings.IndexByte(d, ':'); i >= 0 {
		return d[:i]
	}
	return ""
}

// Journal reads the noggin's journal (once).
func (h *History) Journal() (Journal, error) {
	h.once.Do(func() {
		if h.load == nil {
			h.journal = Journal{Missing: true}
			return
		}
		h.journal, h.err = h.load()
	})
	return h.journal, h.err
}

// Digest is the fingerprint of the document being planned on, in the
// store's current scheme (computed once).
func (h *History) Digest() string { return h.DigestLike("") }

// DigestLike is the fingerprint of the document being planned on in the
// scheme of ref, so that it compares with a digest an older build wrote
// (computed once per scheme).
func (h *History) DigestLike(ref string) string {
	if h.digest == nil {
		return ""
	}
	scheme := digestScheme(ref)
	h.dmu.Lock()
	defer h.dmu.Unlock()
	if d, ok := h.d[scheme]; ok {
		return d
	}
	d := h.digest(ref)
	if h.d == nil {
		h.d = map[string]string{}
	}
	h.d[scheme] = d
	return d
}

// Journal is what a store's history holds.
type Journal struct {
	// Entries are the readable entries, oldest first.
	Entries []Entry
	// Unreadable counts the lines that could not be read (a truncated or
	// corrupt journal); they are skipped.
	Unreadable int
	// Missing is true when the noggin has no journal at all (never written
	// by noggin for Go, or the journal was deleted).
	Missing bool
}

// MaxHistory is how many entries a journal keeps.
const MaxHistory = 1000

// Entry is one write in a noggin's journal: when, which verb, the ops and
// the ops that invert them, the digests of the document before and after,
// and what changed in words.
type Entry struct {
	Seq  int
	Time string
	Verb string
	// Undoes (undo) or Redoes (redo) is the Seq of the entry taken back or
	// applied again; 0 for every other write.
	Undoes, Redoes int
	Before, After  string
	Ops, Inverse   []Op
	Changes        []EntryChange
	// Request is the request id of a write made for a remote client (see
	// Receipt), RequestDigest the fingerprint of its request and Reply
	// the answer it got ("" for other writes).
	Request, RequestDigest, Reply string
	// Agent is the agent the write was made for ("" for none); Principal
	// who a server authenticated its caller as ("" for a local write).
	Agent, Principal string
}

// EntryChange is one change of a write, for people and agents reading the
// history. Kind is added, removed, moved, renamed, closed, reopened, noted,
// unnoted or activated; Title is the item's title (its new title for
// renamed); Key is "" for "activated" when no item is active after it.
type EntryChange struct {
	Kind  string
	Key   string
	Title string
	// Cursor is the agent whose cursor an "activated" moved ("" for the
	// shared active item).
	Cursor string
}

// NewEntry describes one write: ops applied to before (the document the
// write planned on; the caller's Apply of them succeeded), its inverse and
// its changes. The digests and Seq are the store's.
func NewEntry(w Write, h *History, before *Document, ops []Op) (Entry, error) {
	inv, changes, err := invert(before, ops)
	if err != nil {
		return Entry{}, err
	}
	e := Entry{Time: w.Time, Verb: w.Verb, Ops: ops, Inverse: inv, Changes: changes, Agent: w.Agent, Principal: w.Principal}
	if h != nil {
		e.Undoes, e.Redoes = h.Undoes, h.Redoes
	}
	return e, nil
}

// invert computes, op by op on the document as it is before each op, the
// ops that take the write back (in reverse order) and its changes. The
// inverse restores the document exactly, including the order of its flat
// item list and unknown fields, so an undone file is byte-identical.
func invert(doc *Document, ops []Op) ([]Op, []EntryChange, error) {
	if doc == nil {
		doc = NewDocument()
	}
	// Each op is inverted on the document the ops before it left; the last
	// one is not applied (the caller's Apply did, NewEntry), so a write of
	// one op copies no item list.
	var a *applier
	if len(ops) > 1 {
		a = newApplier(doc, len(ops))
	} else {
		a = lookupApplier(doc)
	}
	var groups [][]Op
	var changes []EntryChange
	title := func(key string) string {
		if i := a.find(key); i >= 0 {
			return a.doc.Items[i].title()
		}
		return ""
	}
	for i := range ops {
		op := &ops[i]
		var inv []Op
		switch op.Type {
		case OpAdd:
			if op.Item != nil {
				inv = []Op{{Type: OpRemove, Keys: []string{op.Item.Key}}}
				changes = append(changes, EntryChange{Kind: "added", Key: op.Item.Key, Title: op.Item.title()})
			}
		case OpRemove:
			drop := make(map[string]bool, len(op.Keys))
			for _, k := range op.Keys {
				drop[k] = true
			}
			for idx, it := range a.doc.Items {
				if drop[it.Key] {
					it = it.clone() // the journal's copy
					inv = append(inv, Op{Type: OpAdd, Item: it, ParentKey: it.ParentKey, Position: idx, Flat: true})
					changes = append(changes, EntryChange{Kind: "removed", Key: it.Key, Title: it.title()})
				}
			}
		case OpSet:
			if j := a.find(op.Key); j >= 0 {
				var back Op
				back, changes = setInverse(*op, *a.doc.Items[j].clone(), changes, title) // a copy: this apply may change the item in place later
				inv = []Op{back}
			}
		case OpNote:
			inv = []Op{{Type: OpUnnote, Key: op.Key}}
			changes = append(changes, EntryChange{Kind: "noted", Key: op.Key, Title: title(op.Key)})
		case OpUnnote:
			if j := a.find(op.Key); j >= 0 && len(a.doc.Items[j].notes()) > 0 {
				n := a.doc.Items[j].notes()[len(a.doc.Items[j].notes())-1]
				inv = []Op{{Type: OpNote, Key: op.Key, Note: &n}}
				changes = append(changes, EntryChange{Kind: "unnoted", Key: op.Key, Title: title(op.Key)})
			}
		case OpMove:
			if j := a.find(op.Key); j >= 0 {
				inv = []Op{{Type: OpMove, Key: op.Key, ParentKey: a.doc.Items[j].ParentKey, Position: j, Flat: true}}
				changes = append(changes, EntryChange{Kind: "moved", Key: op.Key, Title: title(op.Key)})
			}
		case OpSetActive:
			inv = []Op{{Type: OpSetActive, Key: a.doc.Active}}
		case OpCursor:
			k, had := cursorOf(a.doc, op.Cursor)
			inv = []Op{{Type: OpCursor, Cursor: op.Cursor, Key: k, Unset: !had}}
		}
		if i < len(ops)-1 {
			if err := a.apply(op); err != nil {
				return nil, nil, err
			}
		}
		if op.Type == OpSetActive && op.Key != doc.Active {
			changes = append(changes, EntryChange{Kind: "activated", Key: op.Key, Title: title(op.Key)})
		}
		if k, had := cursorOf(doc, op.Cursor); op.Type == OpCursor && !op.Unset && (!had || op.Key != k) {
			changes = append(changes, EntryChange{Kind: "activated", Key: op.Key, Title: title(op.Key), Cursor: op.Cursor})
		}
		groups = append(groups, inv)
	}
	var out []Op
	for i := len(groups) - 1; i >= 0; i-- {
		out = append(out, groups[i]...)
	}
	return out, changes, nil
}

// Summary says in words what an entry changed, e.g. `added "spec";
// activated "spec"`. Runs of one kind are shortened: `removed "a" and 3
// more`.
func (e *Entry) Summary() string {
	var parts []string
	for i := 0; i < len(e.Changes); {
		c := e.Changes[i]
		j := i + 1
		for j < len(e.Changes) && e.Changes[j].Kind == c.Kind && c.Kind != "activated" {
			j++
		}
		var s string
		switch {
		case c.Kind == "activated" && c.Key == "":
			s = "no item active"
		default:
			s = c.Kind + " " + strconv.Quote(c.Title)
		}
		if c.Cursor != "" && c.Cursor != e.Agent {
			s += " for " + c.Cursor
		}
		if n := j - i - 1; n > 0 {
			s += " and " + strconv.Itoa(n) + " more"
		}
		parts = append(parts, s)
		i = j
	}
	if len(parts) == 0 {
		return "no change"
	}
	return strings.Join(parts, "; ")
}

// recallTarget picks the entry undo (redo false) or redo takes back or
// applies again. Undo: the newest write that is not already undone, where
// an undo entry marks its target undone and a redo counts as a write.
// Redo: the newest undo that is not yet redone, as long as no other write
// came after it.
func recallTarget(entries []Entry, redo bool) *Entry {
	skip := map[int]bool{}
	for i := len(entries) - 1; i >= 0; i-- {
		e := &entries[i]
		if !redo {
			switch {
			case e.Undoes != 0:
				skip[e.Undoes] = true
			case skip[e.Seq], len(e.Inverse) == 0: // nothing to take back (a hand-made line)
			default:
				return e
			}
			continue
		}
		switch {
		case e.Redoes != 0:
			skip[e.Redoes] = true
		case e.Undoes == 0:
			return nil // a write after the last undo: nothing to redo
		case skip[e.Seq]:
		default:
			return e
		}
	}
	return nil
}

// LogOpts are log's options.
type LogOpts struct {
	// Limit caps the entries listed; 0 means DefaultLogLimit.
	Limit int
	// By lists only the writes made for this agent ("" for all).
	By string
}

// DefaultLogLimit is how many entries log lists unless told.
const DefaultLogLimit = 20

// LogResult is the result of log: entries newest first.
type LogResult struct {
	Entries []*Entry
	// Unreadable counts journal lines that could not be read.
	Unreadable int
	// Missing: the noggin has no history yet.
	Missing bool
}

// Log lists the newest entries of the noggin's history.
func (e *Engine) Log(ctx context.Context, s Store, o LogOpts) (_ *LogResult, err error) {
	var r reads
	defer r.check(&err) // a lazy read's item that could not be decoded (Undecoded)
	s = r.track(s)
	limit := o.Limit
	if limit <= 0 {
		limit = DefaultLogLimit
	}
	j, err := s.History(ctx)
	if err != nil {
		return nil, historyError(err)
	}
	res := &LogResult{Entries: []*Entry{}, Unreadable: j.Unreadable, Missing: j.Missing}
	for i := len(j.Entries) - 1; i >= 0 && len(res.Entries) < limit; i-- {
		if o.By == "" || j.Entries[i].Agent == o.By {
			res.Entries = append(res.Entries, &j.Entries[i])
		}
	}
	return res, nil
}

// UndoResult is the result of undo and redo: the write taken back (undo)
// or applied again (redo: the write the undo had taken back), and the
// view of the active item after it (nil when none is active).
type UndoResult struct {
	Entry *Entry
	View  *View
}

// Undo takes back the newest write not yet undone (redo: applies again the
// newest undo, if no write came after it). It applies the entry's inverse
// (redo: its ops) only when the noggin is still in the state that entry
// left it in; otherwise undo-conflict and nothing changes. Undo and redo
// are writes of their own in the history.
func (e *Engine) Undo(ctx context.Context, s Store, redo bool) (_ *UndoResult, err error) {
	var r reads
	defer r.check(&err) // a lazy read's item that could not be decoded (Undecoded)
	s = r.track(s)
	verb := "undo"
	if redo {
		verb = "redo"
	}
	var target *Entry
	doc, err := s.Update(ctx, Write{Verb: verb, Time: Stamp(e.now()), Plan: func(d *Document, h *History) ([]Op, error) {
		j, err := h.Journal()
		if err != nil {
			return nil, historyError(err)
		}
		entries := j.Entries
		if n := len(entries); n > 0 && Phantom(&entries[n-1], h.DigestLike) {
			entries = entries[:n-1] // a write that died before it replaced the noggin
		}
		t := recallTarget(entries, redo)
		switch {
		case t == nil && redo:
			return nil, NewError(CodeNothingToRedo, F("verb", verb))
		case t == nil:
			reason := "empty"
			switch {
			case j.Missing:
				reason = "missing"
			case len(j.Entries) == 0 && j.Unreadable > 0:
				reason = "unreadable"
			case len(j.Entries) == 0:
				reason = "missing"
			}
			return nil, NewError(CodeNothingToUndo, F("verb", verb), F("reason", reason))
		case t.After == "" || h.DigestLike(t.After) != t.After:
			return nil, NewError(CodeUndoConflict, F("verb", verb), F("seq", t.Seq), F("write", t.Verb), F("time", t.Time))
		}
		target = t
		if redo { // report the write applied again, not the undo taken back
			for i := range entries {
				if entries[i].Seq == t.Undoes {
					target = &entries[i]
				}
			}
		}
		h.Undoes, h.Redoes = 0, 0
		if redo {
			h.Redoes = t.Seq
		} else {
			h.Undoes = t.Seq
		}
		return t.Inverse, nil
	}})
	if err != nil {
		return nil, err
	}
	return &UndoResult{Entry: target, View: viewOf(doc, doc.Active, viewOpts{})}, nil
}

// historyError reports a history that cannot be read.
func historyError(err error) error {
	var ne *Error
	if errors.As(err, &ne) {
		return err
	}
	return NewError(CodeHistoryUnavailable, F("detail", err.Error()))
}

// setInverse is the op that takes back a set on old (the item before it),
// and the changes it makes, appended to changes.
func setInverse(op Op, old Item, changes []EntryChange, title func(string) string) (Op, []EntryChange) {
	back := Op{Type: OpSet, Key: op.Key}
	if op.Title != nil {
		t := old.title()
		back.Title = &t
		if *op.Title != old.title() {
			changes = append(changes, EntryChange{Kind: "renamed", Key: op.Key, Title: *op.Title})
		}
	}
	if op.Done != nil && *op.Done != old.done() {
		kind := "reopened"
		if *op.Done {
			kind = "closed"
		}
		changes = append(changes, EntryChange{Kind: kind, Key: op.Key, Title: title(op.Key)})
	}
	if op.Done != nil {
		d := old.done()
		back.Done = &d
	}
	return back, changes
}
