package noggin_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/sampledoc"
)

// benchStore serves one fixed document: Update plans twice (cached, then
// "fresh") and applies, like the real stores, but does not keep the result,
// so every iteration starts from the same state.
type benchStore struct{ doc *noggin.Document }

func (s *benchStore) Load(context.Context) (*noggin.Document, error) { return s.doc, nil }
func (s *benchStore) Update(ctx context.Context, w noggin.Write) (*noggin.Document, error) {
	plan := func(d *noggin.Document) ([]noggin.Op, error) { return w.Plan(d, noggin.NewHistory(nil, nil)) }
	if ops, err := plan(s.doc); err != nil || len(ops) == 0 {
		return s.doc, err
	}
	ops, err := plan(s.doc)
	if err != nil {
		return nil, err
	}
	return noggin.Apply(s.doc, ops)
}
func (s *benchStore) Describe() string                                { return "bench" }
func (s *benchStore) History(context.Context) (noggin.Journal, error) { return noggin.Journal{}, nil }
func (s *benchStore) Watch(ctx context.Context) <-chan noggin.Event   { return nil }

var sizes = []int{1000, 10000, 100000}

func benchEngine() *noggin.Engine {
	t := time.Date(2026, 6, 16, 18, 46, 44, 0, time.UTC)
	return &noggin.Engine{Now: func() time.Time { return t }, Keys: noggin.RandomKeys{}}
}

// BenchmarkShow: the view of the active item, and of the first root (the
// whole root row: 220 roots at 10k, 1,808 at 100k), what a note on a root
// item answers.
func BenchmarkShow(b *testing.B) {
	e := benchEngine()
	for _, n := range sizes {
		s := &benchStore{doc: sampledoc.Doc(n, 1)}
		for _, c := range []struct{ name, path string }{{"", ""}, {"/root", "/1"}} {
			b.Run(fmt.Sprintf("items=%d%s", n, c.name), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if v, err := e.Show(context.Background(), s, noggin.ShowOpts{Path: c.path}); err != nil || v == nil {
						b.Fatal(v, err)
					}
				}
			})
		}
	}
}

