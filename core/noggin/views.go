package noggin

import (
	"slices"
	"strconv"
)

// viewOpts are the CurrentTreeView options; only show passes non-defaults.
type viewOpts struct {
	noChildren      bool
	withSiblings    bool
	withDescendants bool
}

// BuildView builds the CurrentTreeView of the item with targetKey in doc
// with the default options (docs/cli.md); nil if there is no such item.
func BuildView(doc *Document, targetKey string) *View {
	x := newIndex(doc)
	return buildView(doc, x, x.item(targetKey), viewOpts{})
}

// buildView builds the CurrentTreeView around target (nil → nil).
func buildView(doc *Document, x *index, target *Item, o viewOpts) *View {
	if target == nil {
		return nil
	}
	v := &View{TargetKey: target.Key, Cursor: doc.viewer}
	if active := x.item(doc.Active); active != nil {
		v.ActiveKey = active.Key
		v.ActivePath = x.path(active)
	}
	chain := x.ancestors(target)
	// Absolute paths of the ancestors, root first.
	paths := make([]string, len(chain))
	parentPath := ""
	for i, a := range chain {
		paths[i] = parentPath + "/" + strconv.Itoa(x.position(a))
		parentPath = paths[i]
	}

	b := viewBuilder{x: x, unique: doc.knownValid()}
	var targetNode *Node
	pos := x.position(target)
	targetPath := parentPath + "/" + strconv.Itoa(pos)
	switch {
	case o.noChildren:
		targetNode = b.leaf(target, targetPath, pos)
	case o.withDescendants:
		targetNode = b.expanded(target, targetPath, pos, len(x.items))
	default:
		targetNode = b.leaf(target, targetPath, pos)
		targetNode.Expanded = true
		targetNode.Children = b.row(target.Key, targetPath, nil, nil)
	}
	level := b.row(target.ParentKey, parentPath, targetNode, target)
	kept := target // the item of level[0]
	for i := len(chain) - 1; i >= 0; i-- {
		a := chain[i]
		n := b.leaf(a, paths[i], x.position(a))
		n.Expanded = true
		if i == len(chain)-1 || !o.withSiblings {
			n.Children = level
		} else {
			n.Children = b.row(a.Key, paths[i], level[0], kept)
		}
		level, kept = []*Node{n}, a
	}
	v.Items = level
	return v
}

// viewBuilder renders nodes; unique is true when the document's keys are
// known to be unique (validated).
type viewBuilder struct {
	x      *index
	unique bool
}

// leaf renders it without children. It shares the item's strings and
// notes: a view is read-only like its document (the notes are clipped, so
// an append to them copies).
func (b viewBuilder) leaf(it *Item, path string, pos int) *Node {
	notes := slices.Clip(it.notes())
	if notes == nil {
		notes = []Note{}
	}
	return &Node{
		Key:       it.Key,
		ParentKey: it.ParentKey,
		Path:      path,
		Position:  pos,
		Title:     it.title(),
		Done:      it.done(),
		CreatedAt: it.createdAt(),
		Notes:     notes,
	}
}

// expanded renders it with its whole subtree expanded, at most depth
// levels deep (a bound that only parent cycles in loaded documents reach).
func (b viewBuilder) expanded(it *Item, path string, pos, depth int) *Node {
	n := b.leaf(it, path, pos)
	n.Expanded = true
	n.Children = []*Node{}
	if depth <= 0 {
		return n
	}
	for i, c := range b.x.children(it.Key) {
		n.Children = append(n.Children, b.expanded(c, path+"/"+strconv.Itoa(i+1), i+1, depth-1))
	}
	return n
}

// row renders the children of parent (whose path is parentPath, "" for
// the root level) as leaves, except that the child whose key is kept's
// (keep's item) is replaced by keep.
func (b viewBuilder) row(parent, parentPath string, keep *Node, kept *Item) []*Node {
	kids := b.x.children(parent)
	out := make([]*Node, 0, len(kids))
	for i, c := range kids {
		// With unique keys, kept itself: no key's bytes are read.
		if keep != nil && (c == kept || !b.unique && c.Key == kept.Key) {
			out = append(out, keep)
			continue
		}
		out = append(out, b.leaf(c, parentPath+"/"+strconv.Itoa(i+1), i+1))
	}
	return out
}
