package noggin_test

import (
	"fmt"
	"runtime"
	"testing"
	"weak"

	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/sampledoc"
)

// TestApplyKeepsNoAncestors: a long-lived store keeps only its latest
// document, so the documents before it must become garbage. A result of
// Apply once lived inside the applier that made it, which also held the
// input's index, so every document kept all the versions before it alive:
// a noggin-mcp on a 10k-item noggin grew to 790 MB of RSS over 2,000
// writes. The writes here take every path of Apply: derived indexes
// (notes, adds), a full re-index after a move, and plain documents.
func TestApplyKeepsNoAncestors(t *testing.T) {
	for _, indexed := range []bool{true, false} {
		doc := sampledoc.Doc(300, 1)
		if err := noggin.Validate(doc); err != nil {
			t.Fatal(err)
		}
		if indexed {
			noggin.Index(doc)
		}
		var first []weak.Pointer[noggin.Document]
		for i := range 40 {
			key := doc.Items[i%len(doc.Items)].Key
			var ops []noggin.Op
			switch i % 4 {
			case 0, 1:
				ops = []noggin.Op{{Type: noggin.OpNote, Key: key, Note: &noggin.Note{Timestamp: "2026-01-01T00:00:00.000Z", Text: "n"}}}
			case 2:
				it := &noggin.Item{Key: fmt.Sprintf("i-20260101-000000-%06x", i), ParentKey: key, Title: "t"}
				ops = []noggin.Op{{Type: noggin.OpAdd, Item: it, ParentKey: key, AtEnd: true}}
			case 3:
				ops = []noggin.Op{{Type: noggin.OpMove, Key: doc.Items[len(doc.Items)-1].Key, ParentKey: "", AtEnd: true}}
			}
			next, err := noggin.Apply(doc, ops)
			if err != nil {
				t.Fatalf("write %d: %v", i, err)
			}
			if i < 8 {
				first = append(first, weak.Make(next))
			}
			doc = next
		}
		runtime.GC()
		runtime.GC()
		for i, w := range first {
			if w.Value() != nil {
				t.Errorf("indexed=%v: the result of write %d is still reachable after 40 more writes", indexed, i)
			}
		}
		runtime.KeepAlive(doc)
	}
}
