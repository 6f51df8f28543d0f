package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"reflect"
	"sort"
	"testing"

	"github.com/noggin-go/noggin/core/internal/codec"
	"github.com/noggin-go/noggin/core/noggin"
)

// lazyFile writes a generated noggin of n items (benchFile), then writes
// it again through a one-shot store, so that its journal's last after is
// the file's digest.
func lazyFile(t *testing.T, n int) string {
	t.Helper()
	p := benchFile(t, n)
	mustAdd(t, mustOpen(t, p, Options{MapFiles: true}), "lazy-probe")
	return p
}

func loadLazy(t *testing.T, s noggin.Store) *noggin.Document {
	t.Helper()
	doc, err := s.(LazyLoader).LoadLazy(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func undecoded(doc *noggin.Document) int {
	n := 0
	for _, it := range doc.Items {
		if it.Undecoded() {
			n++
		}
	}
	return n
}

// TestLoadLazy: a one-shot show of a file this build wrote reads only the
// keys, decodes the items its view shows, and shows what a full read
// shows, for every item and every kind of view.
func TestLoadLazy(t *testing.T) {
	p := lazyFile(t, 300)
	s := mustOpen(t, p, Options{MapFiles: true})
	doc := loadLazy(t, s)
	if n := undecoded(doc); n != len(doc.Items) {
		t.Fatalf("%d of %d items undecoded", n, len(doc.Items))
	}
	data, _ := os.ReadFile(p)
	full, err := codec.DecodeYAML(data)
	if err != nil {
		t.Fatal(err)
	}
	e := noggin.NewEngine()
	show := func(d *noggin.Document, o noggin.ShowOpts) *noggin.View {
		v, err := e.Show(context.Background(), Pinned(s, d), o)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if got, want := show(doc, noggin.ShowOpts{}), show(full, noggin.ShowOpts{}); !reflect.DeepEqual(got, want) {
		t.Fatalf("show: got %+v, want %+v", got, want)
	}
	if n := len(doc.Items) - undecoded(doc); n == 0 || n > 40 {
		t.Fatalf("a show decoded %d of %d items", n, len(doc.Items))
	}
	for _, it := range full.Items {
		for _, o := range []noggin.ShowOpts{{}, {NoChildren: true}, {WithSiblings: true}} {
			o.Path = noggin.PathOf(full, it.Key)
			if got, want := show(doc, o), show(full, o); !reflect.DeepEqual(got, want) {
				t.Fatalf("show %+v: got %+v, want %+v", o, got, want)
			}
		}
	}
}

// TestLoadLazyOnlyWhatThisBuildWrote: any other file, or store, is read
// whole.
func TestLoadLazyOnlyWhatThisBuildWrote(t *testing.T) {
	for _, c := range []struct {
		name   string
		change func(t *testing.T, p string)
		o      Options
	}{
		{"no journal", func(t *testing.T, p string) {
			t.Helper()
			_ = os.Remove(p + historySuffix)
		}, Options{MapFiles: true}},
		{"another length", func(t *testing.T, p string) {
			t.Helper()
			appendTo(t, p, "# more\n")
		}, Options{MapFiles: true}},
		{"the same length, another file", func(t *testing.T, p string) {
			t.Helper()
			data, _ := os.ReadFile(p)
			if err := os.WriteFile(p, bytes.Replace(data, []byte("lazy-probe"), []byte("lazy-prObe"), 1), 0o644); err != nil {
				t.Fatal(err)
			}
		}, Options{MapFiles: true}},
		{"long-lived store", func(*testing.T, string) {}, Options{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := lazyFile(t, 30)
			c.change(t, p)
			doc := loadLazy(t, mustOpen(t, p, c.o))
			if n := undecoded(doc); n != 0 || len(doc.Items) != 31 {
				t.Fatalf("%d of %d items undecoded", n, len(doc.Items))
			}
		})
	}
}

func appendTo(t *testing.T, p, text string) {
	t.Helper()
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

// TestLoadLazyFileChanged: a tool that ignores the lock rewrites the file
// in place, or cuts it short, after a show or a push read it lazily, and
// puts the file's times back: the verb fails, without a crash, and writes
// nothing (a show with io: the file changed while it was read).
func TestLoadLazyFileChanged(t *testing.T) {
	for _, write := range []bool{false, true} {
		t.Run(fmt.Sprint("write=", write), func(t *testing.T) { lazyFileChanged(t, write) })
	}
}

func lazyFileChanged(t *testing.T, write bool) {
	t.Helper()
	for _, c := range []struct {
		name   string
		change func(p string) error
	}{
		{"rewritten", func(p string) error {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(p, bytes.ReplaceAll(data, []byte("key: "), []byte("kez: ")), 0o644)
		}},
		{"cut short", func(p string) error { return os.Truncate(p, 10) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := lazyFile(t, 2000)
			fi, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			s := mustOpen(t, p, Options{MapFiles: true})
			doc := loadLazy(t, s)
			if n := undecoded(doc); n != len(doc.Items) {
				t.Fatalf("%d of %d items undecoded", n, len(doc.Items))
			}
			if err := c.change(p); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(p, fi.ModTime(), fi.ModTime()); err != nil {
				t.Fatal(err)
			}
			changed, _ := os.ReadFile(p)
			e := noggin.NewEngine()
			if write {
				_, err = e.Push(context.Background(), Pinned(s, doc), noggin.PushOpts{Title: "x"})
			} else {
				_, err = e.Show(context.Background(), Pinned(s, doc), noggin.ShowOpts{Path: "/1"})
			}
			// A show fails with io; a write sees the file's new stamp under
			// the lock, reads it whole and refuses it as it is now.
			var ne *noggin.Error
			if !errors.As(err, &ne) || (ne.Code != noggin.CodeIO && !write) {
				t.Fatalf("%v, want an io error", err)
			}
			if now, _ := os.ReadFile(p); !bytes.Equal(now, changed) {
				t.Fatal("the file was written")
			}
		})
	}
}

// TestLoadLazyChecksEveryByte: a file of the journal's length that differs
// from the one this build wrote by one letter — in the first item, at the
// middle where the read splits in two, in the last — is read whole,
// whatever the lazy read made of it (the CRC goes with the read, and is
// only known at its end).
func TestLoadLazyChecksEveryByte(t *testing.T) {
	p := lazyFile(t, 4000) // over a megabyte: read in two halves
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var titles []int
	for i := 0; ; {
		j := bytes.Index(data[i:], []byte("\n    title: "))
		if j < 0 {
			break
		}
		i += j + len("\n    title: ")
		titles = append(titles, i)
	}
	mid := sort.SearchInts(titles, len(data)/2)
	for _, at := range []int{titles[0], titles[mid-1], titles[mid], titles[mid+1], titles[len(titles)-1]} {
		t.Run(fmt.Sprint(at), func(t *testing.T) {
			changed := bytes.Clone(data)
			for !('a' <= changed[at] && changed[at] <= 'z' || 'A' <= changed[at] && changed[at] <= 'Z') {
				at++
			}
			changed[at] ^= 'a' ^ 'A' // a letter's case: the same length, still valid
			if err := os.WriteFile(p, changed, 0o644); err != nil {
				t.Fatal(err)
			}
			doc := loadLazy(t, mustOpen(t, p, Options{MapFiles: true}))
			if n := undecoded(doc); n != 0 || len(doc.Items) != 4001 {
				t.Fatalf("%d of %d items undecoded", n, len(doc.Items))
			}
			full, err := codec.DecodeYAML(changed)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(doc.Items, full.Items) {
				t.Fatal("the read is not the changed file's")
			}
		})
	}
}

// TestLoadLazyKeepsTopLevelFields: another tool's top-level fields after
// the items list — a sequence of "  - " entries like the list's own among
// them — are read (the lazy read leaves such a file to the whole one) and
// kept by the writes of one-shot stores. The lazy read once took the
// sequence's entries for items and lost the fields.
func TestLoadLazyKeepsTopLevelFields(t *testing.T) {
	p := benchFile(t, 40)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, "map:\n  a: 1\nword: x\nlist:\n  - key: zzzzzzzz\n    parentKey: null\n  - '0': null\n"...)
	if err := os.WriteFile(p, data, 0o666); err != nil {
		t.Fatal(err)
	}
	mustAdd(t, mustOpen(t, p, Options{MapFiles: true}), "first") // now written by this build
	for _, key := range []string{"second", "third"} {
		s := mustOpen(t, p, Options{MapFiles: true})
		doc := loadLazy(t, s)
		if len(doc.Extra) != 3 || doc.Extra[0].Name != "map" || doc.Extra[2].Name != "list" {
			t.Fatalf("lazy read's top-level fields: %v", doc.Extra)
		}
		mustAdd(t, s, key)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasSuffix(b, []byte("map:\n  a: 1\nword: x\nlist:\n  - key: zzzzzzzz\n    parentKey: null\n  - '0': null\n")) {
			t.Fatalf("after adding %s the file ends\n%s", key, b[max(0, len(b)-300):])
		}
	}
	if keys := fileKeys(t, p); len(keys) != 43 {
		t.Fatalf("%d items, want 43", len(keys))
	}
}
