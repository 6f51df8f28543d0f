package codec

import (
	"bytes"
	"io"
	"testing"

	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/sampledoc"
)

// The item cache must give exactly EncodeYAML's bytes for every version of
// a document that Apply produces, including changed, moved, removed and
// added items.
func TestItemCacheMatchesEncodeYAML(t *testing.T) {
	doc := sampledoc.Doc(500, 7)
	var c ItemCache
	var last []byte
	// write is what a long-lived store does: it hands back what the cache
	// wrote last.
	write := func(doc *noggin.Document) []byte {
		var out bytes.Buffer
		if err := c.writeYAML(&out, doc, last, nil); err != nil {
			t.Fatal(err)
		}
		last = out.Bytes()
		return bytes.Clone(last)
	}
	title, done := "renamed: with a colon", true
	steps := [][]noggin.Op{
		nil,
		{{Type: noggin.OpNote, Key: doc.Items[3].Key, Note: &noggin.Note{Timestamp: "2026-01-01T00:00:00.000Z", Text: "multi\nline"}}},
		{{Type: noggin.OpSet, Key: doc.Items[10].Key, Title: &title, Done: &done}},
		{{Type: noggin.OpMove, Key: doc.Items[20].Key, ParentKey: doc.Items[0].Key, AtEnd: true}},
		{{Type: noggin.OpRemove, Keys: []string{doc.Items[499].Key}}},
		{{Type: noggin.OpAdd, Item: &noggin.Item{Key: "new-1", Title: "'quoted' #x", Notes: []noggin.Note{}}, AtEnd: true}},
		{{Type: noggin.OpSetActive, Key: "new-1"}},
	}
	for i, ops := range steps {
		if ops != nil {
			next, err := noggin.Apply(doc, ops)
			if err != nil {
				t.Fatalf("step %d: %v", i, err)
			}
			doc = next
		}
		if got, want := write(doc), EncodeYAML(doc); !bytes.Equal(got, want) {
			t.Fatalf("step %d: item cache output differs from EncodeYAML", i)
		}
	}
	if c.spans == nil || c.spans.n != len(doc.Items) {
		t.Fatalf("the cache does not place the last encoding's items")
	}
	for range 100 { // one item replaced again and again
		next, err := noggin.Apply(doc, []noggin.Op{{Type: noggin.OpNote, Key: doc.Items[0].Key, Note: &noggin.Note{Text: "n"}}})
		if err != nil {
			t.Fatal(err)
		}
		doc = next
		if got := write(doc); !bytes.Equal(got, EncodeYAML(doc)) {
			t.Fatal("item cache output differs after many writes")
		}
	}
	// Without the last bytes, or after a failed write, every item is
	// encoded (and the bytes still right).
	var out bytes.Buffer
	if err := c.writeYAML(&out, doc, nil, nil); err != nil || !bytes.Equal(out.Bytes(), EncodeYAML(doc)) {
		t.Fatalf("a write without the last bytes: %v", err)
	}
	if err := c.writeYAML(failAfter{n: 1000}, doc, out.Bytes(), nil); err == nil {
		t.Fatal("a failing writer's error is lost")
	}
	if c.spans != nil {
		t.Fatal("the cache keeps the places of a failed write")
	}
	garbage := bytes.Repeat([]byte{'#'}, out.Len())
	out.Reset()
	if err := c.writeYAML(&out, doc, garbage, nil); err != nil || !bytes.Equal(out.Bytes(), EncodeYAML(doc)) {
		t.Fatalf("after a failed write, bytes were copied from the last ones: %v", err)
	}
}

// failAfter fails once n bytes were written.
type failAfter struct{ n int }

func (f failAfter) Write(b []byte) (int, error) {
	if len(b) > f.n {
		return 0, io.ErrShortWrite
	}
	return len(b), nil
}

// BenchmarkItemCache: a long-lived store's encoding after a note on a
// 10k-item noggin (the note's item changes, every other is reused).
func BenchmarkItemCache(b *testing.B) {
	doc := sampledoc.Doc(10000, 1)
	var c ItemCache
	var last bytes.Buffer
	if err := c.writeYAML(&last, doc, nil, nil); err != nil {
		b.Fatal(err)
	}
	var out bytes.Buffer
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		next, err := noggin.Apply(doc, []noggin.Op{{Type: noggin.OpNote, Key: doc.Items[i%len(doc.Items)].Key, Note: &noggin.Note{Text: "n"}}})
		if err != nil {
			b.Fatal(err)
		}
		doc = next
		i += 7
		out.Reset()
		if err := c.writeYAML(&out, doc, last.Bytes(), nil); err != nil {
			b.Fatal(err)
		}
		last, out = out, last
	}
}

// TestItemCacheReleases: a write that copies from what the last one wrote
// releases what it copied, in order, nearly all of it, and still writes
// the encoding.
func TestItemCacheReleases(t *testing.T) {
	doc := sampledoc.Doc(10000, 2)
	var c ItemCache
	var last bytes.Buffer
	if err := c.writeYAML(&last, doc, nil, nil); err != nil {
		t.Fatal(err)
	}
	next, err := noggin.Apply(doc, []noggin.Op{{Type: noggin.OpNote, Key: doc.Items[5000].Key, Note: &noggin.Note{Text: "n"}}})
	if err != nil {
		t.Fatal(err)
	}
	r := &releases{data: last.Bytes()}
	var out bytes.Buffer
	if err := c.writeYAML(&out, next, last.Bytes(), r.release); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), EncodeYAML(next)) {
		t.Fatal("the write is not the encoding")
	}
	for i := 1; i < len(r.got); i++ {
		if r.got[i][0] != r.got[i-1][1] {
			t.Fatalf("releases out of order: %v", r.got)
		}
	}
	if n := r.covered(t); n < last.Len()-2*ReleaseStep(last.Len()) {
		t.Fatalf("released %d of %d bytes", n, last.Len())
	}
}