func BenchmarkShowWithDescendantsRoot(b *testing.B) {
	e := benchEngine()
	for _, n := range sizes {
		s := &benchStore{doc: sampledoc.Doc(n, 1)}
		b.Run(fmt.Sprintf("items=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := e.Show(context.Background(), s, noggin.ShowOpts{Path: "/1", WithDescendants: true}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPush measures push end to end without storage: plan twice,
// Apply (copy-on-write + validation) and build the view.
func BenchmarkPush(b *testing.B) {
	e := benchEngine()
	for _, n := range sizes {
		s := &benchStore{doc: sampledoc.Doc(n, 1)}
		if err := noggin.Validate(s.doc); err != nil { // a long-lived store's document
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("items=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := e.Push(context.Background(), s, noggin.PushOpts{Title: "side quest"}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// coldStore is a benchStore that hands out a new Document value (same
// items) on every Load, as a one-shot CLI command sees a freshly decoded
// document: no index is ever cached across iterations.
type coldStore struct{ benchStore }

func (s *coldStore) Load(context.Context) (*noggin.Document, error) { return s.fresh(), nil }
func (s *coldStore) fresh() *noggin.Document {
	return &noggin.Document{Active: s.doc.Active, Items: s.doc.Items}
}
func (s *coldStore) Update(ctx context.Context, w noggin.Write) (*noggin.Document, error) {
	d := s.fresh()
	ops, err := w.Plan(d, noggin.NewHistory(nil, nil))
	if err != nil || len(ops) == 0 {
		return d, err
	}
	return noggin.Apply(d, ops)
}

// BenchmarkShowCold and BenchmarkPushCold measure the one-shot CLI path:
// every call reads a document the engine has never seen (plan once, as
// the file store does when the file did not change in between).
func BenchmarkShowCold(b *testing.B) {
	e := benchEngine()
	for _, n := range sizes {
		s := &coldStore{benchStore{doc: sampledoc.Doc(n, 1)}}
		b.Run(fmt.Sprintf("items=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if v, err := e.Show(context.Background(), s, noggin.ShowOpts{}); err != nil || v == nil {
					b.Fatal(v, err)
				}
			}
		})
	}
}

func BenchmarkPushCold(b *testing.B) {
	e := benchEngine()
	for _, n := range sizes {
		s := &coldStore{benchStore{doc: sampledoc.Doc(n, 1)}}
		b.Run(fmt.Sprintf("items=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := e.Push(context.Background(), s, noggin.PushOpts{Title: "side quest"}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkApplyAdd measures a push's ops on a document read from a file
// (fresh: the whole result is validated) and on one a long-lived store
// validated before (known-valid: only what the ops touched is checked).
func BenchmarkApplyAdd(b *testing.B) {
	for _, n := range sizes {
		ts := "2026-06-16T18:46:44.000Z"
		for _, mode := range []string{"fresh", "known-valid"} {
			doc := sampledoc.Doc(n, 1)
			if mode == "known-valid" {
				if err := noggin.Validate(doc); err != nil {
					b.Fatal(err)
				}
			}
			ops := []noggin.Op{
				{Type: noggin.OpAdd, Item: &noggin.Item{Key: "bench-new", Title: "x", CreatedAt: &ts}, ParentKey: doc.Active, AtEnd: true},
				{Type: noggin.OpSetActive, Key: "bench-new"},
			}
			b.Run(fmt.Sprintf("items=%d/%s", n, mode), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := noggin.Apply(doc, ops); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkDiff covers the diff paths: an update (same shape, shared
// items), an append (shared prefix), a move to the front (general path)
// and an update against an unshared copy (same shape, no shared items).
func BenchmarkDiff(b *testing.B) {
	for _, n := range sizes {
		doc := sampledoc.Doc(n, 1)
		last := doc.Items[len(doc.Items)-1]
		cases := []struct {
			name string
			prev *noggin.Document
			ops  []noggin.Op
		}{
			{"note", doc, []noggin.Op{{Type: noggin.OpNote, Key: doc.Items[n/2].Key, Note: &noggin.Note{Text: "x"}}}},
			{"append", doc, []noggin.Op{{Type: noggin.OpAdd, Item: &noggin.Item{Key: "bench-new"}, AtEnd: true}}},
			{"move", doc, []noggin.Op{{Type: noggin.OpMove, Key: last.Key, Position: 0}}},
			{"note-unshared", sampledoc.Doc(n, 1), []noggin.Op{{Type: noggin.OpNote, Key: doc.Items[n/2].Key, Note: &noggin.Note{Text: "x"}}}},
		}
		for _, c := range cases {
			next, err := noggin.Apply(doc, c.ops)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/items=%d", c.name, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					noggin.Diff(c.prev, next)
				}
			})
		}
	}
}

// BenchmarkFind: find on a document the engine has never seen (the CLI's
// case), every title and note folded and searched.
func BenchmarkFind(b *testing.B) {
	e := benchEngine()
	for _, n := range sizes {
		s := &coldStore{benchStore{doc: sampledoc.Doc(n, 1)}}
		b.Run(fmt.Sprintf("items=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if r, err := e.Find(context.Background(), s, noggin.FindOpts{Query: "flaky storage"}); err != nil || r.Total == 0 {
					b.Fatal(r, err)
				}
			}
		})
	}
}

// BenchmarkNewEntry: what the history adds to a write in core: the
// inverse ops and changes of a push, and of a recursive delete of a tenth
// of the document.
func BenchmarkNewEntry(b *testing.B) {
	for _, n := range sizes {
		doc := sampledoc.Doc(n, 1)
		push := []noggin.Op{{Type: noggin.OpAdd, Item: &noggin.Item{Key: "new", Title: "x"}, AtEnd: true}, {Type: noggin.OpSetActive, Key: "new"}}
		var keys []string
		for _, it := range doc.Items[:n/10] {
			keys = append(keys, it.Key)
		}
		del := []noggin.Op{{Type: noggin.OpRemove, Keys: keys}}
		note := []noggin.Op{{Type: noggin.OpNote, Key: doc.Items[n/2].Key, Note: &noggin.Note{Text: "x"}}}
		for name, ops := range map[string][]noggin.Op{"push": push, "delete": del, "note": note} {
			b.Run(fmt.Sprintf("%s/items=%d", name, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := noggin.NewEntry(noggin.Write{Verb: name}, nil, doc, ops); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
