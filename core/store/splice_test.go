package store

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/noggin-go/noggin/core/internal/codec"
)

// TestSpliceOnlyWhatThisBuildWrote: a one-shot write copies the unchanged
// items' bytes from the file only when the file is what the last
// journalled write left. The file here quotes a title needlessly (as
// another tool may): copied, the quotes stay; encoded, they go.
func TestSpliceOnlyWhatThisBuildWrote(t *testing.T) {
	const odd = "schemaVersion: 1\nactive: null\nitems:\n  - key: a\n    parentKey: null\n    title: 'abc'\n    done: false\n    notes: []\n"
	for _, c := range []struct {
		name    string
		journal string // "" = none
		mapped  bool
		copied  bool
	}{
		{"no journal", "", true, false},
		{"journal of this file", `{"v":1,"seq":1,"verb":"push","before":"crc:0:0000000000000000","after":"` + digestOf([]byte(odd)) + `"}` + "\n", true, true},
		{"journal of another file", `{"v":1,"seq":1,"verb":"push","before":"crc:0:0000000000000000","after":"crc:1:0000000000000000"}` + "\n", true, false},
		// Copied while the file's digest is worked out, then encoded again.
		{"journal of another file of this length", `{"v":1,"seq":1,"verb":"push","before":"crc:0:0000000000000000","after":"crc:` + fmt.Sprint(len(odd)) + `:0000000000000000"}` + "\n", true, false},
		{"torn journal", `{"v":1,"seq":1,"verb":"push","after":"` + digestOf([]byte(odd)) + ``, true, false},
		{"long-lived store", `{"v":1,"seq":1,"verb":"push","before":"crc:0:0000000000000000","after":"` + digestOf([]byte(odd)) + `"}` + "\n", false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "n.yaml")
			if err := os.WriteFile(p, []byte(odd), 0o644); err != nil {
				t.Fatal(err)
			}
			if c.journal != "" {
				if err := os.WriteFile(p+historySuffix, []byte(c.journal), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			s := mustOpen(t, p, Options{MapFiles: c.mapped})
			if err := addItem(s, "b"); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if copied := strings.Contains(string(got), "title: 'abc'"); copied != c.copied {
				t.Fatalf("copied = %v, want %v:\n%s", copied, c.copied, got)
			}
			if !strings.HasSuffix(string(got), "  - key: b\n    parentKey: null\n    title: b\n    done: false\n    notes: []\n") {
				t.Fatalf("the new item is not at the end:\n%s", got)
			}
			// The journal's new entry names the file as read and as written.
			data, _ := os.ReadFile(p + historySuffix)
			if after := lastAfter(data); after != digestOf(got) {
				t.Fatalf("journal after %q, file %q", after, digestOf(got))
			}
			if want := `"before":"` + digestOf([]byte(odd)) + `"`; !strings.Contains(string(data[bytes.LastIndexByte(data[:len(data)-1], '\n')+1:]), want) {
				t.Fatalf("journal's last entry has no %s:\n%s", want, data)
			}
			// And the next write trusts it.
			if err := addItem(mustOpen(t, p, Options{MapFiles: true}), "c"); err != nil {
				t.Fatal(err)
			}
			again, _ := os.ReadFile(p)
			if !strings.HasPrefix(string(again), string(got[:len(got)-1])) {
				t.Fatalf("the second write changed what it did not touch:\n%s\n---\n%s", got, again)
			}
		})
	}
}

// TestSpliceFileShrank: the mapped file shrinks (rewritten in place by a
// tool that ignores the lock) while a write copies from it, in a one-shot
// process or in a long-lived store that copies from the file it last
// wrote: the write encodes every item instead, and the file is right.
// (Within the mapping's last page a shortened file reads as zeros, without
// a fault: the stamp check catches it.)
func TestSpliceFileShrank(t *testing.T) {
	for _, longLived := range []bool{false, true} {
		for _, n := range []int{3, 400} { // within one page; past it (a fault)
			t.Run(fmt.Sprint("longLived=", longLived, "/", n), func(t *testing.T) {
				p := filepath.Join(t.TempDir(), "n.yaml")
				s := mustOpen(t, p, Options{})
				for i := range n {
					mustAdd(t, s, fmt.Sprint("k", i))
				}
				want, _ := os.ReadFile(p)
				copies := cutBeforeSplice(t, p)
				writer := s
				if !longLived {
					writer = mustOpen(t, p, Options{MapFiles: true})
				}
				if err := addItem(writer, "new"); err != nil {
					t.Fatal(err)
				}
				if *copies != 1 {
					t.Fatalf("%d copies from the file, want 1", *copies)
				}
				got, _ := os.ReadFile(p)
				if len(want) < 8192 == (n > 3) {
					t.Fatalf("%d bytes for %d items", len(want), n)
				}
				if !strings.HasPrefix(string(got), string(want[:len(want)-1])) || !strings.Contains(string(got), "key: new") {
					t.Fatalf("after the fault:\n%s", got)
				}
				if data, _ := os.ReadFile(p + historySuffix); lastAfter(data) != digestOf(got) {
					t.Fatal("the journal does not name the file written")
				}
			})
		}
	}
}

