package noggin

import (
	"context"

	"github.com/noggin-go/noggin/core/jstext"
)

// snap is one document prepared for planning a verb.
type snap struct {
	doc    *Document
	x      *index
	active *Item // the active item; nil when active is null or dangling
}

func newSnap(doc *Document) *snap {
	x := newIndex(doc)
	return &snap{doc: doc, x: x, active: x.itemFirst(doc.Active)}
}

func (s *snap) activeKey() string {
	if s.active == nil {
		return ""
	}
	return s.active.Key
}

// resolve resolves a target or anchor path (path-not-found).
func (s *snap) resolve(path string) (*Item, error) {
	it, msg := s.x.resolve(s.activeKey(), path)
	if msg != "" {
		return nil, NewError(CodePathNotFound, F("path", path), F("detail", msg))
	}
	return it, nil
}

// target is the verb's target: path if non-empty, else the active item.
func (s *snap) target(path, verb string) (*Item, error) {
	if path != "" {
		return s.resolve(path)
	}
	if s.active == nil {
		return nil, NewError(CodeNoActiveItem, F("verb", verb))
	}
	return s.active, nil
}

// placement validates and resolves a placement (docs/cli.md).
func (s *snap) placement(p *Placement, verb string) (string, *Item, error) {
	if p == nil || p.Kind == "" || p.Anchor == "" {
		return "", nil, NewError(CodePlacementMissing, F("verb", verb))
	}
	switch p.Kind {
	case "before", "after", "into":
	default:
		return "", nil, NewError(CodePlacementInvalid, F("verb", verb), F("kind", p.Kind))
	}
	anchor, err := s.resolve(p.Anchor)
	return p.Kind, anchor, err
}

// slot is where an add or move op puts an item.
type slot struct {
	parent string
	atEnd  bool
	pos    int
}

func (sl slot) op(t OpType, key string, item *Item) Op {
	return Op{Type: t, Key: key, Item: item, ParentKey: sl.parent, AtEnd: sl.atEnd, Position: sl.pos}
}

// goTo resolves a --goto option with base standing in as the active item
// of doc (the projected state).
func goTo(doc *Document, baseKey string, g Goto, verb string) (*Item, error) {
	x := newIndex(doc)
	base := x.item(baseKey)
	if base == nil {
		return nil, NewError(CodeGotoBaseMissing, F("verb", verb))
	}
	p := g.Path
	if g.Self {
		p = "."
	}
	if p == "" {
		return nil, NewError(CodeGotoPathRequired, F("verb", verb))
	}
	it, msg := x.resolve(base.Key, p)
	if msg != "" {
		return nil, NewError(CodeGotoUnresolved, F("verb", verb), F("path", p), F("detail", msg))
	}
	return it, nil
}

// gotoAfter resolves g against doc with ops applied (not validated) and
// returns ops plus the setActive op, and the goto target key.
func gotoAfter(doc *Document, ops []Op, baseKey string, g Goto, verb string) ([]Op, string, error) {
	projected, err := project(doc, ops)
	if err != nil {
		return nil, "", err
	}
	it, err := goTo(projected, baseKey, g, verb)
	if err != nil {
		return nil, "", err
	}
	return append(ops, activate(doc, it.Key)), it.Key, nil
}

// newItemOp is the add op of a freshly created item.
func newItemOp(key, title, ts string, sl slot) Op {
	it := &Item{Key: key, ParentKey: sl.parent, Title: title, CreatedAt: &ts, Notes: []Note{}}
	return sl.op(OpAdd, "", it)
}

// closeOps builds the close ops of target (docs/cli.md).
func closeOps(s *snap, target *Item, force, closeAll bool, verb, ts string) ([]Op, error) {
	var ops []Op
	done := true
	closeOne := func(it *Item) {
		ops = append(ops,
			Op{Type: OpSet, Key: it.Key, Done: &done},
			Op{Type: OpNote, Key: it.Key, Note: &Note{Timestamp: ts, Text: "closed"}})
	}
	desc := s.x.descendants(target)
	if closeAll {
		for _, d := range desc {
			if !d.done() {
				closeOne(d)
			}
		}
	}
	if !force && !closeAll {
		open := 0
		for _, d := range desc {
			if !d.done() {
				open++
			}
		}
		if open > 0 {
			return nil, NewError(CodeOpenDescendants, F("verb", verb), F("path", s.x.path(target)),
				F("title", target.title()), F("openCount", open))
		}
	}
	if !target.done() {
		closeOne(target)
	}
	return ops, nil
}

