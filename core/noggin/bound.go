package noggin

// Bounded views (docs/envelope.md, "Bounded views"): a window caps every
// row of a view, and a byte budget narrows a view step by step until its
// answer fits. Both are pure functions of a built view: they share the
// nodes they keep unchanged and copy the ones they change.

// The steps a byte budget takes, in order (View.Narrowed names the last).
const (
	NarrowWindow = "window" // rows capped at a smaller window
	NarrowNotes  = "notes"  // notes left out (counted in noteCount)
	NarrowItems  = "items"  // every row left out (items empty)
	// NarrowMapping: copy's key mapping left out (copied still counts it).
	NarrowMapping = "mapping"
)

// NarrowWindows are the windows a budget tries, widest first.
var NarrowWindows = []int{64, 16, 4, 1}

// Windowed returns v with every row capped at n nodes (n ≥ 1): a row that
// holds the spine (the target or one of its ancestors) keeps the n nodes
// around that one, any other its first n. The nodes left out of a row are
// counted in its parent's omittedBefore / omittedAfter (the root row's in
// the view's). Window records the cap.
func (v *View) Windowed(n int) *View {
	if v == nil || n < 1 {
		return v
	}
	out := *v
	spine := map[string]bool{}
	markSpine(v.Items, v.TargetKey, spine)
	var before, after int
	out.Items, before, after = windowRow(v.Items, n, spine)
	out.OmittedBefore += before
	out.OmittedAfter += after
	if out.Window == 0 || n < out.Window {
		out.Window = n
	}
	return &out
}

// markSpine marks the keys of the nodes on the way to the node with key
// target and reports whether ns holds it.
func markSpine(ns []*Node, target string, spine map[string]bool) bool {
	for _, c := range ns {
		if c != nil && (c.Key == target || markSpine(c.Children, target, spine)) {
			spine[c.Key] = true
			return true
		}
	}
	return false
}

// windowRow caps one row (and, below it, every row) at n nodes and
// returns the nodes kept and how many were left out before and after.
func windowRow(ns []*Node, n int, spine map[string]bool) (kept []*Node, before, after int) {
	kept = ns
	if len(ns) > n {
		start := 0
		for i, c := range ns {
			if c != nil && spine[c.Key] {
				start = min(max(i-(n-1)/2, 0), len(ns)-n)
				break
			}
		}
		kept = ns[start : start+n]
		before, after = start, len(ns)-start-n
	}
	out := make([]*Node, len(kept))
	for i, c := range kept {
		out[i] = c
		if c == nil || len(c.Children) == 0 {
			continue
		}
		cc := *c
		var b, a int
		cc.Children, b, a = windowRow(c.Children, n, spine)
		cc.OmittedBefore += b
		cc.OmittedAfter += a
		out[i] = &cc
	}
	return out, before, after
}

// WithoutNotes returns v with the notes of every node left out, each
// node's count of them in noteCount.
func (v *View) WithoutNotes() *View {
	if v == nil {
		return v
	}
	out := *v
	out.Items = withoutNotes(v.Items)
	return &out
}

func withoutNotes(ns []*Node) []*Node {
	out := make([]*Node, len(ns))
	for i, c := range ns {
		out[i] = c
		if c == nil || len(c.Notes) == 0 && len(c.Children) == 0 {
			continue
		}
		cc := *c
		cc.NoteCount += len(c.Notes)
		cc.Notes = nil
		cc.Children = withoutNotes(c.Children)
		out[i] = &cc
	}
	return out
}

// WithoutItems returns v with every row left out (items empty); the
// view's other fields stay.
func (v *View) WithoutItems() *View {
	if v == nil {
		return v
	}
	out := *v
	out.Items = []*Node{}
	out.OmittedBefore, out.OmittedAfter = 0, 0
	return &out
}

// MapViews returns r with f applied to each view it carries (a view, a
// delete's or an undo's view); a result without one is r itself.
func MapViews(r Result, f func(*View) *View) Result {
	switch x := r.(type) {
	case *View:
		if x != nil {
			return f(x)
		}
	case *DeleteResult:
		if x != nil && x.View != nil {
			y := *x
			y.View = f(x.View)
			return &y
		}
	case *UndoResult:
		if x != nil && x.View != nil {
			y := *x
			y.View = f(x.View)
			return &y
		}
	}
	return r
}

// HasViews reports whether r carries a view MapViews would change.
func HasViews(r Result) bool {
	found := false
	MapViews(r, func(v *View) *View { found = true; return v })
	return found
}
