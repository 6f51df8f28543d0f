package noggin

import (
	"fmt"
	"testing"
)

// FuzzResolve parses and resolves arbitrary paths against the F2 tree with
// any item (or none) active: it never panics, every failure is a
// path-not-found error with {path, detail}, and every success has an
// absolute path that resolves back to the same item. The shared document
// soon has a published full index: every answer must equal the answer of
// a never-read copy.
func FuzzResolve(f *testing.F) {
	for _, p := range []string{"/1/2", ".", "..", "-", "+", "-/1", "+/", "../../1", "//", "/01/002", "./..", " /1", "1//2"} {
		f.Add(p, uint8(4))
	}
	doc := tree(F2)
	f.Fuzz(func(t *testing.T, path string, activeIdx uint8) {
		active := ""
		if int(activeIdx) < len(doc.Items) {
			active = doc.Items[activeIdx].Key
		}
		it, err := Resolve(doc, active, path)
		if cit, cerr := Resolve(cold(doc), active, path); cit != it || fmt.Sprint(cerr) != fmt.Sprint(err) {
			t.Fatalf("Resolve(%q) = %v, %v; on a cold copy %v, %v", path, it, err, cit, cerr)
		}
		if err != nil {
			e, ok := err.(*Error)
			if !ok || e.Code != CodePathNotFound || e.ExitCode != 1 || len(e.Data) != 2 ||
				e.Data[0] != F("path", path) || e.Data[1].Name != "detail" || e.Data[1].Value != e.Message {
				t.Fatalf("Resolve(%q) error %#v", path, err)
			}
			return
		}
		abs := PathOf(doc, it.Key)
		if abs == "" {
			t.Fatalf("Resolve(%q) = %s without a path", path, it.Key)
		}
		back, err := Resolve(doc, "", abs)
		if err != nil || back != it {
			t.Fatalf("Resolve(%q) = %s (%s) but %s resolves to %v, %v", path, it.Key, abs, abs, back, err)
		}
	})
}

// fuzzKeys are the keys FuzzApply ops may name: F1's, new ones and bad ones.
var fuzzKeys = []string{"k1", "k2", "k3", "k4", "k5", "", "n1", "n2", "ghost"}

// decodeOps turns bytes into an op list, four bytes per op.
func decodeOps(data []byte) []Op {
	var ops []Op
	for len(data) >= 4 {
		b := data[:4]
		data = data[4:]
		op := Op{
			Key:       fuzzKeys[int(b[1])%len(fuzzKeys)],
			ParentKey: fuzzKeys[int(b[2])%len(fuzzKeys)],
			Position:  int(int8(b[3])) / 8,
			AtEnd:     b[3]%5 == 0,
		}
		switch b[0] % 8 {
		case 0:
			op.Type = OpAdd
			if b[1]%7 != 0 {
				op.Item = &Item{Key: op.Key, Title: "t", Done: b[2]%2 == 0, Notes: []Note{{Text: "n"}}}
			}
		case 1:
			op.Type = OpRemove
			if b[3]%3 != 0 {
				op.Keys = []string{op.Key, op.ParentKey}
			}
		case 2:
			op.Type = OpSet
			if b[3]%2 == 0 {
				op.Title = ptr("x")
			}
			if b[3]%3 == 0 {
				op.Done = ptr(b[2]%2 == 0)
			}
		case 3:
			op.Type = OpNote
			if b[3]%4 != 0 {
				op.Note = &Note{Timestamp: "t", Text: "x"}
			}
		case 4, 5:
			op.Type = OpMove
		case 6:
			op.Type = OpSetActive
		default:
			op.Type = "bogus"
		}
		ops = append(ops, op)
	}
	return ops
}

// FuzzApply applies random op lists to F1: it never panics, never
// modifies its input, fails only with invalid-op or invalid-document, and
// every result validates, diffs consistently and can be applied further.
func FuzzApply(f *testing.F) {
	f.Add([]byte{0, 6, 0, 5, 6, 6, 0, 0})       // add n1 under root at end, activate it
	f.Add([]byte{4, 1, 4, 0})                   // move root1 under root2
	f.Add([]byte{4, 2, 1, 0, 2, 2, 0, 0})       // move alpha first under root1, retitle
	f.Add([]byte{1, 2, 3, 1, 6, 1, 0, 0})       // remove alpha and beta (orphans beta-kid)
	f.Add([]byte{3, 1, 0, 1, 0, 7, 1, 16})      // note, add at position 2
	f.Add([]byte{7, 0, 0, 0})                   // unknown op
	f.Add([]byte{4, 3, 3, 0})                   // move beta into itself
	f.Add([]byte{0, 7, 0, 248, 0, 6, 0, 0})     // negative position
	f.Add([]byte{2, 8, 0, 3, 6, 8, 0, 0, 7, 7}) // dangling active, trailing bytes
	f.Fuzz(func(t *testing.T, data []byte) {
		doc := tree(F1)
		ops := decodeOps(data)
		got, err := Apply(doc, ops)
		if !Equal(doc, tree(F1)) {
			t.Fatal("input mutated")
		}
		// The same ops on the same document known valid and indexed (a
		// long-lived store's) or with its key index (a file just read)
		// give the same result or the same error, and the result's
		// derived index answers as a fresh one.
		for i, prep := range []func(*Document){
			func(d *Document) { _ = Validate(d); Index(d) },
			func(d *Document) { _ = CheckKeys(d) },
			func(d *Document) { _ = CheckKeys(d); Index(d) }, // a file just read, indexed on its key map
		} {
			d := tree(F1)
			prep(d)
			got2, err2 := Apply(d, ops)
			if (err == nil) != (err2 == nil) || err != nil && err.Error() != err2.Error() {
				t.Fatalf("prepared input %d: error %v, plain %v", i, err2, err)
			}
			if err != nil {
				continue
			}
			if !Equal(got, got2) {
				t.Fatalf("prepared input %d: result differs", i)
			}
			for _, it := range got2.Items {
				if p, want := PathOf(got2, it.Key), PathOf(&Document{Items: got2.Items}, it.Key); p != want {
					t.Fatalf("prepared input %d: path of %s %q, fresh %q", i, it.Key, p, want)
				}
			}
		}
		if err != nil {
			if e, ok := err.(*Error); !ok || (e.Code != CodeInvalidOp && e.Code != CodeInvalidDocument) {
				t.Fatalf("error %#v", err)
			}
			return
		}
		if err := Validate(got); err != nil {
			t.Fatalf("result invalid: %v", err)
		}
		again, err := Apply(doc, ops)
		if err != nil || !Equal(got, again) {
			t.Fatalf("not deterministic: %v", err)
		}
		// Every item of a valid document has a path that resolves back.
		for _, it := range got.Items {
			p := PathOf(got, it.Key)
			if back, err := Resolve(got, "", p); err != nil || back.Key != it.Key {
				t.Fatalf("%s: path %q resolves to %v, %v", it.Key, p, back, err)
			}
		}
		// The fast diff paths agree with the plain algorithm, whether or not
		// the documents share items.
		for _, pair := range [][2]*Document{{doc, got}, {got, doc}, {tree(F1), got}, {got, again}} {
			fast, slow := changesString(Diff(pair[0], pair[1])), changesString(diffSlow(pair[0], pair[1]))
			if fast != slow {
				t.Fatalf("Diff = %s\nslow = %s", fast, slow)
			}
		}
		if Equal(doc, got) && len(Diff(doc, got)) != 0 {
			t.Fatal("equal documents with a non-empty diff")
		}
	})
}