// write is the Write of a verb whose plan needs no history.
func write(verb, ts string, plan func(d *Document) ([]Op, error)) Write {
	return Write{Verb: verb, Time: ts, Plan: func(d *Document, _ *History) ([]Op, error) { return plan(d) }}
}

// verbOf names done and pop in the history.
func verbOf(pop bool) string {
	if pop {
		return "pop"
	}
	return "done"
}

// viewOf builds the view of the item with key in doc.
func viewOf(doc *Document, key string, o viewOpts) *View {
	x := newIndex(doc)
	x.spine(key)
	x.spine(doc.Active)
	return buildView(doc, x, x.item(key), o)
}

// jsTrim trims like JavaScript's String.prototype.trim.
func jsTrim(s string) string { return jstext.TrimSpace(s) }

// Push creates a child of the active item (a new last root when none is
// active) and makes it active.
func (e *Engine) Push(ctx context.Context, s Store, o PushOpts) (_ *View, err error) {
	var r reads
	defer r.check(&err) // a lazy read's item that could not be decoded (Undecoded)
	s = r.track(s)
	now := e.now()
	ts := Stamp(now)
	var key string
	doc, err := s.Update(ctx, write("push", ts, func(d *Document) ([]Op, error) {
		st := newSnap(d)
		key = e.newKeys(d, now, 1)[0]
		sl := slot{parent: st.activeKey(), atEnd: true}
		return []Op{newItemOp(key, o.Title, ts, sl), activate(d, key)}, nil
	}))
	if err != nil {
		return nil, err
	}
	return viewOf(doc, key, viewOpts{}), nil
}

// Add creates an item without moving the cursor (unless o.Goto).
func (e *Engine) Add(ctx context.Context, s Store, o AddOpts) (_ *View, err error) {
	var r reads
	defer r.check(&err) // a lazy read's item that could not be decoded (Undecoded)
	s = r.track(s)
	now := e.now()
	ts := Stamp(now)
	var viewKey string
	doc, err := s.Update(ctx, write("add", ts, func(d *Document) ([]Op, error) {
		st := newSnap(d)
		sl := slot{parent: st.activeKey(), atEnd: true}
		if o.Placement != nil {
			kind, anchor, err := st.placement(o.Placement, "add")
			if err != nil {
				return nil, err
			}
			sl = st.placeBeside(kind, anchor, nil)
		}
		key := e.newKeys(d, now, 1)[0]
		ops := []Op{newItemOp(key, o.Title, ts, sl)}
		viewKey = key
		if o.Goto.Present {
			var err error
			if ops, viewKey, err = gotoAfter(d, ops, key, o.Goto, "add"); err != nil {
				return nil, err
			}
		}
		return ops, nil
	}))
	if err != nil {
		return nil, err
	}
	return viewOf(doc, viewKey, viewOpts{}), nil
}

// placeBeside computes the slot of a placement relative to anchor. For
// before/after, moving (the item being moved, or nil) is left out of the
// anchor's sibling row.
func (s *snap) placeBeside(kind string, anchor, moving *Item) slot {
	if kind == "into" {
		return slot{parent: anchor.Key, atEnd: true}
	}
	idx := 0
	for _, sib := range s.x.children(anchor.ParentKey) {
		if sib == anchor {
			break
		}
		if sib != moving {
			idx++
		}
	}
	if kind == "after" {
		idx++
	}
	return slot{parent: anchor.ParentKey, pos: idx}
}

