package codec

import (
	"bytes"
	"fmt"
	"math/rand"
	"slices"
	"sync"
	"testing"

	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/sampledoc"
)

// spliceDoc is a random document of hostile strings with unique keys.
func spliceDoc(r *rand.Rand) *noggin.Document {
	doc := randDoc(r, false)
	rename := map[string]string{}
	for i, it := range doc.Items {
		k := fmt.Sprintf("%s#%d", it.Key, i)
		if _, seen := rename[it.Key]; !seen {
			rename[it.Key] = k
		}
		it.Key = k
	}
	for _, it := range doc.Items {
		if it.ParentKey != "" {
			it.ParentKey = rename[it.ParentKey]
		}
	}
	if doc.Active != "" {
		doc.Active = rename[doc.Active]
	}
	return doc
}

// sourceOf reads text as decodeYAMLSource does, splitting items lists of
// splitMin bytes or more in two.
func sourceOf(t testing.TB, text []byte, splitMin int) (*noggin.Document, *Source) {
	t.Helper()
	spans := &spanList{}
	doc, ok := decodeFastSpans(text, splitMin, spans)
	if !ok {
		return nil, nil
	}
	if spans.n != len(doc.Items) {
		t.Fatalf("%d spans for %d items", spans.n, len(doc.Items))
	}
	for i, it := range doc.Items {
		if got, want := text[spans.at(i).start:spans.at(i).end], appendItem(nil, it); !bytes.Equal(got, want) {
			t.Fatalf("item %d: span %q, encoded %q", i, got, want)
		}
	}
	return doc, &Source{raw: text, items: doc.Items, spans: spans}
}

// randomOps applies ops drawn from data (two bytes each) to doc one by
// one, skipping those Apply refuses, and returns the result.
func randomOps(r *rand.Rand, doc *noggin.Document, data []byte) *noggin.Document {
	for k := 0; k+1 < len(data); k += 2 {
		if len(doc.Items) == 0 && data[k]%6 != 3 {
			continue
		}
		var it *noggin.Item
		if n := len(doc.Items); n > 0 {
			it = doc.Items[int(data[k+1])%n]
		}
		var op noggin.Op
		switch data[k] % 6 {
		case 0:
			title := randString(r)
			op = noggin.Op{Type: noggin.OpSet, Key: it.Key, Title: &title}
		case 1:
			done := !it.Done
			op = noggin.Op{Type: noggin.OpSet, Key: it.Key, Done: &done}
		case 2:
			op = noggin.Op{Type: noggin.OpNote, Key: it.Key, Note: &noggin.Note{Timestamp: "2026-01-01T00:00:00.000Z", Text: randString(r)}}
		case 3:
			parent := ""
			if it != nil && data[k+1]%2 == 0 {
				parent = it.Key
			}
			op = noggin.Op{Type: noggin.OpAdd, ParentKey: parent, Position: int(data[k+1] % 3), AtEnd: data[k+1]%5 == 0,
				Item: &noggin.Item{Key: fmt.Sprintf("new-%d", k), Title: randString(r), Notes: []noggin.Note{}}}
		case 4:
			keys := []string{it.Key}
			seen := map[string]bool{it.Key: true} // a key "" is every root's parent, a cycle its own
			for i := 0; i < len(keys); i++ {      // and its descendants
				for _, c := range doc.Items {
					if c.ParentKey == keys[i] && !seen[c.Key] {
						seen[c.Key] = true
						keys = append(keys, c.Key)
					}
				}
			}
			op = noggin.Op{Type: noggin.OpRemove, Keys: keys}
		case 5:
			op = noggin.Op{Type: noggin.OpMove, Key: it.Key, Position: int(data[k+1] % 2)}
		}
		if next, err := noggin.Apply(doc, []noggin.Op{op}); err == nil {
			doc = next
		}
	}
	return doc
}

// checkSplice: writing after from its file gives EncodeYAML(after).
func checkSplice(t testing.TB, after *noggin.Document, src *Source) {
	t.Helper()
	var out bytes.Buffer
	if err := writeYAMLFrom(&out, after, src); err != nil {
		t.Fatal(err)
	}
	if want := EncodeYAML(after); !bytes.Equal(out.Bytes(), want) {
		t.Fatalf("spliced write differs from the encoding\n--- spliced\n%s--- encoded\n%s", out.Bytes(), want)
	}
}

// TestWriteYAMLFrom: for random documents of hostile strings, read whole
// and in two halves, every item's span is its encoding, and a write after
// random ops copies the unchanged items to exactly EncodeYAML's bytes.
func TestWriteYAMLFrom(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	spliced := 0
	for i := range 1500 {
		doc := spliceDoc(r)
		text := EncodeYAML(doc)
		for _, splitMin := range []int{parallelMin, 32} {
			before, src := sourceOf(t, text, splitMin)
			if src == nil {
				continue
			}
			ops := make([]byte, 2*r.Intn(6))
			r.Read(ops)
			after := randomOps(r, before, ops)
			checkSplice(t, after, src)
			if after != before && len(after.Items) > 0 {
				spliced++
			}
			_ = i
		}
	}
	if spliced < 500 {
		t.Fatalf("only %d writes spliced: the generator no longer reaches the fast reader", spliced)
	}
}

