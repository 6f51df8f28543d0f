package store

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/noggin-go/noggin/core/noggin"
)

// TestReplayOtherProcessWrites: a long-lived store re-reading a file that
// other noggin processes wrote applies their journal entries' ops to the
// document it has (its unchanged items stay the same values) and gets the
// document the file decodes to, item for item; a write outside the
// journal, a damaged journal line or a journal that does not reach back
// decode the file instead.
func TestReplayOtherProcessWrites(t *testing.T) {
	ctx := context.Background()
	e := &noggin.Engine{}
	p := filepath.Join(t.TempDir(), "n.yaml")
	watcher, err := Open(ctx, p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	writer := func() noggin.Store {
		t.Helper()
		st, err := Open(ctx, p, Options{MapFiles: true}) // as the CLI opens it
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	if _, err := e.Push(ctx, writer(), noggin.PushOpts{Title: "first"}); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name     string
		write    func() error
		replayed bool
	}{
		{"push", func() error { _, err := e.Push(ctx, writer(), noggin.PushOpts{Title: "kid"}); return err }, true},
		{"note", func() error { _, err := e.Note(ctx, writer(), noggin.NoteOpts{Text: "n"}); return err }, true},
		{"two writes at once", func() error {
			if _, err := e.Add(ctx, writer(), noggin.AddOpts{Title: "a"}); err != nil {
				return err
			}
			_, err := e.Done(ctx, writer(), noggin.DoneOpts{CloseAll: true})
			return err
		}, true},
		{"undo", func() error { _, err := e.Undo(ctx, writer(), false); return err }, true},
		{"a write outside the journal", func() error {
			b, _ := os.ReadFile(p)
			return os.WriteFile(p, append(b, []byte("# an editor\n")...), 0o644)
		}, false},
		{"after it, a noggin write again", func() error { _, err := e.Push(ctx, writer(), noggin.PushOpts{Title: "more"}); return err }, true},
		{"a journal without the chain", func() error {
			if _, err := e.Push(ctx, writer(), noggin.PushOpts{Title: "lost"}); err != nil {
				return err
			}
			return os.WriteFile(p+historySuffix, nil, 0o644)
		}, false},
	}
	for _, st := range steps {
		before, err := watcher.Load(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.write(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		got, err := watcher.Load(ctx)
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		fresh, err := Open(ctx, p, Options{MapFiles: true})
		if err != nil {
			t.Fatal(err)
		}
		want, err := fresh.Load(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !noggin.Equal(got, want) || got.Revision() != want.Revision() {
			t.Fatalf("%s: the watcher's document is not the file's", st.name)
		}
		if shared := got.Items[0] == before.Items[0]; shared != st.replayed {
			t.Fatalf("%s: first item kept %v, want %v (replayed)", st.name, shared, st.replayed)
		}
	}
}
