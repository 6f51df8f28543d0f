package noggin

import (
	"reflect"
	"strings"
	"testing"
)

// keysOf lists the item keys in array order.
func keysOf(doc *Document) string {
	var ks []string
	for _, it := range doc.Items {
		ks = append(ks, it.Key)
	}
	return strings.Join(ks, " ")
}

func newItem(key string) *Item { return &Item{Key: key, Title: key, Notes: []Note{}} }

// TestApplyInsertionRule pins the array layout chosen by add and move.
func TestApplyInsertionRule(t *testing.T) {
	// Interleaved siblings: roots a, c; b under a; d under a at the end.
	base := &Document{Items: []*Item{
		{Key: "a"}, {Key: "b", ParentKey: "a"}, {Key: "c"}, {Key: "d", ParentKey: "a"},
	}}
	tests := []struct {
		name string
		op   Op
		want string
	}{
		{"end appends to array", Op{Type: OpAdd, Item: newItem("n"), ParentKey: "a", AtEnd: true}, "a b c d n"},
		{"pos 0 before first sibling", Op{Type: OpAdd, Item: newItem("n"), ParentKey: "a", Position: 0}, "a n b c d"},
		{"pos 1 before second sibling", Op{Type: OpAdd, Item: newItem("n"), ParentKey: "a", Position: 1}, "a b c n d"},
		{"pos beyond: after last sibling", Op{Type: OpAdd, Item: newItem("n"), ParentKey: "a", Position: 9}, "a b c d n"},
		{"pos beyond root row", Op{Type: OpAdd, Item: newItem("n"), Position: 2}, "a b c n d"},
		{"no siblings: append", Op{Type: OpAdd, Item: newItem("n"), ParentKey: "b", Position: 3}, "a b c d n"},
		{"move first root after c", Op{Type: OpMove, Key: "a", Position: 1}, "b c a d"},
		{"move d before b", Op{Type: OpMove, Key: "d", ParentKey: "a", Position: 0}, "a d b c"},
		{"move b to end", Op{Type: OpMove, Key: "b", ParentKey: "c", AtEnd: true}, "a c d b"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := keysOf(base)
			got, err := Apply(base, []Op{tc.op})
			if err != nil {
				t.Fatal(err)
			}
			if keysOf(got) != tc.want {
				t.Errorf("layout = %q, want %q", keysOf(got), tc.want)
			}
			if keysOf(base) != before || base.Items[1].ParentKey != "a" {
				t.Errorf("input mutated: %q", keysOf(base))
			}
		})
	}
}

// TestApplyFailures covers every invalid-op failure with its data
// (docs/file-format.md, edge cases 224-225).
func TestApplyFailures(t *testing.T) {
	doc := tree(F1)
	tests := []struct {
		name string
		ops  []Op
		code string
		msg  string
		data []Field
	}{
		{"case-224/unknown-type", []Op{{Type: "zap"}}, CodeInvalidOp, "unknown op type", []Field{F("opType", "zap")}},
		{"add-nil-item", []Op{{Type: OpAdd, AtEnd: true}}, CodeInvalidOp, "add op requires item with key", nil},
		{"add-empty-key", []Op{{Type: OpAdd, Item: &Item{}, AtEnd: true}}, CodeInvalidOp, "add op requires item with key", nil},
		{"add-existing", []Op{{Type: OpAdd, Item: newItem("k2"), AtEnd: true}}, CodeInvalidOp, "add op references existing key", []Field{F("key", "k2")}},
		{"case-224/negative-position", []Op{{Type: OpAdd, Item: newItem("n"), Position: -1}}, CodeInvalidOp, "invalid position", []Field{F("position", -1)}},
		{"remove-nil-keys", []Op{{Type: OpRemove}}, CodeInvalidOp, "remove op requires keys array", nil},
		{"set-no-key", []Op{{Type: OpSet, Title: ptr("x")}}, CodeInvalidOp, "set op requires key", nil},
		{"case-224/set-unknown", []Op{{Type: OpSet, Key: "zz", Title: ptr("x")}}, CodeInvalidOp, "set op references unknown key", []Field{F("key", "zz")}},
		{"set-no-patch", []Op{{Type: OpSet, Key: "k1"}}, CodeInvalidOp, "set op requires patch object", nil},
		{"note-no-key", []Op{{Type: OpNote, Note: &Note{Text: "x"}}}, CodeInvalidOp, "note op requires key", nil},
		{"note-unknown", []Op{{Type: OpNote, Key: "zz", Note: &Note{Text: "x"}}}, CodeInvalidOp, "note op references unknown key", []Field{F("key", "zz")}},
		{"note-no-note", []Op{{Type: OpNote, Key: "k1"}}, CodeInvalidOp, "note op requires note text", nil},
		{"move-no-key", []Op{{Type: OpMove, AtEnd: true}}, CodeInvalidOp, "move op requires key", nil},
		{"move-unknown", []Op{{Type: OpMove, Key: "zz", AtEnd: true}}, CodeInvalidOp, "move op references unknown key", []Field{F("key", "zz")}},
		{"move-bad-position", []Op{{Type: OpMove, Key: "k2", ParentKey: "k1", Position: -3}}, CodeInvalidOp, "invalid position", []Field{F("position", -3)}},
		{"case-225/dangling-active", []Op{{Type: OpSetActive, Key: "ghost"}}, CodeInvalidDocument, "active references unknown item", []Field{F("active", "ghost")}},
		{"add-unknown-parent", []Op{{Type: OpAdd, Item: newItem("n"), ParentKey: "zz", AtEnd: true}}, CodeInvalidDocument, "item references unknown parent", []Field{F("key", "n"), F("parentKey", "zz")}},
		{"move-into-self", []Op{{Type: OpMove, Key: "k3", ParentKey: "k3", AtEnd: true}}, CodeInvalidDocument, "parent chain cycle", []Field{F("key", "k4")}},
		{"first-op-fails-atomically", []Op{{Type: OpSetActive, Key: "k2"}, {Type: "zap"}}, CodeInvalidOp, "unknown op type", []Field{F("opType", "zap")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Apply(doc, tc.ops)
			if got != nil {
				t.Errorf("document returned with error")
			}
			wantErr(t, err, tc.code, 2, tc.msg, tc.data...)
		})
	}
	if !Equal(doc, tree(F1)) {
		t.Fatal("input document mutated by failing applies")
	}
}

