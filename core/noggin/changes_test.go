package noggin

import (
	"context"
	"testing"
)

func TestFeedRange(t *testing.T) {
	chain := func(revs ...string) []Entry { // entry i goes from revs[i] to revs[i+1]
		var out []Entry
		for i := 0; i+1 < len(revs); i++ {
			out = append(out, Entry{Seq: i + 1, Before: revs[i], After: revs[i+1]})
		}
		return out
	}
	broken := chain("a", "b", "c")
	broken = append(broken, Entry{Seq: 3, Before: "x", After: "d"}) // a write outside the history made x from c
	cases := []struct {
		name        string
		entries     []Entry
		since, cur  string
		first, last int // Seq of the first entry listed and of the last kept; 0, 0 for none; -1 for unknown
	}{
		{"since the start lists every write", chain("a", "b", "c", "d"), "a", "d", 1, 3},
		{"since a middle revision lists the writes after it", chain("a", "b", "c", "d"), "b", "d", 2, 3},
		{"since the current revision lists nothing", chain("a", "b", "c"), "c", "c", 0, 2},
		{"a revision the history never had is unknown", chain("a", "b", "c"), "zz", "c", -1, -1},
		{"no history is unknown", nil, "a", "b", -1, -1},
		{"a write outside the history after the last entry is unknown", chain("a", "b", "c"), "b", "x", -1, -1},
		{"since before a write outside the history is unknown", broken, "a", "d", -1, -1},
		{"since the revision the outside write made lists what follows", broken, "x", "d", 3, 3},
		{"since the revision before the outside write is unknown", broken, "c", "d", -1, -1},
		{"an entry not yet in place (its write still replacing the file) is left out", chain("a", "b", "c", "d"), "a", "c", 1, 2},
		{"a revision seen twice (an undo) counts from its newest occurrence", chain("a", "b", "a", "c"), "a", "c", 3, 3},
		{"an empty since is unknown", chain("a", "b"), "", "b", -1, -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, start := feedRange(c.entries, c.since, c.cur)
			switch {
			case c.first < 0:
				if start >= 0 {
					t.Fatalf("start %d, want unknown", start)
				}
			case start < 0:
				t.Fatal("unknown, want a range")
			case c.first == 0:
				if start != len(got) || got[len(got)-1].Seq != c.last {
					t.Fatalf("start %d of %d entries, want none listed after #%d", start, len(got), c.last)
				}
			default:
				if got[start].Seq != c.first || got[len(got)-1].Seq != c.last {
					t.Fatalf("#%d..#%d, want #%d..#%d", got[start].Seq, got[len(got)-1].Seq, c.first, c.last)
				}
			}
		})
	}
}

// historyMem is a memStore whose History is the given journal.
type historyMem struct {
	*memStore
	j Journal
}

func (h historyMem) History(context.Context) (Journal, error) { return h.j, nil }

func TestChangesRecords(t *testing.T) {
	doc := tree("a\n  b")
	doc.SetRevision(func() string { return "r2" })
	b := doc.Items[1]
	note := Note{Timestamp: "2026-01-02T03:04:05.678Z", Text: "n"}
	j := Journal{Entries: []Entry{
		{Seq: 1, Before: "r0", After: "r1", Verb: "push", Agent: "ann",
			Ops:     []Op{{Type: OpAdd, Item: &Item{Key: b.Key, Title: "b", Done: true}, ParentKey: b.ParentKey}},
			Changes: []EntryChange{{Kind: "added", Key: b.Key, Title: "b"}, {Kind: "added", Key: "gone", Title: "g"}}},
		{Seq: 2, Before: "r1", After: "r2", Verb: "note",
			Ops:     []Op{{Type: OpNote, Key: b.Key, Note: &note}},
			Changes: []EntryChange{{Kind: "noted", Key: b.Key, Title: "b"}}},
	}}
	st := historyMem{newMem(doc), j}
	e := fixedEngine()
	res, err := e.Changes(context.Background(), st, ChangesOpts{Since: "r0", Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Writes) != 1 || !res.More || res.Next != "r1" {
		t.Fatalf("page of 1: %d writes, more %v, next %q", len(res.Writes), res.More, res.Next)
	}
	w := res.Writes[0]
	if w.Agent != "ann" || w.Revision != "r1" {
		t.Fatalf("write: agent %q revision %q", w.Agent, w.Revision)
	}
	if c := w.Changes[0]; c.Path != "/1/1" || !c.HasParent || c.Parent != b.ParentKey || !c.Done {
		t.Fatalf("added: %+v", c)
	}
	if c := w.Changes[1]; c.Path != "" || c.HasParent {
		t.Fatalf("an item gone since, with no op: %+v", c)
	}
	res, err = e.Changes(context.Background(), st, ChangesOpts{Since: res.Next})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Writes) != 1 || res.More || res.Next != "r2" || res.Writes[0].Changes[0].Note == nil || *res.Writes[0].Changes[0].Note != note {
		t.Fatalf("the next page: %+v", res.Writes)
	}
	_, err = e.Changes(context.Background(), st, ChangesOpts{Since: "old"})
	wantErr(t, err, CodeRevisionUnknown, 1, "the history cannot say what changed since revision old (older than the history kept, not this noggin's, or a tool that keeps no history wrote since): read the noggin again (it is now at r2)",
		F("since", "old"), F("revision", "r2"))
}
