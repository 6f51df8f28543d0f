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

// TestUndoOlderDigests: a journal written by an earlier build carries
// sha256 digests; undo compares them in their own scheme, for one-shot and
// long-lived stores, and one that does not match is still a conflict.
func TestUndoOlderDigests(t *testing.T) {
	ctx := context.Background()
	e := &noggin.Engine{}
	for _, o := range []Options{{MapFiles: true}, {}} {
		p := filepath.Join(t.TempDir(), "n.yaml")
		st, err := Open(ctx, p, o)
		if err != nil {
			t.Fatal(err)
		}
		for _, title := range []string{"one", "two"} {
			if _, err := e.Push(ctx, st, noggin.PushOpts{Title: title}); err != nil {
				t.Fatal(err)
			}
		}
		// Rewrite the journal as an earlier build wrote it: sha256 of the
		// same bytes (the file after each write, rebuilt by undoing).
		j, _ := os.ReadFile(p + historySuffix)
		after2, _ := os.ReadFile(p)
		lines := strings.Split(strings.TrimSpace(string(j)), "\n")
		crc := digestOf(after2)
		sha := digestLike(after2, "sha256:", nil)
		if !strings.Contains(lines[1], crc) || !strings.HasPrefix(crc, "crc:") {
			t.Fatalf("journal line %s does not carry %s", lines[1], crc)
		}
		lines[1] = strings.ReplaceAll(lines[1], crc, sha)
		if err := os.WriteFile(p+historySuffix, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		st, _ = Open(ctx, p, o) // a fresh process
		if r, err := e.Undo(ctx, st, false); err != nil || r.Entry.Seq != 2 {
			t.Fatalf("%+v: undo over a sha256 digest: %+v %v", o, r, err)
		}
		// A sha256 digest that does not match is still a conflict.
		if err := os.WriteFile(p+historySuffix, []byte(strings.ReplaceAll(lines[0], `"after":"crc:`, `"after":"sha256:00`)+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		st, _ = Open(ctx, p, o)
		if _, err := e.Undo(ctx, st, false); noggin.Wrap(err).Code != noggin.CodeUndoConflict {
			t.Fatalf("%+v: undo over a wrong sha256 digest: %v", o, err)
		}
	}
}

// BenchmarkDigest compares the digest scheme with sha256 on a 4 MB noggin.
func BenchmarkDigest(b *testing.B) {
	data := make([]byte, 4<<20)
	for i := range data {
		data[i] = byte(i*7 + i>>9)
	}
	for _, like := range []string{"", "sha256:"} {
		name := "crc"
		if like != "" {
			name = "sha256"
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				_ = digestLike(data, like, nil)
			}
		})
	}
}
