package store

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/noggin-go/noggin/core/internal/codec"
	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/sampledoc"
)

// mappedKBOrNone is mappedKB, found false when the file is not mapped.
func mappedKBOrNone(path string) (kb int, found bool) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 5 && strings.Contains(fields[0], "-") && !strings.HasSuffix(fields[0], ":") {
			in = strings.TrimSuffix(strings.Join(fields[5:], " "), " (deleted)") == path
			found = found || in
			continue
		}
		if in && len(fields) == 3 && fields[0] == "Rss:" {
			n, _ := strconv.Atoi(fields[1])
			kb += n
		}
	}
	return kb, found
}

// mappedKB is the resident size, in kB, of this process's mappings of
// the file at path (also once it is replaced: "path (deleted)"), from
// /proc/self/smaps.
func mappedKB(t *testing.T, path string) int {
	t.Helper()
	kb, found := mappedKBOrNone(path)
	if !found {
		t.Fatalf("%s is not mapped", path)
	}
	return kb
}

// TestOneShotDropsWhatItRead: a one-shot store maps a large noggin, and
// drops the pages it has read from its memory as it reads them, hashes
// them (the history's digest) and copies them (the write): the mapping's
// resident size stays a few megabytes of a 12 MB file, so a process's
// peak is the decoded document, not the document and the file. The
// write is still the document's encoding.
func TestOneShotDropsWhatItRead(t *testing.T) {
	data := codec.EncodeYAML(sampledoc.Doc(30000, 1))
	p := filepath.Join(t.TempDir(), "n.yaml")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	// A journal whose last write left this file: the write copies from it.
	entry := `{"v":1,"seq":1,"verb":"push","before":"crc:0:0000000000000000","after":"` + digestOf(data) + `"}` + "\n"
	if err := os.WriteFile(p+historySuffix, []byte(entry), 0o644); err != nil {
		t.Fatal(err)
	}
	bound := len(data) / 1024 / 3
	s := mustOpen(t, p, Options{MapFiles: true})
	doc, err := s.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if kb := mappedKB(t, p); kb > bound {
		t.Fatalf("read: %d kB of the %d kB file still mapped in", kb, len(data)/1024)
	}
	hashed := -1 // after the history's digest, before the copy
	beforeSplice = func() { hashed = mappedKB(t, p) }
	defer func() { beforeSplice = nil }()
	if err := addItem(s, "dropped"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		when string
		kb   int
	}{{"hashed", hashed}, {"written", mappedKB(t, p)}} {
		if c.kb < 0 || c.kb > bound {
			t.Fatalf("%s: %d kB of the %d kB file still mapped in", c.when, c.kb, len(data)/1024)
		}
	}
	got, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(got, data[:len(data)-1]) || !bytes.HasSuffix(got, []byte("  - key: dropped\n    parentKey: null\n    title: dropped\n    done: false\n    notes: []\n")) {
		t.Fatal("the write is not the old file plus the new item")
	}
	journal, _ := os.ReadFile(p + historySuffix)
	last := journal[bytes.LastIndexByte(journal[:len(journal)-1], '\n')+1:]
	if !bytes.Contains(last, []byte(`"before":"`+digestOf(data)+`"`)) || lastAfter(journal) != digestOf(got) {
		t.Fatalf("the journal's entry %s does not name the files (%s before, %s after)", last, digestOf(data), digestOf(got))
	}
	if len(doc.Items) != 30000 {
		t.Fatalf("%d items", len(doc.Items))
	}
}