// TestWriteYAMLFromLarge: a 10k-item noggin read in two halves by
// decodeYAMLSource: a push, a done in the middle, a removal and a move.
func TestWriteYAMLFromLarge(t *testing.T) {
	text := EncodeYAML(sampledoc.Doc(10000, 3))
	doc, src, err := decodeYAMLSource(text, nil)
	if err != nil || src == nil {
		t.Fatalf("no source: %v", err)
	}
	r := rand.New(rand.NewSource(1))
	var many []byte // moves and new items enough to build the map
	for k := range 2 * mapMisses {
		many = append(many, byte(3+2*(k%2)), byte(7*k))
	}
	for _, ops := range [][]byte{{3, 4}, {1, 77}, {4, 200}, {5, 9}, {0, 1, 2, 3, 3, 8, 4, 5}, many} {
		src.next, src.index, src.misses = 0, nil, 0
		checkSplice(t, randomOps(r, doc, ops), src)
		if len(ops) == len(many) && src.index == nil {
			t.Fatal("the moves did not build the map")
		}
	}
}

// FuzzSplice: a document drawn from a seed, ops from bytes.
func FuzzSplice(f *testing.F) {
	f.Add(int64(1), []byte{3, 4})
	f.Add(int64(2), []byte{0, 1, 4, 0})
	f.Add(int64(3), []byte{5, 1, 2, 2, 1, 1})
	f.Fuzz(func(t *testing.T, seed int64, ops []byte) {
		r := rand.New(rand.NewSource(seed))
		text := EncodeYAML(spliceDoc(r))
		for _, splitMin := range []int{parallelMin, 32} {
			before, src := sourceOf(t, text, splitMin)
			if src == nil {
				return
			}
			checkSplice(t, randomOps(r, before, ops), src)
		}
	})
}

// releases records the stretches a reader or a write releases, checking
// that each lies in data and that one goroutine's come in order; with
// scribble, it overwrites each stretch, so that a reader that read one
// again would read garbage.
type releases struct {
	mu       sync.Mutex
	data     []byte
	scribble bool
	got      [][2]int
}

func (r *releases) release(from, to int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, [2]int{from, to})
	if from < 0 || to > len(r.data) || to-from < ReleaseStep(len(r.data)) {
		panic(fmt.Sprintf("released [%d, %d) of %d bytes", from, to, len(r.data)))
	}
	if r.scribble {
		for i := from; i < to; i++ {
			r.data[i] = 0xff
		}
	}
}

// covered is how many bytes the releases cover, failing on an overlap.
func (r *releases) covered(t *testing.T) int {
	t.Helper()
	got := slices.Clone(r.got)
	slices.SortFunc(got, func(a, b [2]int) int { return a[0] - b[0] })
	n, end := 0, 0
	for _, g := range got {
		if g[0] < end {
			t.Fatalf("release [%d, %d) overlaps one ending at %d", g[0], g[1], end)
		}
		n, end = n+g[1]-g[0], g[1]
	}
	return n
}

// TestReleaseBehind: decodeYAMLSource's reader, in two halves, releases
// nearly all of a 4 MB file and does not read what it released (each
// stretch is overwritten as it is released, and the document is still
// what DecodeYAML reads; this holds for an items list that runs past the
// split, as here); a write from the Source releases in file order what it
// copied, and still writes the encoding.
func TestReleaseBehind(t *testing.T) {
	text := EncodeYAML(sampledoc.Doc(10000, 3))
	want, err := DecodeYAML(text)
	if err != nil {
		t.Fatal(err)
	}
	data := bytes.Clone(text)
	read := &releases{data: data, scribble: true}
	doc, src, err := decodeYAMLSource(data, read.release)
	if err != nil || src == nil {
		t.Fatalf("no source: %v", err)
	}
	if !noggin.Equal(doc, want) {
		t.Fatal("the document read while releasing differs")
	}
	if n := read.covered(t); n < len(text)-3*ReleaseStep(len(text)) {
		t.Fatalf("the reader released %d of %d bytes", n, len(text))
	}

	copy(data, text) // what a mapping shows when its dropped pages are touched again
	wrote := &releases{data: data}
	src.release = wrote.release
	after := randomOps(rand.New(rand.NewSource(1)), doc, []byte{3, 4, 1, 77})
	checkSplice(t, after, src)
	for i := 1; i < len(wrote.got); i++ {
		if wrote.got[i][0] != wrote.got[i-1][1] {
			t.Fatalf("write releases out of order: %v", wrote.got)
		}
	}
	if n := wrote.covered(t); n < len(text)-2*ReleaseStep(len(text)) {
		t.Fatalf("the write released %d of %d bytes", n, len(text))
	}
}