// Move relocates an item and its subtree.
func (e *Engine) Move(ctx context.Context, s Store, o MoveOpts) (_ *View, err error) {
	var r reads
	defer r.check(&err) // a lazy read's item that could not be decoded (Undecoded)
	s = r.track(s)
	var viewKey string
	doc, err := s.Update(ctx, write("move", Stamp(e.now()), func(d *Document) ([]Op, error) {
		st := newSnap(d)
		kind, anchor, err := st.placement(o.Placement, "move")
		if err != nil {
			return nil, err
		}
		target, err := st.target(o.Path, "move")
		if err != nil {
			return nil, err
		}
		cycle := func(reason string) error {
			return NewErrorDetail(CodeCycle, reason, F("verb", "move"), F("path", st.x.path(target)),
				F("title", target.title()), F("placementKind", kind))
		}
		var sl slot
		switch {
		case kind == "into" && anchor == target:
			return nil, cycle("cannot move item into itself")
		case kind == "into" && st.x.isDescendant(anchor, target):
			return nil, cycle("cannot move item into its own subtree")
		case kind != "into" && st.x.isDescendant(anchor, target):
			return nil, cycle("cannot move item next to its own descendant")
		case kind != "into" && anchor == target:
			sl = slot{parent: target.ParentKey, pos: st.x.position(target) - 1}
		default:
			sl = st.placeBeside(kind, anchor, target)
		}
		ops := []Op{sl.op(OpMove, target.Key, nil)}
		viewKey = target.Key
		if st.active != nil {
			viewKey = st.active.Key
		}
		if o.Goto.Present {
			if ops, viewKey, err = gotoAfter(d, ops, target.Key, o.Goto, "move"); err != nil {
				return nil, err
			}
		}
		return ops, nil
	}))
	if err != nil {
		return nil, err
	}
	return viewOf(doc, viewKey, viewOpts{}), nil
}

// Goto makes an item active.
func (e *Engine) Goto(ctx context.Context, s Store, o GotoOpts) (_ *View, err error) {
	var r reads
	defer r.check(&err) // a lazy read's item that could not be decoded (Undecoded)
	s = r.track(s)
	if o.Path == "" {
		return nil, NewError(CodePathRequired, F("verb", "goto"))
	}
	var key string
	doc, err := s.Update(ctx, write("goto", Stamp(e.now()), func(d *Document) ([]Op, error) {
		target, err := newSnap(d).resolve(o.Path)
		if err != nil {
			return nil, err
		}
		key = target.Key
		return []Op{activate(d, key)}, nil
	}))
	if err != nil {
		return nil, err
	}
	return viewOf(doc, key, viewOpts{}), nil
}

// Done closes an item and makes its parent active.
func (e *Engine) Done(ctx context.Context, s Store, o DoneOpts) (_ *View, err error) {
	var r reads
	defer r.check(&err) // a lazy read's item that could not be decoded (Undecoded)
	s = r.track(s)
	if o.Goto.Present {
		return nil, NewError(CodeGotoUnsupported, F("verb", "done"))
	}
	return e.close(ctx, s, o.Path, o.Force, o.CloseAll, false)
}

// Pop is done on the active item.
func (e *Engine) Pop(ctx context.Context, s Store, o PopOpts) (_ *View, err error) {
	var r reads
	defer r.check(&err) // a lazy read's item that could not be decoded (Undecoded)
	s = r.track(s)
	if o.HasPath {
		return nil, NewError(CodePopNoPath, F("verb", "pop"))
	}
	if o.Goto.Present {
		return nil, NewError(CodeGotoUnsupported, F("verb", "pop"))
	}
	return e.close(ctx, s, "", o.Force, o.CloseAll, true)
}

// close runs done (pop: on the active item, no-active-item reported as pop).
func (e *Engine) close(ctx context.Context, s Store, path string, force, closeAll, pop bool) (*View, error) {
	ts := Stamp(e.now())
	var targetKey string
	doc, err := s.Update(ctx, write(verbOf(pop), ts, func(d *Document) ([]Op, error) {
		st := newSnap(d)
		target := st.active
		if pop {
			if target == nil {
				return nil, NewError(CodeNoActiveItem, F("verb", "pop"))
			}
		} else {
			var err error
			if target, err = st.target(path, "done"); err != nil {
				return nil, err
			}
		}
		ops, err := closeOps(st, target, force, closeAll, "done", ts)
		if err != nil {
			return nil, err
		}
		targetKey = target.Key
		return append(ops, activate(d, target.ParentKey)), nil
	}))
	if err != nil {
		return nil, err
	}
	x := newIndex(doc)
	x.spine(doc.Active) // on a large document, two passes instead of a scan per level
	vt := x.item(doc.Active)
	if vt == nil {
		x.spine(targetKey)
		vt = x.item(targetKey)
	}
	return buildView(doc, x, vt, viewOpts{}), nil
}

