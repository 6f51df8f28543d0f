package store

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/noggin-go/noggin/core/codec"
	"github.com/noggin-go/noggin/core/sampledoc"
)

// mappedKB is the resident size, in kB, of this process's mappings of
// the file at path (also once it is replaced: "path (deleted)"), from
// /proc/self/smaps.
func mappedKB(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no smaps: %v", err)
	}
	defer f.Close()
	kb, in, found := 0, false, false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		fields := strings.Fields(line)
		if len(fields) >= 5 && strings.Contains(fields[0], "-") && !strings.HasSuffix(fields[0], ":") {
			name := strings.TrimSuffix(strings.Join(fields[5:], " "), " (deleted)")
			in = name == path
			found = found || in
			continue
		}
		if in && len(fields) == 3 && fields[0] == "Rss:" {
			n, _ := strconv.Atoi(fields[1])
			kb += n
		}
	}
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
