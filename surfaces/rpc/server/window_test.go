package server

import (
	"fmt"
	"slices"
	"testing"

	nogginv1 "github.com/noggin-go/noggin/surfaces/rpc/gen/noggin/v1"
)

func item(key, parent string) *nogginv1.Item {
	it := &nogginv1.Item{Key: key, Title: key}
	if parent != "" {
		it.ParentKey = &parent
	}
	return it
}

// chain is a root with n children, the last of which is active.
func chain(n int) *nogginv1.Document {
	d := &nogginv1.Document{Items: []*nogginv1.Item{item("r", "")}}
	for i := range n {
		d.Items = append(d.Items, item(fmt.Sprint("c", i), "r"))
	}
	last := fmt.Sprint("c", n-1)
	d.Active = &last
	return d
}

func TestWindowed(t *testing.T) {
	s := func(v string) *string { return &v }
	for _, tc := range []struct {
		name        string
		doc         *nogginv1.Document
		window      int
		wantParents []uint32
		wantKeys    []string
	}{
		{"empty", &nogginv1.Document{}, 5, []uint32{}, nil},
		{"no active: the top rows", &nogginv1.Document{Items: []*nogginv1.Item{item("a", ""), item("b", ""), item("a1", "a"), item("c", "")}}, 1,
			[]uint32{0, 0, 1, 0}, []string{"a", "a1"}}, // rows a, a1, b, c: the top two
		{"the rows around the active item, in document order", &nogginv1.Document{Active: s("b"),
			Items: []*nogginv1.Item{item("a", ""), item("b", ""), item("a1", "a"), item("c", ""), item("a2", "a")}}, 1,
			[]uint32{0, 0, 1, 0, 1}, []string{"b", "a2"}}, // rows a, a1, a2, b, c: a2 and b
		{"a parent not in the document is a root", &nogginv1.Document{Items: []*nogginv1.Item{item("x", "gone"), item("y", "x")}}, 5,
			[]uint32{0, 1}, []string{"x", "y"}},
		{"a cycle is no row", &nogginv1.Document{Items: []*nogginv1.Item{item("p", "q"), item("q", "p"), item("r", "")}}, 5,
			[]uint32{2, 1, 0}, []string{"r"}},
		{"the end of a long list", chain(100), 3, nil, []string{"c96", "c97", "c98", "c99"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, shape := windowed(tc.doc, tc.window)
			if tc.wantParents != nil && !slices.Equal(shape.GetParents(), tc.wantParents) {
				t.Errorf("parents %v, want %v", shape.GetParents(), tc.wantParents)
			}
			var keys []string
			for k, it := range doc.GetItems() {
				keys = append(keys, it.GetKey())
				if tc.doc.GetItems()[shape.GetIndexes()[k]] != it {
					t.Errorf("index %d names %q, not %q", shape.GetIndexes()[k], tc.doc.GetItems()[shape.GetIndexes()[k]].GetKey(), it.GetKey())
				}
			}
			if !slices.Equal(keys, tc.wantKeys) {
				t.Errorf("window %v, want %v", keys, tc.wantKeys)
			}
			if doc.GetActive() != tc.doc.GetActive() {
				t.Errorf("active %q", doc.GetActive())
			}
		})
	}
}

func TestDocumentParts(t *testing.T) {
	for _, n := range []int{0, 1, partItems, partItems + 1, 3*partItems - 7} {
		d := chain(max(n-1, 1))
		d.Items = d.Items[:n]
		var got []*nogginv1.Item
		parts := documentParts(d)
		for k, p := range parts {
			if int(p.GetStart()) != len(got) || p.GetLast() != (k == len(parts)-1) {
				t.Errorf("%d items: part %d starts at %d (last %v)", n, k, p.GetStart(), p.GetLast())
			}
			got = append(got, p.GetItems()...)
		}
		if !slices.Equal(got, d.Items) {
			t.Errorf("%d items: the parts hold %d", n, len(got))
		}
	}
}
