package noggin

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// changesString renders changes compactly for comparison.
func changesString(cs []Change) string {
	var out []string
	for _, c := range cs {
		switch c.Kind {
		case ChangeAdded:
			out = append(out, fmt.Sprintf("added %s %q@%d", c.Key, c.At.ParentKey, c.At.Position))
		case ChangeRemoved:
			out = append(out, "removed "+c.Key)
		case ChangeMoved:
			out = append(out, fmt.Sprintf("moved %s %q@%d->%q@%d", c.Key, c.From.ParentKey, c.From.Position, c.To.ParentKey, c.To.Position))
		case ChangeUpdated:
			out = append(out, fmt.Sprintf("updated %s %s", c.Key, strings.Join(c.Fields, ",")))
		case ChangeActiveChanged:
			out = append(out, fmt.Sprintf("active %q->%q", c.FromKey, c.ToKey))
		}
	}
	return strings.Join(out, "; ")
}

// TestDiffExamples covers the examples of docs/rpc.md and case 233.
func TestDiffExamples(t *testing.T) {
	four := "p\n  k2 key=k2\n  k3 key=k3\n  k4 key=k4"
	fixed := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	eng := &Engine{Now: func() time.Time { return fixed }, Keys: SequentialKeys{}}
	newKey := "i-20260101-000000-000001"
	tests := []struct {
		name  string
		start string
		run   func(s Store) error
		want  string
	}{
		{"add-before-first", "p active\n  k2 key=k2\n  k3 key=k3\n  k4 key=k4", func(s Store) error {
			_, err := eng.Add(context.Background(), s, AddOpts{Title: "n", Placement: &Placement{"before", "/1/1"}})
			return err
		}, `added ` + newKey + ` "k1"@0; moved k2 "k1"@0->"k1"@1; moved k3 "k1"@1->"k1"@2; moved k4 "k1"@2->"k1"@3`},
		{"delete-first-of-three", four, func(s Store) error {
			_, err := eng.Delete(context.Background(), s, DeleteOpts{Path: "/1/1"})
			return err
		}, `removed k2; moved k3 "k1"@1->"k1"@0; moved k4 "k1"@2->"k1"@1`},
		{"delete-subtree", "r\n  a key=a\n    b key=b\n  c key=c", func(s Store) error {
			_, err := eng.Delete(context.Background(), s, DeleteOpts{Path: "/1/1", Recursive: true})
			return err
		}, `removed a; removed b; moved c "k1"@1->"k1"@0`},
		{"move-third-before-first", four, func(s Store) error {
			_, err := eng.Move(context.Background(), s, MoveOpts{Path: "/1/3", Placement: &Placement{"before", "/1/1"}})
			return err
		}, `moved k4 "k1"@2->"k1"@0; moved k2 "k1"@0->"k1"@1; moved k3 "k1"@1->"k1"@2`},
		{"case-233/done-active-child", F5, func(s Store) error {
			_, err := eng.Done(context.Background(), s, DoneOpts{})
			return err
		}, `updated k2 done,notes; active "k2"->"k1"`},
		{"goto", F1, func(s Store) error {
			_, err := eng.Goto(context.Background(), s, GotoOpts{Path: "/2"})
			return err
		}, `active "k1"->"k5"`},
		{"case-233/goto-current", F1, func(s Store) error {
			_, err := eng.Goto(context.Background(), s, GotoOpts{Path: "."})
			return err
		}, ``},
		{"case-233/edit-nothing", F1, func(s Store) error {
			_, err := eng.Edit(context.Background(), s, EditOpts{Title: ptr("root1")})
			return err
		}, ``},
		{"move-self-noop", F1, func(s Store) error {
			_, err := eng.Move(context.Background(), s, MoveOpts{Path: "/1/1", Placement: &Placement{"before", "/1/1"}})
			return err
		}, ``},
		{"copy-same", "a key=a\n  b key=b", func(s Store) error {
			_, err := eng.Copy(context.Background(), s, s)
			return err
		}, `added i-20260101-000000-000001 ""@1; added i-20260101-000000-000002 "i-20260101-000000-000001"@0`},
		{"rename-and-move", F1, func(s Store) error {
			if _, err := eng.Edit(context.Background(), s, EditOpts{Path: "/1/1", Title: ptr("A")}); err != nil {
				return err
			}
			_, err := eng.Move(context.Background(), s, MoveOpts{Path: "/1/1", Placement: &Placement{"into", "/2"}})
			return err
		}, `updated k2 title` + "|" + `moved k3 "k1"@1->"k1"@0; moved k2 "k1"@0->"k5"@0`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newMem(tree(tc.start))
			if err := tc.run(s); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, ev := range s.events {
				got = append(got, changesString(ev))
			}
			if g := strings.Join(got, "|"); g != tc.want {
				t.Errorf("changes =\n%s\nwant\n%s", g, tc.want)
			}
		})
	}
}