// Edit changes an item's done state and/or title.
func (e *Engine) Edit(ctx context.Context, s Store, o EditOpts) (_ *View, err error) {
	var r reads
	defer r.check(&err) // a lazy read's item that could not be decoded (Undecoded)
	s = r.track(s)
	hasState := o.Done != nil
	hasTitle := o.Title != nil && jsTrim(*o.Title) != ""
	if !hasState && !hasTitle {
		return nil, NewError(CodeNothingToEdit, F("verb", "edit"))
	}
	closing := hasState && *o.Done
	if !closing && o.Force {
		return nil, NewErrorDetail(CodeOptionMisused, "force", F("verb", "edit"))
	}
	if !closing && o.CloseAll {
		return nil, NewErrorDetail(CodeOptionMisused, "closeAll", F("verb", "edit"))
	}
	ts := Stamp(e.now())
	var viewKey string
	doc, err := s.Update(ctx, write("edit", ts, func(d *Document) ([]Op, error) {
		st := newSnap(d)
		target, err := st.target(o.Path, "edit")
		if err != nil {
			return nil, err
		}
		var ops []Op
		switch {
		case closing:
			if ops, err = closeOps(st, target, o.Force, o.CloseAll, "edit", ts); err != nil {
				return nil, err
			}
		case hasState && target.done():
			open := false
			ops = append(ops, Op{Type: OpSet, Key: target.Key, Done: &open})
		}
		if hasTitle {
			if t := jsTrim(*o.Title); t != target.title() {
				ops = append(ops, Op{Type: OpSet, Key: target.Key, Title: &t})
			}
		}
		viewKey = target.Key
		if o.Goto.Present {
			if ops, viewKey, err = gotoAfter(d, ops, target.Key, o.Goto, "edit"); err != nil {
				return nil, err
			}
		}
		return ops, nil
	}))
	if err != nil {
		return nil, err
	}
	return viewOf(doc, viewKey, viewOpts{}), nil
}

// Show returns the view of an item; nil (no error) when there is no target.
func (e *Engine) Show(ctx context.Context, s Store, o ShowOpts) (_ *View, err error) {
	var r reads
	defer r.check(&err) // a lazy read's item that could not be decoded (Undecoded)
	s = r.track(s)
	vo := viewOpts{noChildren: o.NoChildren, withSiblings: o.WithSiblings, withDescendants: o.WithDescendants}
	target := func(st *snap) (*Item, error) {
		if o.Path != "" {
			return st.resolve(o.Path)
		}
		return st.active, nil
	}
	if !o.Goto.Present {
		doc, err := s.Load(ctx)
		if err != nil {
			return nil, err
		}
		st := newSnap(doc)
		t, err := target(st)
		if err != nil || t == nil {
			return nil, err
		}
		return buildView(doc, st.x, t, vo), nil
	}
	var viewKey string
	doc, err := s.Update(ctx, write("show", Stamp(e.now()), func(d *Document) ([]Op, error) {
		st := newSnap(d)
		viewKey = ""
		t, err := target(st)
		if err != nil || t == nil {
			return nil, err
		}
		g, err := goTo(d, t.Key, o.Goto, "show")
		if err != nil {
			return nil, err
		}
		viewKey = g.Key
		if g.Key == st.activeKey() {
			return nil, nil
		}
		return []Op{activate(d, g.Key)}, nil
	}))
	if err != nil || viewKey == "" {
		return nil, err
	}
	return viewOf(doc, viewKey, vo), nil
}

// Note appends a timestamped note to an item.
func (e *Engine) Note(ctx context.Context, s Store, o NoteOpts) (_ *View, err error) {
	var r reads
	defer r.check(&err) // a lazy read's item that could not be decoded (Undecoded)
	s = r.track(s)
	text := jsTrim(o.Text)
	if text == "" {
		return nil, NewError(CodeTextRequired, F("verb", "note"))
	}
	ts := Stamp(e.now())
	var viewKey string
	doc, err := s.Update(ctx, write("note", ts, func(d *Document) ([]Op, error) {
		st := newSnap(d)
		target, err := st.target(o.Path, "note")
		if err != nil {
			return nil, err
		}
		ops := []Op{{Type: OpNote, Key: target.Key, Note: &Note{Timestamp: ts, Text: text}}}
		viewKey = target.Key
		if o.Goto.Present {
			if ops, viewKey, err = gotoAfter(d, ops, target.Key, o.Goto, "note"); err != nil {
				return nil, err
			}
		}
		return ops, nil
	}))
	if err != nil {
		return nil, err
	}
	return viewOf(doc, viewKey, viewOpts{}), nil
}

