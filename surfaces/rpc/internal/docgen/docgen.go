// Package docgen builds deterministic noggin documents of a given size for
// load tests and benchmarks, and writes them with core/codec.
package docgen

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/noggin-go/noggin/core/codec"
	"github.com/noggin-go/noggin/core/noggin"
)

// Fanout is the number of children per item of a generated tree.
const Fanout = 10

// Document returns a document of n items: a tree where every item has up
// to Fanout children, filled breadth-first (items 1..10 are roots, 11..20
// children of item 1, …), every third item done and carrying a note. The
// active item is the last one (a deep leaf). Keys are "g-<n>".
func Document(n int) *noggin.Document {
	doc := noggin.NewDocument()
	created := "2026-01-01T00:00:00.000Z"
	for i := 0; i < n; i++ {
		it := &noggin.Item{
			Key:       fmt.Sprintf("g-%d", i+1),
			Title:     fmt.Sprintf("item %d", i+1),
			CreatedAt: &created,
			Notes:     []noggin.Note{},
		}
		if i >= Fanout {
			it.ParentKey = fmt.Sprintf("g-%d", i/Fanout)
		}
		if i%3 == 2 {
			it.Done = true
			it.Notes = []noggin.Note{{Timestamp: created, Text: "closed"}}
		}
		doc.Items = append(doc.Items, it)
	}
	if n > 0 {
		doc.Active = doc.Items[n-1].Key
	}
	return doc
}

// WriteYAML writes Document(n) as YAML to dir/name and returns the path.
func WriteYAML(dir, name string, n int) (string, error) {
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, codec.EncodeYAML(Document(n)), 0o644); err != nil {
		return "", err
	}
	return p, nil
}
