package store

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"testing"
	"weak"

	"github.com/noggin-go/noggin/core/noggin"
)

// TestLongLivedStoreKeepsFewVersions: a store that stays open (noggin-mcp,
// noggin-rpc) keeps its latest document, not the versions its writes went
// through. One older version may stay: the derived index of the latest
// document reads the full index of an ancestor, rebuilt at least every
// few hundred writes. Before the fix this guards, every document kept all
// its ancestors through the applier that made it (noggin.Apply), and
// noggin-mcp on a 10k-item noggin grew by 0.4 MB a write.
func TestLongLivedStoreKeepsFewVersions(t *testing.T) {
	ctx := context.Background()
	e := &noggin.Engine{}
	fs, err := Open(ctx, filepath.Join(t.TempDir(), "n.yaml"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range []noggin.Store{fs, NewMemory("memory://t", nil)} {
		if _, err := e.Push(ctx, st, noggin.PushOpts{Title: "root"}); err != nil {
			t.Fatal(err)
		}
		var early []weak.Pointer[noggin.Document]
		for i := range 60 {
			var err error
			switch i % 5 {
			case 0:
				_, err = e.Add(ctx, st, noggin.AddOpts{Title: fmt.Sprint("todo ", i)})
			case 1, 2:
				_, err = e.Note(ctx, st, noggin.NoteOpts{Text: fmt.Sprint("note ", i)})
			case 3:
				_, err = e.Push(ctx, st, noggin.PushOpts{Title: fmt.Sprint("side ", i)})
			case 4:
				_, err = e.Pop(ctx, st, noggin.PopOpts{})
			}
			if err != nil {
				t.Fatalf("%s: write %d: %v", st.Describe(), i, err)
			}
			if i < 10 {
				doc, err := st.Load(ctx)
				if err != nil {
					t.Fatal(err)
				}
				early = append(early, weak.Make(doc))
			}
		}
		runtime.GC()
		runtime.GC()
		reachable := 0
		for _, w := range early {
			if w.Value() != nil {
				reachable++
			}
		}
		if reachable > 1 {
			t.Errorf("%s: %d of the first 10 versions are still reachable after 50 more writes, want at most 1", st.Describe(), reachable)
		}
	}
}