// TestLongLivedDropsWhatItChecks: before a write, a long-lived store
// maps the file it last wrote, checks its checksum and copies the
// unchanged items from it; it drops the pages as it checks (and copies)
// them, so a large noggin is not in its memory twice, decoded and mapped.
func TestLongLivedDropsWhatItChecks(t *testing.T) {
	p := filepath.Join(t.TempDir(), "n.yaml")
	if err := os.WriteFile(p, codec.EncodeYAML(sampledoc.Doc(30000, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	s := mustOpen(t, p, Options{})
	mustAdd(t, s, "first") // encodes every item: nothing to copy from yet
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	checked := -1 // after the check, before the copy
	beforeSplice = func() { checked = mappedKB(t, p) }
	defer func() { beforeSplice = nil }()
	mustAdd(t, s, "second")
	if bound := int(fi.Size()) / 1024 / 3; checked < 0 || checked > bound {
		t.Fatalf("checked: %d kB of the %d kB file mapped in", checked, fi.Size()/1024)
	}
	doc, err := s.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(codec.EncodeYAML(doc), want) {
		t.Fatal("the file is not the document's encoding")
	}
}

// TestReplanKeepsTheDigest: a long-lived store's write whose first plan
// was made on a document another write of the same store replaced
// meanwhile plans again on the new one; its journal entry's before is
// still the digest of the file it replaced, the other write's after.
// (This store keeps the file's digest, not its bytes: an earlier build
// worked out the digest of no bytes there.) Also after a load that mapped
// the file.
func TestReplanKeepsTheDigest(t *testing.T) {
	p := filepath.Join(t.TempDir(), "n.yaml")
	if err := os.WriteFile(p, codec.EncodeYAML(sampledoc.Doc(3000, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	s := mustOpen(t, p, Options{})
	plans := 0
	_, err := s.Update(context.Background(), planOf(func(*noggin.Document) ([]noggin.Op, error) {
		if plans++; plans == 1 {
			mustAdd(t, s, "meanwhile") // replaces the document planned on
		}
		return []noggin.Op{addOp("late")}, nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	if plans != 2 {
		t.Fatalf("planned %d times, want 2", plans)
	}
	j, err := s.History(context.Background())
	if err != nil || len(j.Entries) != 2 {
		t.Fatalf("journal %+v, %v", j, err)
	}
	data, _ := os.ReadFile(p)
	if e := j.Entries; e[1].Before != e[0].After || e[1].After != digestOf(data) {
		t.Fatalf("entries %q → %q, %q → %q; file %q", e[0].Before, e[0].After, e[1].Before, e[1].After, digestOf(data))
	}
}

// TestLongLivedLoadMapped: a long-lived store reads a noggin mapped and
// lets go of the mapping: the heap gets the document, not also the file
// (it allocates less than twice the file's size; read into the heap, it
// allocated 2.5 times), and no mapping of the file is left. A file cut
// short while mapped is read again, as it now is.
func TestLongLivedLoadMapped(t *testing.T) {
	data := codec.EncodeYAML(sampledoc.Doc(30000, 1))
	p := filepath.Join(t.TempDir(), "n.yaml")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	s := mustOpen(t, p, Options{})
	doc, err := s.Load(context.Background())
	runtime.ReadMemStats(&after)
	if err != nil || len(doc.Items) != 30000 {
		t.Fatalf("%v", err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 2*uint64(len(data)) {
		t.Fatalf("loading a %d-byte file allocated %d bytes", len(data), n)
	}
	if kb, found := mappedKBOrNone(p); found {
		t.Fatalf("%d kB of the file still mapped after the load", kb)
	}

	// Cut short while mapped: the read faults, and the file is read instead.
	short := data[:len(data)/2]
	short = short[:bytes.LastIndex(short, []byte("\n  - key:"))+1]
	afterMap = func() {
		if err := os.Truncate(p, int64(len(short))); err != nil {
			t.Error(err)
		}
	}
	defer func() { afterMap = nil }()
	got, err := mustOpen(t, p, Options{}).Load(context.Background())
	want, werr := codec.DecodeYAML(short)
	if err != nil || werr != nil || !noggin.Equal(got, want) {
		t.Fatalf("cut short: %v, %v; %d items, want %d", err, werr, len(got.Items), len(want.Items))
	}
}