// TestApplyOps covers the effect of each op and copy-on-write.
func TestApplyOps(t *testing.T) {
	doc := tree(F1)
	snapshot := tree(F1)
	ts := "t1"
	ops := []Op{
		{Type: OpAdd, Item: &Item{Key: "n", Title: "new", Done: true, CreatedAt: &ts, Notes: []Note{{Text: "x"}}}, ParentKey: "k2", AtEnd: true},
		{Type: OpSet, Key: "k2", Title: ptr("ALPHA"), Done: ptr(true)},
		{Type: OpNote, Key: "k2", Note: &Note{Timestamp: "t2", Text: "closed"}},
		{Type: OpNote, Key: "k2", Note: &Note{Timestamp: "", Text: "second"}},
		{Type: OpMove, Key: "k4", ParentKey: "", AtEnd: true},
		{Type: OpRemove, Keys: []string{"k3"}},
		{Type: OpSetActive, Key: "n"},
	}
	got, err := Apply(doc, ops)
	if err != nil {
		t.Fatal(err)
	}
	if !Equal(doc, snapshot) {
		t.Fatal("input document mutated")
	}
	want := "root1\n  ALPHA ✓\n    new ✓ *\nroot2\nbeta-kid\n"
	if titlesOf(got) != want {
		t.Errorf("tree =\n%s\nwant\n%s", titlesOf(got), want)
	}
	alpha := byTitle(got, "ALPHA")
	if !reflect.DeepEqual(alpha.Notes, []Note{{"t2", "closed"}, {"", "second"}}) {
		t.Errorf("notes = %v", alpha.Notes)
	}
	if byTitle(got, "root2") != doc.Items[4] {
		t.Error("untouched item was copied")
	}
	// Applying no ops validates and returns an equal copy.
	same, err := Apply(doc, nil)
	if err != nil || !Equal(same, doc) {
		t.Fatalf("Apply(nil) = %v, %v", same, err)
	}
}

// TestApplyManyAdds exercises the key index on long op lists.
func TestApplyManyAdds(t *testing.T) {
	doc := tree(F1)
	var ops []Op
	for i := 0; i < 50; i++ {
		k := "n" + strings.Repeat("x", i)
		ops = append(ops, Op{Type: OpAdd, Item: newItem(k), ParentKey: "k1", AtEnd: true})
	}
	ops = append(ops, Op{Type: OpAdd, Item: newItem("nxx"), AtEnd: true})
	_, err := Apply(doc, ops)
	wantErr(t, err, CodeInvalidOp, 2, "add op references existing key", F("key", "nxx"))
	got, err := Apply(doc, ops[:50])
	if err != nil || len(got.Items) != 55 {
		t.Fatalf("got %d items, %v", len(got.Items), err)
	}
}

