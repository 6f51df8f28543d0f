package store

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/noggin-go/noggin/core/noggin"
)

// TestUndoOnLongLivedStores: a store that stays open (as in noggin-mcp and
// noggin-rpc) undoes its own writes through the digest it remembers, and
// still refuses once another process rewrote the file; the memory store
// keeps a history of its own.
func TestUndoOnLongLivedStores(t *testing.T) {
	ctx := context.Background()
	e := &noggin.Engine{}
	p := filepath.Join(t.TempDir(), "n.yaml")
	fs, err := Open(ctx, p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	mem := NewMemory("memory://t", nil)
	for _, st := range []noggin.Store{fs, mem} {
		if _, err := e.Push(ctx, st, noggin.PushOpts{Title: "one"}); err != nil {
			t.Fatal(err)
		}
		if _, err := e.Note(ctx, st, noggin.NoteOpts{Text: "n"}); err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"note", "push"} {
			r, err := e.Undo(ctx, st, false)
			if err != nil || r.Entry.Verb != want {
				t.Fatalf("%s: undo: %+v %v", st.Describe(), r, err)
			}
		}
		doc, _ := st.Load(ctx)
		if len(doc.Items) != 0 {
			t.Fatalf("%s: after two undos %d items", st.Describe(), len(doc.Items))
		}
	}
	if _, err := e.Push(ctx, fs, noggin.PushOpts{Title: "mine"}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	if err := os.WriteFile(p, []byte(strings.Replace(string(b), "mine", "theirs", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Undo(ctx, fs, false); noggin.Wrap(err).Code != noggin.CodeUndoConflict {
		t.Fatalf("undo after a foreign write: %v", err)
	}
}
