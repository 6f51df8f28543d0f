package noggin

import "testing"

// TestRecallTarget: which entry undo and redo pick.
func TestRecallTarget(t *testing.T) {
	inv := []Op{{Type: OpSetActive}}
	w := func(seq int) Entry { return Entry{Seq: seq, Inverse: inv} }
	u := func(seq, of int) Entry { return Entry{Seq: seq, Undoes: of, Inverse: inv} }
	r := func(seq, of int) Entry { return Entry{Seq: seq, Redoes: of, Inverse: inv} }
	cases := []struct {
		name       string
		entries    []Entry
		undo, redo int // Seq picked, 0 = none
	}{
		{"empty", nil, 0, 0},
		{"writes", []Entry{w(1), w(2)}, 2, 0},
		{"after an undo", []Entry{w(1), w(2), u(3, 2)}, 1, 3},
		{"after two undos", []Entry{w(1), w(2), u(3, 2), u(4, 1)}, 0, 4},
		{"after a redo", []Entry{w(1), w(2), u(3, 2), r(4, 3)}, 4, 0},
		{"redo ended by a write", []Entry{w(1), u(2, 1), w(3)}, 3, 0},
		{"no inverse", []Entry{w(1), {Seq: 2}}, 1, 0},
	}
	for _, c := range cases {
		got := func(e *Entry) int {
			if e == nil {
				return 0
			}
			return e.Seq
		}
		if u, r := got(recallTarget(c.entries, false)), got(recallTarget(c.entries, true)); u != c.undo || r != c.redo {
			t.Errorf("%s: undo %d redo %d, want %d %d", c.name, u, r, c.undo, c.redo)
		}
	}
}