// TestLongLivedCopiesWhatItWrote: a long-lived store keeps where the items
// it wrote lie in the file, not the bytes, and copies the unchanged ones
// from the file while the file holds exactly what it wrote; every write
// gives the encoding of its document. After another writer's change, the
// store encodes every item again, and copies from its own next write on.
func TestLongLivedCopiesWhatItWrote(t *testing.T) {
	p := filepath.Join(t.TempDir(), "n.yaml")
	s := mustOpen(t, p, Options{})
	copies := 0
	beforeSplice = func() { copies++ }
	defer func() { beforeSplice = nil }()
	check := func(what string, wantCopies int) {
		t.Helper()
		doc, err := s.Load(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(p)
		if string(got) != string(codec.EncodeYAML(doc)) {
			t.Fatalf("%s: the file is not the encoding of the store's document:\n%s", what, got)
		}
		if copies != wantCopies {
			t.Fatalf("%s: %d copies from the file, want %d", what, copies, wantCopies)
		}
	}
	for i := range 300 {
		mustAdd(t, s, fmt.Sprint("k", i))
	}
	check("300 writes", 299) // the first write has nothing to copy
	if fs := s.(*fileStore); fs.shot.raw != nil {
		t.Fatal("a long-lived store keeps the file's bytes")
	}
	// Another writer: same length, other bytes, its times put back.
	b, _ := os.ReadFile(p)
	st, _ := os.Stat(p)
	b = []byte(strings.Replace(string(b), "key: k7\n", "key: x7\n", 1))
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	_ = os.Chtimes(p, st.ModTime(), st.ModTime())
	mustAdd(t, s, "after")
	check("a write after another writer's", 299)
	if keys := fileKeys(t, p); keys[7] != "x7" || keys[len(keys)-1] != "after" {
		t.Fatalf("the other writer's change is lost: %v", keys[:10])
	}
	mustAdd(t, s, "again")
	check("the write after", 300)
}

// TestMappedWriteAfterChange: a one-shot store that read the file, then
// writes after another writer changed it (replaced by rename, or
// rewritten in place to the same length): the write applies to the file
// as it is under the lock, not to what the store read.
func TestMappedWriteAfterChange(t *testing.T) {
	for _, inPlace := range []bool{false, true} {
		t.Run(fmt.Sprint("inPlace=", inPlace), func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "n.yaml")
			mustAdd(t, mustOpen(t, p, Options{}), "a1")
			one := mustOpen(t, p, Options{MapFiles: true}) // reads (maps) the file
			if inPlace {
				b, _ := os.ReadFile(p)
				b = []byte(strings.Replace(string(b), "key: a1", "key: b1", 1))
				f, err := os.OpenFile(p, os.O_WRONLY, 0)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := f.WriteAt(b, 0); err != nil {
					t.Fatal(err)
				}
				_ = f.Close()
				// a later time, as a rewrite a moment later would have
				st, _ := os.Stat(p)
				later := st.ModTime().Add(time.Second)
				_ = os.Chtimes(p, later, later)
			} else {
				mustAdd(t, mustOpen(t, p, Options{}), "b1")
			}
			if err := addItem(one, "c1"); err != nil {
				t.Fatal(err)
			}
			got := fileKeys(t, p)
			want := []string{"a1", "b1", "c1"}
			if inPlace {
				want = []string{"b1", "c1"}
			}
			if !slices.Equal(got, want) {
				t.Fatalf("keys %v, want %v", got, want)
			}
		})
	}
}

// TestSpliceLargeFileShrank: as TestSpliceFileShrank, on a file whose
// pieces are digested beside the write (summed): the digest meets the
// fault too, and the write encodes every item instead.
func TestSpliceLargeFileShrank(t *testing.T) {
	p := lazyFile(t, 30000)
	want, _ := os.ReadFile(p)
	copies := cutBeforeSplice(t, p)
	if err := addItem(mustOpen(t, p, Options{MapFiles: true}), "new"); err != nil {
		t.Fatal(err)
	}
	if *copies != 1 {
		t.Fatalf("%d copies from the file, want 1", *copies)
	}
	got, _ := os.ReadFile(p)
	if !strings.HasPrefix(string(got), string(want[:len(want)-1])) || !strings.Contains(string(got), "key: new") {
		t.Fatalf("after the fault: %d bytes, %d before", len(got), len(want))
	}
	if data, _ := os.ReadFile(p + historySuffix); lastAfter(data) != digestOf(got) {
		t.Fatal("the journal does not name the file written")
	}
}

// cutBeforeSplice makes the next writes cut the file at p to 10 bytes just
// before they copy from it, until the test ends; it counts those copies.
func cutBeforeSplice(t *testing.T, p string) *int {
	t.Helper()
	copies := new(int)
	beforeSplice = func() {
		*copies++
		if err := os.Truncate(p, 10); err != nil {
			t.Error(err)
		}
	}
	t.Cleanup(func() { beforeSplice = nil })
	return copies
}
