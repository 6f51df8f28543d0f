package server

import (
	"slices"

	nogginv1 "github.com/noggin-go/noggin/surfaces/rpc/gen/noggin/v1"
)

// maxWindow bounds WatchRequest.window: the rows a view shows on either
// side of the active item.
const maxWindow = 1000

// partItems is how many items a DocumentPart carries.
const partItems = 4096

// windowed is the first message's document of a Watch in parts: the tree's
// shape and the items of the window rows before and after the active
// item in tree order (every item unfolded), or of the top 2×window rows
// when none is active. Parents are found by key as a view builds its
// tree: the last item of a key is the one it names.
func windowed(full *nogginv1.Document, window int) (*nogginv1.Document, *nogginv1.DocumentShape) {
	items := full.GetItems()
	index := make(map[string]int, len(items))
	for i, it := range items {
		index[it.GetKey()] = i
	}
	parents := make([]uint32, len(items))
	children := make([][]int32, len(items)+1) // children[0]: the roots
	for i, it := range items {
		p := 0
		if it.ParentKey != nil {
			if j, ok := index[it.GetParentKey()]; ok {
				p = j + 1
			}
		}
		parents[i] = uint32(p)
		children[p] = append(children[p], int32(i))
	}
	// The rows in tree order, depth first without recursion.
	rows := make([]int32, 0, len(items))
	stack := slices.Clone(children[0])
	slices.Reverse(stack)
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		rows = append(rows, i)
		for k := len(children[i+1]) - 1; k >= 0; k-- {
			stack = append(stack, children[i+1][k])
		}
	}
	at := 0
	if a, ok := index[full.GetActive()]; ok && full.Active != nil {
		at = max(0, slices.Index(rows, int32(a)))
	}
	lo := max(0, at-window)
	hi := min(len(rows), max(at+window, lo+2*window))
	picked := slices.Clone(rows[lo:hi])
	slices.Sort(picked)
	doc := &nogginv1.Document{SchemaVersion: full.GetSchemaVersion(), Active: full.Active, Cursors: full.GetCursors()}
	shape := &nogginv1.DocumentShape{Parents: parents, Indexes: make([]uint32, len(picked))}
	for k, i := range picked {
		shape.Indexes[k] = uint32(i)
		doc.Items = append(doc.Items, items[i])
	}
	return doc, shape
}

// documentParts is every item of full, partItems at a time.
func documentParts(full *nogginv1.Document) []*nogginv1.DocumentPart {
	items := full.GetItems()
	var out []*nogginv1.DocumentPart
	for start := 0; start < len(items); start += partItems {
		end := min(len(items), start+partItems)
		out = append(out, &nogginv1.DocumentPart{Start: uint32(start), Items: items[start:end], Last: end == len(items)})
	}
	return out
}
