package store

import (
	"bytes"
	"math/rand/v2"
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
		if err := appendJournal(osFS{}, name, noggin.Entry{Verb: "note"}, tl, nil, 0o666, false); err != nil {
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

// TestJournalEnds: the ends read through a small buffer say what the
// whole journal says: its line count, a torn last line, the last entry's
// after digest, and its last seq — for random journals of short, long
// (past the buffer), torn and unreadable lines.
func TestJournalEnds(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	entry := func(seq, size int) string {
		return `{"v":1,"seq":` + itoa(seq) + `,"verb":"note","after":"crc:` + itoa(seq) + `:0","pad":"` + strings.Repeat("x", size) + `"}`
	}
	sizes := []int{0, 10, 300, journalChunk - 40, journalChunk, 3 * journalChunk}
	for i := range 150 {
		var b strings.Builder
		n := rng.IntN(12)
		if i%50 == 0 {
			n = 0
		}
		for seq := 1; seq <= n; seq++ {
			switch rng.IntN(8) {
			case 0:
				b.WriteString("not an entry\n")
			case 1:
				b.WriteString("\n")
			default:
				b.WriteString(entry(seq, sizes[rng.IntN(len(sizes))]) + "\n")
			}
		}
		switch rng.IntN(4) {
		case 0: // torn: half an entry
			e := entry(n+1, sizes[rng.IntN(len(sizes))])
			b.WriteString(e[:rng.IntN(len(e))])
		case 1: // a torn line after a complete long one
			b.WriteString(entry(n+1, 2*journalChunk) + "\n" + `{"v":1,"se`)
		}
		data := []byte(b.String())
		name := filepath.Join(dir, "j"+itoa(i))
		if i%50 != 1 {
			if err := os.WriteFile(name, data, 0o644); err != nil {
				t.Fatal(err)
			}
		} else {
			data = nil // missing
		}
		e, err := readJournalEnds(osFS{}, name)
		if err != nil {
			t.Fatal(err)
		}
		torn := len(data) > 0 && data[len(data)-1] != '\n'
		if e.lines != bytes.Count(data, []byte{'\n'}) || e.torn != torn {
			t.Fatalf("journal %d: %d lines, torn %v; want %d, %v", i, e.lines, e.torn, bytes.Count(data, []byte{'\n'}), torn)
		}
		if got, want := lastAfter(e.tail), lastAfter(data); got != want {
			t.Fatalf("journal %d: last after %q, want %q", i, got, want)
		}
		if got, want := lastSeq(e.tail), lastSeq(data); got != want && (got != 0 || e.whole) {
			t.Fatalf("journal %d: last seq %d, want %d (whole %v)", i, got, want, e.whole)
		}
		if e.whole != (int64(len(data)) <= journalChunk) && len(data) <= journalChunk {
			t.Fatalf("journal %d: whole %v for %d bytes", i, e.whole, len(data))
		}
		// Appending numbers after the last entry found anywhere.
		if data != nil {
			if err := appendJournal(osFS{}, name, noggin.Entry{Verb: "note"}, nil, &e, 0o666, false); err != nil {
				t.Fatal(err)
			}
			after, _ := os.ReadFile(name)
			if lastSeq(after) != lastSeq(data)+1 {
				t.Fatalf("journal %d: appended seq %d after %d", i, lastSeq(after), lastSeq(data))
			}
			if !bytes.HasPrefix(after, data) || bytes.Count(after, []byte{'\n'}) != bytes.Count(data, []byte{'\n'})+1+btoi(torn) {
				t.Fatalf("journal %d: the append changed what was there or broke lines", i)
			}
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