func TestDiffDirect(t *testing.T) {
	a := tree(F1)
	if d := Diff(a, tree(F1)); len(d) != 0 {
		t.Fatalf("identical documents: %v", d)
	}
	b := tree(F1)
	ts := "other"
	b.Items[1].CreatedAt = &ts // createdAt changes are not reported
	b.Items[2].Notes = []Note{{Timestamp: "x", Text: "y"}}
	b.Items[3].Done = true
	b.Active = ""
	if got, want := changesString(Diff(a, b)), `updated k3 notes; updated k4 done; active "k1"->""`; got != want {
		t.Errorf("got %s want %s", got, want)
	}
	if Equal(a, b) {
		t.Error("Equal(a, b) = true")
	}
	c := tree(F1)
	c.Items[1].CreatedAt = &ts
	if Equal(a, c) {
		t.Error("createdAt difference not seen by Equal")
	}
	c.Items[1].CreatedAt = nil
	if Equal(a, c) {
		t.Error("missing createdAt not seen by Equal")
	}
	if !Equal(a, tree(F1)) || !Equal(nil, nil) || Equal(a, nil) {
		t.Error("Equal basics")
	}
	// A note with the same text but another timestamp differs.
	d1, d2 := tree("a note=x"), tree("a note=x")
	d2.Items[0].Notes[0].Timestamp = "later"
	if got := changesString(Diff(d1, d2)); got != "updated k1 notes" {
		t.Errorf("got %s", got)
	}
}

// diffSlow is the plain algorithm of docs/rpc.md over whole documents,
// the oracle for Diff's fast paths.
func diffSlow(prev, next *Document) []Change {
	out := plainDiff(prev.Items, next.Items)
	if prev.Active != next.Active {
		out = append(out, Change{Kind: ChangeActiveChanged, FromKey: prev.Active, ToKey: next.Active})
	}
	return out
}

// TestDiffFastPaths compares Diff with the plain algorithm on op lists
// that exercise the same-shape path, the shared-prefix path and the
// general path.
func TestDiffFastPaths(t *testing.T) {
	base := tree(F2)
	done, title := true, "T"
	tests := map[string][]Op{
		"note-only":         {{Type: OpNote, Key: "k5", Note: &Note{Text: "x"}}},
		"set-and-active":    {{Type: OpSet, Key: "k2", Done: &done}, {Type: OpSet, Key: "k7", Title: &title}, {Type: OpSetActive, Key: "k7"}},
		"append":            {{Type: OpAdd, Item: newItem("n"), ParentKey: "k4", AtEnd: true}},
		"insert-middle":     {{Type: OpAdd, Item: newItem("n"), ParentKey: "k1", Position: 1}},
		"remove-middle":     {{Type: OpRemove, Keys: []string{"k2", "k3"}}},
		"move-and-note":     {{Type: OpMove, Key: "k6", ParentKey: "k1", Position: 0}, {Type: OpNote, Key: "k6", Note: &Note{Text: "x"}}},
		"move-last-to-root": {{Type: OpMove, Key: "k5", AtEnd: true}},
		"nothing":           nil,
		"remove-and-append": {{Type: OpRemove, Keys: []string{"k3"}}, {Type: OpAdd, Item: newItem("n"), ParentKey: "k2", AtEnd: true}},
		"move-root-last":    {{Type: OpMove, Key: "k1", AtEnd: true}},
		"many-adds":         manyAdds(20),
	}
	for name, ops := range tests {
		t.Run(name, func(t *testing.T) {
			next, err := Apply(base, ops)
			if err != nil {
				t.Fatal(err)
			}
			// A reordering of shared items takes the plain path. Documents with
			// a repeated item (or key) cannot be written; Diff must only not
			// fail on them.
			swapped := &Document{Items: slices.Clone(next.Items)}
			swapped.Items[1], swapped.Items[len(swapped.Items)-2] = swapped.Items[len(swapped.Items)-2], swapped.Items[1]
			twice := &Document{Items: append(slices.Clone(next.Items), next.Items[0])}
			for _, pair := range [][2]*Document{{base, next}, {next, base}, {tree(F2), next}, {next, swapped}, {swapped, next}} {
				if fast, slow := changesString(Diff(pair[0], pair[1])), changesString(diffSlow(pair[0], pair[1])); fast != slow {
					t.Errorf("Diff = %s\nslow = %s", fast, slow)
				}
			}
			_, _ = Diff(next, twice), Diff(twice, base)
		})
	}
}