// Delete removes an item (and with o.Recursive its subtree).
func (e *Engine) Delete(ctx context.Context, s Store, o DeleteOpts) (_ *DeleteResult, err error) {
	var r reads
	defer r.check(&err) // a lazy read's item that could not be decoded (Undecoded)
	s = r.track(s)
	if o.Goto.Present {
		return nil, NewError(CodeGotoUnsupported, F("verb", "delete"))
	}
	if o.Path == "" {
		return nil, NewError(CodePathRequired, F("verb", "delete"))
	}
	res := &DeleteResult{}
	doc, err := s.Update(ctx, write("delete", Stamp(e.now()), func(d *Document) ([]Op, error) {
		st := newSnap(d)
		target, err := st.resolve(o.Path)
		if err != nil {
			return nil, err
		}
		desc := st.x.descendants(target)
		path := st.x.path(target)
		if len(desc) > 0 && !o.Recursive {
			return nil, NewError(CodeHasDescendants, F("verb", "delete"), F("path", path),
				F("title", target.title()), F("descendantCount", len(desc)))
		}
		keys := []string{target.Key}
		removesActive := st.active == target
		for _, it := range desc {
			keys = append(keys, it.Key)
			removesActive = removesActive || st.active == it
		}
		ops := []Op{{Type: OpRemove, Keys: keys}}
		if removesActive {
			ops = append(ops, activate(d, target.ParentKey))
		}
		if d.viewer != "" || len(d.Cursors()) > 0 {
			removed := make(map[string]bool, len(keys))
			for _, k := range keys {
				removed[k] = true
			}
			ops = append(ops, cursorsInto(d, removed, target.ParentKey)...)
		}
		res.Deleted = DeletedItem{Key: target.Key, Path: path, Title: target.title()}
		res.DescendantCount = len(desc)
		return ops, nil
	}))
	if err != nil {
		return nil, err
	}
	res.View = viewOf(doc, doc.Active, viewOpts{})
	return res, nil
}

// Copy appends every item of src to dst with fresh keys. A nil src is
// source-required, a nil dst dest-required.
func (e *Engine) Copy(ctx context.Context, src, dst Store) (_ *CopyResult, err error) {
	var r reads
	defer r.check(&err) // a lazy read's item that could not be decoded (Undecoded)
	src, dst = r.track(src), r.track(dst)
	if src == nil {
		return nil, NewError(CodeSourceRequired, F("verb", "copy"))
	}
	if dst == nil {
		return nil, NewError(CodeDestRequired, F("verb", "copy"))
	}
	sdoc, err := src.Load(ctx)
	if err != nil {
		return nil, err
	}
	// Snapshot: documents are immutable, so the loaded items are the
	// pre-copy source even when src and dst are the same noggin.
	order := preOrder(sdoc)
	res := &CopyResult{Mapping: []KeyPair{}}
	if len(order) == 0 {
		return res, nil
	}
	now := e.now()
	_, err = dst.Update(ctx, write("copy", Stamp(now), func(d *Document) ([]Op, error) {
		keys := e.newKeys(d, now, len(order))
		mapped := make(map[string]string, len(order))
		mapping := make([]KeyPair, len(order))
		ops := make([]Op, len(order))
		for i, it := range order {
			mapped[it.Key] = keys[i]
			mapping[i] = KeyPair{Old: it.Key, New: keys[i]}
			parent := ""
			if it.ParentKey != "" {
				parent = mapped[it.ParentKey]
			}
			c := &Item{Key: keys[i], ParentKey: parent, Title: it.title(), Done: it.done(),
				CreatedAt: it.createdAt(), Notes: it.notes()}
			ops[i] = Op{Type: OpAdd, Item: c, ParentKey: parent, AtEnd: true}
		}
		res.Mapping = mapping
		return ops, nil
	}))
	if err != nil {
		return nil, err
	}
	res.Copied = len(order)
	return res, nil
}

// preOrder lists the items reachable from the roots, depth-first
// pre-order in sibling order. Orphans and cycles are skipped.
func preOrder(doc *Document) []*Item {
	if doc == nil || len(doc.Items) == 0 {
		return nil
	}
	x := newIndex(doc)
	x.buildFull()
	seen := make(map[*Item]bool, len(doc.Items))
	var out []*Item
	stack := append([]*Item(nil), x.children("")...)
	reverse(stack)
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[it] {
			continue
		}
		seen[it] = true
		out = append(out, it)
		kids := x.children(it.Key)
		for i := len(kids) - 1; i >= 0; i-- {
			stack = append(stack, kids[i])
		}
	}
	return out
}

func reverse(s []*Item) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}
