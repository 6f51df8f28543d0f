package app

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/noggin-go/noggin/core/codec"
	"github.com/noggin-go/noggin/core/noggin"
)

// benchDoc builds n items with fan-out 10 and the cursor on the last leaf.
func benchDoc(n int) *noggin.Document {
	doc := noggin.NewDocument()
	created := "2026-01-01T00:00:00.000Z"
	keys := make([]string, 0, n)
	for i := range n {
		key := fmt.Sprintf("i-20260101-000000-%06x", i)
		parent := ""
		if i >= 10 {
			parent = keys[i/10-1]
		}
		it := &noggin.Item{Key: key, ParentKey: parent, Title: fmt.Sprintf("item %d", i), CreatedAt: &created, Notes: []noggin.Note{}}
		if i%3 == 0 {
			it.Notes = append(it.Notes, noggin.Note{Timestamp: created, Text: fmt.Sprintf("note on item %d", i)})
		}
		doc.Items = append(doc.Items, it)
		keys = append(keys, key)
	}
	doc.Active = keys[n-1]
	return doc
}

// BenchmarkMain runs whole CLI invocations in-process on a 10k-item noggin
// (the file is restored before every push).
func BenchmarkMain(b *testing.B) {
	raw := codec.EncodeYAML(benchDoc(10000))
	file := filepath.Join(b.TempDir(), "n.yaml")
	getenv := func(k string) string {
		if k == "NOGGIN" {
			return file
		}
		return ""
	}
	for _, argv := range [][]string{{"show", "--json"}, {"show"}, {"push", "x"}} {
		b.Run(argv[0]+fmt.Sprint(len(argv)), func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				if err := os.WriteFile(file, raw, 0o644); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if code := Main(argv, io.Discard, io.Discard, getenv); code != 0 {
					b.Fatalf("exit %d", code)
				}
			}
		})
	}
}