func manyAdds(n int) []Op {
	var ops []Op
	for i := 0; i < n; i++ {
		ops = append(ops, Op{Type: OpAdd, Item: newItem(fmt.Sprintf("n%d", i)), ParentKey: "k1", Position: i % 3})
	}
	return ops
}

// TestDiffRandomOracle compares Diff with the plain algorithm on chains of
// random valid edits of a 60-item tree (fixed seed).
func TestDiffRandomOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&b, "%sitem%d\n", strings.Repeat("  ", min(i%4, 1+i%3)), i)
	}
	doc := tree(b.String())
	applied := 0
	for step := 0; step < 1000; step++ {
		items := doc.Items
		pick := func() string { return items[r.IntN(len(items))].Key }
		var ops []Op
		for n := 1 + r.IntN(3); n > 0; n-- {
			switch r.IntN(6) {
			case 0:
				ops = append(ops, Op{Type: OpAdd, Item: newItem(fmt.Sprintf("n%d-%d", step, n)), ParentKey: pick(), Position: r.IntN(4), AtEnd: r.IntN(2) == 0})
			case 1:
				ops = append(ops, Op{Type: OpMove, Key: pick(), Position: r.IntN(5), AtEnd: r.IntN(3) == 0})
			case 2:
				ops = append(ops, Op{Type: OpNote, Key: pick(), Note: &Note{Text: "x"}})
			case 3:
				ops = append(ops, Op{Type: OpSet, Key: pick(), Title: ptr(fmt.Sprint(r.IntN(3)))})
			case 4:
				ops = append(ops, Op{Type: OpSetActive, Key: pick()})
			default:
				if len(items) > 20 {
					k := pick()
					ops = append(ops, Op{Type: OpRemove, Keys: []string{k}})
				}
			}
		}
		next, err := Apply(doc, ops)
		if err != nil {
			continue // a cycle, an orphan: try other edits
		}
		for _, pair := range [][2]*Document{{doc, next}, {next, doc}} {
			if fast, slow := changesString(Diff(pair[0], pair[1])), changesString(diffSlow(pair[0], pair[1])); fast != slow {
				t.Fatalf("step %d ops %+v\nDiff = %s\nslow = %s", step, ops, fast, slow)
			}
			// A watcher sent the changes and the items they touch rebuilds
			// the document (Patch): no difference left.
			ch := Diff(pair[0], pair[1])
			touched := map[string]*Item{}
			for _, it := range Touched(pair[1], ch) {
				touched[it.Key] = it
			}
			got, err := Patch(pair[0], ch, touched, pair[1].Cursors())
			if err != nil {
				t.Fatalf("step %d: Patch: %v", step, err)
			}
			if left := Diff(got, pair[1]); len(left) > 0 {
				t.Fatalf("step %d ops %+v\nchanges %s\npatched differs by %s", step, ops, changesString(ch), changesString(left))
			}
		}
		doc = next
		applied++
	}
	if applied < 300 {
		t.Fatalf("only %d edits applied", applied)
	}
}
