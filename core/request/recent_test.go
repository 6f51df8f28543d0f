package request_test

import (
	"context"
	"testing"

	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/request"
	"github.com/noggin-go/noggin/core/store"
)

// recentOpener opens stores that can load as last known
// (store.RecentLoader), recording which load each request made.
type recentOpener struct {
	store.Opener
	loads *[]string
}

func (o recentOpener) Open(ctx context.Context, location string) (noggin.Store, error) {
	st, err := o.Opener.Open(ctx, location)
	return recentStore{st, o.loads}, err
}

type recentStore struct {
	noggin.Store
	loads *[]string
}

func (s recentStore) Load(ctx context.Context) (*noggin.Document, error) {
	*s.loads = append(*s.loads, "load")
	return s.Store.Load(ctx)
}

func (s recentStore) LoadRecent(ctx context.Context) (*noggin.Document, error) {
	*s.loads = append(*s.loads, "recent")
	return s.Store.Load(ctx)
}

// TestWritesLoadRecent: a write that reads the noggin only in its Update
// (on the last commit) opens it with LoadRecent; reads, writes whose
// if-revision is checked on the loaded noggin, agents (its list is the
// loaded noggin's) and a note whose first word may be an item's key (told
// by the loaded noggin) with Load.
func TestWritesLoadRecent(t *testing.T) {
	for _, tc := range []struct {
		name string
		req  request.Request
		want string
	}{
		{"push", request.Request{Verb: "push", Title: s("x")}, "recent"},
		{"note", request.Request{Verb: "note", Text: s("x")}, "recent"},
		{"undo", request.Request{Verb: "undo"}, "recent"},
		{"a write with if-revision", request.Request{Verb: "push", Title: s("x"), IfRevision: s("sha256:0")}, "load"},
		{"show", request.Request{Verb: "show"}, "load"},
		{"show with goto (a read first)", request.Request{Verb: "show", Goto: s("/1/1")}, "load"},
		{"find", request.Request{Verb: "find", Query: s("alpha")}, "load"},
		{"agents", request.Request{Verb: "agents"}, "load"},
		{"a note whose first word may be a key", request.Request{Verb: "note", Positionals: []string{"@a", "x"}}, "load"},
		{"a note whose first word is a path", request.Request{Verb: "note", Positionals: []string{"/1", "x"}}, "recent"},
		{"a note with a path and an @ word", request.Request{Verb: "note", Path: s("/1"), Positionals: []string{"@a", "x"}}, "recent"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var loads []string
			r := testRunner(t)
			r.Opener = recentOpener{loads: &loads}
			tc.req.Location = s(writeFixture(t, fixture))
			r.Run(context.Background(), &tc.req)
			if len(loads) == 0 || loads[0] != tc.want {
				t.Fatalf("loads %v, want %s first", loads, tc.want)
			}
		})
	}
}
