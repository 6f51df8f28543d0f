package noggin

import (
	"fmt"
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

// TestDiffExamples covers the examples of spec/changes.md and case 233.
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
			_, err := eng.Add(s, AddOpts{Title: "n", Placement: &Placement{"before", "/1/1"}})
			return err
		}, `added ` + newKey + ` "k1"@0; moved k2 "k1"@0->"k1"@1; moved k3 "k1"@1->"k1"@2; moved k4 "k1"@2->"k1"@3`},
		{"delete-first-of-three", four, func(s Store) error {
			_, err := eng.Delete(s, DeleteOpts{Path: "/1/1"})
			return err
		}, `removed k2; moved k3 "k1"@1->"k1"@0; moved k4 "k1"@2->"k1"@1`},
		{"delete-subtree", "r\n  a key=a\n    b key=b\n  c key=c", func(s Store) error {
			_, err := eng.Delete(s, DeleteOpts{Path: "/1/1", Recursive: true})
			return err
		}, `removed a; removed b; moved c "k1"@1->"k1"@0`},
		{"move-third-before-first", four, func(s Store) error {
			_, err := eng.Move(s, MoveOpts{Path: "/1/3", Placement: &Placement{"before", "/1/1"}})
			return err
		}, `moved k4 "k1"@2->"k1"@0; moved k2 "k1"@0->"k1"@1; moved k3 "k1"@1->"k1"@2`},
		{"case-233/done-active-child", F5, func(s Store) error {
			_, err := eng.Done(s, DoneOpts{})
			return err
		}, `updated k2 done,notes; active "k2"->"k1"`},
		{"goto", F1, func(s Store) error {
			_, err := eng.Goto(s, GotoOpts{Path: "/2"})
			return err
		}, `active "k1"->"k5"`},
		{"case-233/goto-current", F1, func(s Store) error {
			_, err := eng.Goto(s, GotoOpts{Path: "."})
			return err
		}, ``},
		{"case-233/edit-nothing", F1, func(s Store) error {
			_, err := eng.Edit(s, EditOpts{Title: ptr("root1")})
			return err
		}, ``},
		{"move-self-noop", F1, func(s Store) error {
			_, err := eng.Move(s, MoveOpts{Path: "/1/1", Placement: &Placement{"before", "/1/1"}})
			return err
		}, ``},
		{"copy-same", "a key=a\n  b key=b", func(s Store) error {
			_, err := eng.Copy(s, s)
			return err
		}, `added i-20260101-000000-000001 ""@1; added i-20260101-000000-000002 "i-20260101-000000-000001"@0`},
		{"rename-and-move", F1, func(s Store) error {
			if _, err := eng.Edit(s, EditOpts{Path: "/1/1", Title: ptr("A")}); err != nil {
				return err
			}
			_, err := eng.Move(s, MoveOpts{Path: "/1/1", Placement: &Placement{"into", "/2"}})
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

// diffSlow is the plain algorithm of spec/changes.md over whole documents,
// the oracle for Diff's fast paths.
func diffSlow(prev, next *Document) []Change {
	ps, ns := slots(prev.Items, nil), slots(next.Items, nil)
	var out []Change
	for _, it := range prev.Items {
		if _, ok := ns[it.Key]; !ok {
			out = append(out, Change{Kind: ChangeRemoved, Key: it.Key})
		}
	}
	for _, it := range next.Items {
		n := ns[it.Key]
		if n.item != it {
			continue
		}
		p, ok := ps[it.Key]
		if !ok {
			out = append(out, Change{Kind: ChangeAdded, Key: it.Key, At: n.slot})
			continue
		}
		if p.slot != n.slot {
			out = append(out, Change{Kind: ChangeMoved, Key: it.Key, From: p.slot, To: n.slot})
		}
		out = appendUpdated(out, p.item, it)
	}
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
	}
	for name, ops := range tests {
		t.Run(name, func(t *testing.T) {
			next, err := Apply(base, ops)
			if err != nil {
				t.Fatal(err)
			}
			for _, pair := range [][2]*Document{{base, next}, {next, base}, {tree(F2), next}} {
				if fast, slow := changesString(Diff(pair[0], pair[1])), changesString(diffSlow(pair[0], pair[1])); fast != slow {
					t.Errorf("Diff = %s\nslow = %s", fast, slow)
				}
			}
		})
	}
}