// TestValidate covers the write-time checks in order (cases 171-174).
func TestValidate(t *testing.T) {
	mk := func(active string, items ...*Item) *Document { return &Document{Active: active, Items: items} }
	tests := []struct {
		name string
		doc  *Document
		msg  string
		data []Field
	}{
		{"nil", nil, "document items must be an array", nil},
		{"missing-key", mk("", &Item{Key: "a"}, &Item{}), "item missing key", nil},
		{"case-173/duplicate", mk("", &Item{Key: "a"}, &Item{Key: "a"}), "duplicate item key", []Field{F("key", "a")}},
		{"missing-key-before-dup", mk("", &Item{Key: "a"}, &Item{}, &Item{Key: "a"}), "item missing key", nil},
		{"case-172/unknown-parent", mk("", &Item{Key: "a", ParentKey: "missing"}), "item references unknown parent", []Field{F("key", "a"), F("parentKey", "missing")}},
		{"case-174/self-parent", mk("", &Item{Key: "a"}, &Item{Key: "b", ParentKey: "b"}), "parent chain cycle", []Field{F("key", "b")}},
		{"cycle-first-in-array-order", mk("", &Item{Key: "x", ParentKey: "c"}, &Item{Key: "c", ParentKey: "d"}, &Item{Key: "d", ParentKey: "c"}), "parent chain cycle", []Field{F("key", "x")}},
		{"parent-before-cycle", mk("", &Item{Key: "c", ParentKey: "c"}, &Item{Key: "x", ParentKey: "nope"}), "item references unknown parent", []Field{F("key", "x"), F("parentKey", "nope")}},
		{"case-171/active", mk("ghost", &Item{Key: "a"}), "active references unknown item", []Field{F("active", "ghost")}},
		{"cycle-before-active", mk("ghost", &Item{Key: "a", ParentKey: "b"}, &Item{Key: "b", ParentKey: "a"}), "parent chain cycle", []Field{F("key", "a")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			wantErr(t, Validate(tc.doc), CodeInvalidDocument, 2, tc.msg, tc.data...)
		})
	}
	for _, ok := range []string{F1, F2, F3, F4, F5} {
		if err := Validate(tree(ok)); err != nil {
			t.Errorf("Validate(fixture) = %v", err)
		}
	}
	if err := Validate(NewDocument()); err != nil {
		t.Errorf("Validate(empty) = %v", err)
	}
}

// TestApplyKnownValid checks the incremental validation of Apply: on a
// document known to be valid, ops that break it fail exactly as the full
// validation makes them fail, and ops that keep it valid succeed.
func TestApplyKnownValid(t *testing.T) {
	base := func() *Document {
		d := &Document{Active: "b", Items: []*Item{newItem("a"), {Key: "b", ParentKey: "a"}, newItem("c")}}
		if err := Validate(d); err != nil {
			t.Fatal(err)
		}
		return d
	}
	tests := []struct {
		name string
		ops  []Op
		want string // error code, "" for success
	}{
		{"leaf under existing parent", []Op{{Type: OpAdd, Item: newItem("n"), ParentKey: "b", AtEnd: true}, {Type: OpSetActive, Key: "n"}}, ""},
		{"note and set", []Op{{Type: OpNote, Key: "a", Note: &Note{Text: "x"}}, {Type: OpSet, Key: "c", Title: new("t")}}, ""},
		{"subtree in order", []Op{{Type: OpAdd, Item: newItem("n"), AtEnd: true}, {Type: OpAdd, Item: newItem("m"), ParentKey: "n", AtEnd: true}}, ""},
		{"child before parent (valid, full check)", []Op{{Type: OpAdd, Item: newItem("m"), ParentKey: "n", AtEnd: true}, {Type: OpAdd, Item: newItem("n"), AtEnd: true}}, ""},
		{"orphan", []Op{{Type: OpAdd, Item: newItem("n"), ParentKey: "zz", AtEnd: true}}, CodeInvalidDocument},
		{"own parent", []Op{{Type: OpAdd, Item: newItem("n"), ParentKey: "n", AtEnd: true}}, CodeInvalidDocument},
		{"two-item cycle", []Op{{Type: OpAdd, Item: newItem("m"), ParentKey: "n", AtEnd: true}, {Type: OpAdd, Item: newItem("n"), ParentKey: "m", AtEnd: true}}, CodeInvalidDocument},
		{"unknown active", []Op{{Type: OpSetActive, Key: "zz"}}, CodeInvalidDocument},
		{"remove a parent", []Op{{Type: OpRemove, Keys: []string{"a"}}}, CodeInvalidDocument},
		{"move into own child", []Op{{Type: OpMove, Key: "a", ParentKey: "b", AtEnd: true}}, CodeInvalidDocument},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fast, ferr := Apply(base(), tc.ops)
			slow, serr := Apply(&Document{Active: "b", Items: base().Items}, tc.ops) // not known valid
			if !reflect.DeepEqual(errText(ferr), errText(serr)) {
				t.Fatalf("known-valid %v, full %v", ferr, serr)
			}
			if got := Wrap(ferr); (ferr == nil) != (tc.want == "") || (ferr != nil && got.Code != tc.want) {
				t.Fatalf("error %v, want %q", ferr, tc.want)
			}
			if ferr == nil {
				if keysOf(fast) != keysOf(slow) || !fast.knownValid() {
					t.Fatalf("results differ or not marked: %s / %s", keysOf(fast), keysOf(slow))
				}
				if err := Validate(&Document{Active: fast.Active, Items: fast.Items}); err != nil {
					t.Fatalf("result invalid: %v", err)
				}
			}
		})
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	e := Wrap(err)
	return e.Code + ": " + e.Error()
}
