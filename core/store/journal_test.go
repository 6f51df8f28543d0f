package store

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/noggin-go/noggin/core/noggin"
)

// TestJournalTail: a store numbers its entries without reading a journal
// only it wrote, reads it again once another process appended, and keeps
// the bound when it compacts.
func TestJournalTail(t *testing.T) {
	name := filepath.Join(t.TempDir(), "n.yaml.history")
	var tail journalTail
	add := func(tl *journalTail) {
		t.Helper()
		if err := appendJournal(osFS{}, name, noggin.Entry{Verb: "note"}, tl, nil); err != nil {
			t.Fatal(err)
		}
	}
	add(&tail)
	add(&tail)
	add(nil) // another process
	add(&tail)
	data, _ := os.ReadFile(name)
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	for i, l := range lines {
		if !strings.Contains(l, `"seq":`+itoa(i+1)+`,`) {
			t.Fatalf("line %d: %s", i+1, l)
		}
	}
	if tail.seq != 4 || tail.lines != 4 {
		t.Errorf("tail %+v", tail)
	}
	for range noggin.MaxHistory + compactSlack {
		add(&tail)
	}
	data, _ = os.ReadFile(name)
	if n := strings.Count(string(data), "\n"); n != tail.lines || n < noggin.MaxHistory || n > noggin.MaxHistory+compactSlack {
		t.Errorf("%d lines, tail says %d", n, tail.lines)
	}
	last := data[strings.LastIndex(strings.TrimSuffix(string(data), "\n"), "\n")+1:]
	if !strings.Contains(string(last), `"seq":`+itoa(4+noggin.MaxHistory+compactSlack)+`,`) {
		t.Errorf("last line %s", last)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
