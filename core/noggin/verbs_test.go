package noggin

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// K1, K2, … are the keys the fixed engine generates on fixtures whose
// keys do not look generated.
const (
	K1 = "i-20260616-184644-000001"
	K2 = "i-20260616-184644-000002"
	K3 = "i-20260616-184644-000003"
)

// E describes an expected error; msg is the message rendered with the
// verb prefix taken from data.verb.
func E(code string, exit int, msg string, data ...Field) *Error {
	return &Error{Code: code, ExitCode: exit, Message: msg, Data: data}
}

// vcase is one engine-level edge case.
type vcase struct {
	id    string
	start string
	do    func(s Store) (any, error)
	// tree is the expected outline (titlesOf) after the call; "" = unchanged.
	tree string
	// out is the expected rendering of the result; "" = unchecked.
	out string
	err *Error
	// noWrite: a successful call must not write (errors never write).
	noWrite bool
	// prep adjusts the start document (defects a fixture cannot express).
	prep  func(d *Document)
	check func(t *testing.T, s *memStore, res any)
}

// render renders any verb result for comparison.
func render(res any) string {
	switch r := res.(type) {
	case *View:
		return viewOutline(r)
	case *DeleteResult:
		return fmt.Sprintf("deleted %s %s %q +%d\n%s", r.Deleted.Key, r.Deleted.Path, r.Deleted.Title, r.DescendantCount, viewOutline(r.View))
	case *CopyResult:
		var m []string
		for _, p := range r.Mapping {
			m = append(m, p.Old+">"+p.New)
		}
		return fmt.Sprintf("copied %d %s", r.Copied, strings.Join(m, " "))
	}
	return fmt.Sprintf("%T %v", res, res)
}

func runCases(t *testing.T, cases []vcase) {
	t.Helper()
	seen := map[string]bool{}
	for _, tc := range cases {
		if seen[tc.id] {
			t.Fatalf("duplicate case id %s", tc.id)
		}
		seen[tc.id] = true
		for _, lazy := range []bool{false, true} {
			name := tc.id
			if lazy {
				name += "/lazy"
			}
			t.Run(name, func(t *testing.T) { runCase(t, tc, lazy) })
		}
	}
}

// runCase runs one case on a whole document, or with lazy on documents a
// lazy read left undecoded (see memStore.lazy): the engine must decode
// every item it reads, so both give the same results.
func runCase(t *testing.T, tc vcase, lazy bool) {
	t.Helper()
	start, initial := tree(tc.start), tree(tc.start)
	if tc.prep != nil {
		tc.prep(start)
		tc.prep(initial)
	}
	s := newMem(initial)
	s.lazy = lazy
	defer func() {
		if s.lazyErr != nil {
			t.Error(s.lazyErr)
		}
	}()
	res, err := tc.do(s)
	if tc.err != nil {
		wantErr(t, err, tc.err.Code, tc.err.ExitCode, tc.err.Message, tc.err.Data...)
		if s.writes != 0 || !Equal(s.doc, start) {
			t.Errorf("failed call wrote (%d writes)", s.writes)
		}
		return
	}
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
	switch {
	case tc.noWrite && s.writes != 0:
		t.Errorf("writes = %d, want none", s.writes)
	case !tc.noWrite && s.writes != 1:
		t.Errorf("writes = %d, want 1", s.writes)
	}
	want := tc.tree
	switch want {
	case "":
		want = titlesOf(start)
	case "(empty)":
		want = ""
	}
	if got := titlesOf(s.doc); got != want {
		t.Errorf("tree =\n%s\nwant\n%s", got, want)
	}
	if tc.out != "" {
		if got := render(res); got != tc.out {
			t.Errorf("result =\n%s\nwant\n%s", got, tc.out)
		}
	}
	if err := Validate(s.doc); err != nil && Validate(start) == nil {
		t.Errorf("document invalid after call: %v", err)
	}
	if tc.check != nil {
		tc.check(t, s, res)
	}
}

var (
	eng     = fixedEngine()
	keyRE   = regexp.MustCompile(`^i-\d{8}-\d{6}-[0-9a-f]{6}$`)
	self    = Goto{Present: true, Self: true}
	gotoP   = func(p string) Goto { return Goto{Present: true, Path: p} }
	into    = func(a string) *Placement { return &Placement{"into", a} }
	before  = func(a string) *Placement { return &Placement{"before", a} }
	after   = func(a string) *Placement { return &Placement{"after", a} }
	closedN = Note{Timestamp: fixedStamp, Text: "closed"}
)

func push(title string) func(Store) (any, error) {
	return func(s Store) (any, error) { return eng.Push(context.Background(), s, PushOpts{Title: title}) }
}
func add(o AddOpts) func(Store) (any, error) {
	return func(s Store) (any, error) { return eng.Add(context.Background(), s, o) }
}
func move(o MoveOpts) func(Store) (any, error) {
	return func(s Store) (any, error) { return eng.Move(context.Background(), s, o) }
}
func gotoV(p string) func(Store) (any, error) {
	return func(s Store) (any, error) { return eng.Goto(context.Background(), s, GotoOpts{Path: p}) }
}
func done(o DoneOpts) func(Store) (any, error) {
	return func(s Store) (any, error) { return eng.Done(context.Background(), s, o) }
}
func pop(o PopOpts) func(Store) (any, error) {
	return func(s Store) (any, error) { return eng.Pop(context.Background(), s, o) }
}
func edit(o EditOpts) func(Store) (any, error) {
	return func(s Store) (any, error) { return eng.Edit(context.Background(), s, o) }
}
func show(o ShowOpts) func(Store) (any, error) {
	return func(s Store) (any, error) {
		v, err := eng.Show(context.Background(), s, o)
		if v == nil {
			return (*View)(nil), err
		}
		return v, err
	}
}
func note(o NoteOpts) func(Store) (any, error) {
	return func(s Store) (any, error) { return eng.Note(context.Background(), s, o) }
}
func del(o DeleteOpts) func(Store) (any, error) {
	return func(s Store) (any, error) { return eng.Delete(context.Background(), s, o) }
}

func itemNotes(title string, want ...Note) func(*testing.T, *memStore, any) {
	return func(t *testing.T, s *memStore, _ any) {
		t.Helper()
		it := byTitle(s.doc, title)
		if it == nil {
			t.Fatalf("no item %q", title)
		}
		if fmt.Sprint(it.Notes) != fmt.Sprint(want) || len(it.Notes) != len(want) {
			t.Errorf("%s notes = %v, want %v", title, it.Notes, want)
		}
	}
}

func TestPushCases(t *testing.T) {
	runCases(t, []vcase{
		{id: "case-001", do: push("first"), tree: "first *\n", out: "active=/1\n/1 first + <\n",
			check: func(t *testing.T, s *memStore, res any) {
				t.Helper()
				v := res.(*View)
				if v.TargetKey != v.ActiveKey || !keyRE.MatchString(v.TargetKey) {
					t.Errorf("keys %q %q", v.TargetKey, v.ActiveKey)
				}
				n := v.Items[0]
				if n.ParentKey != "" || n.Done || len(n.Notes) != 0 || n.Children == nil || len(n.Children) != 0 {
					t.Errorf("node %+v", n)
				}
				if n.CreatedAt == nil || *n.CreatedAt != fixedStamp {
					t.Errorf("createdAt %v", n.CreatedAt)
				}
				it := s.doc.Items[0]
				if it.Foreign != nil || it.Notes == nil {
					t.Errorf("new item shape %+v", it)
				}
			}},
		{id: "case-002", start: F3, do: push("child"), tree: "only\n  child *\n", out: "active=/1/1\n/1 only +\n  /1/1 child + <\n"},
		{id: "case-003", do: push("review design doc"), tree: "review design doc *\n"},
		{id: "case-007", start: F1, do: push("new"),
			tree: "root1\n  alpha\n  beta\n    beta-kid\n  new *\nroot2\n",
			out:  "active=/1/3\n/1 root1 +\n  /1/1 alpha\n  /1/2 beta\n  /1/3 new + <\n"},
		{id: "case-008", start: F4, do: push("x"), tree: "a\nb\nx *\n", out: "active=/3\n/1 a\n/2 b\n/3 x + <\n"},
		{id: "case-012", do: push(""), tree: " *\n", out: "active=/1\n/1  + <\n"},
		{id: "push-into-dangling-active", start: F4, do: func(s Store) (any, error) {
			s.(*memStore).doc.Active = "ghost"
			return eng.Push(context.Background(), s, PushOpts{Title: "x"})
		}, tree: "a\nb\nx *\n"},
	})
}

func TestAddCases(t *testing.T) {
	const f1 = "root1 *\n  alpha\n  beta\n    beta-kid\n"
	runCases(t, []vcase{
		{id: "case-013", start: F1, do: add(AddOpts{Title: "gamma"}), tree: f1 + "  gamma\nroot2\n",
			out: "active=/1\n/1 root1 +\n  /1/1 alpha\n  /1/2 beta\n  /1/3 gamma + <\n"},
		{id: "case-014", start: F1, do: add(AddOpts{Title: "inner", Placement: into("/1/1")}),
			tree: "root1 *\n  alpha\n    inner\n  beta\n    beta-kid\nroot2\n",
			out:  "active=/1\n/1 root1 +\n  /1/1 alpha +\n    /1/1/1 inner + <\n"},
		{id: "case-015", start: F1, do: add(AddOpts{Title: "pre", Placement: before("/1/1")}),
			tree: "root1 *\n  pre\n  alpha\n  beta\n    beta-kid\nroot2\n",
			out:  "active=/1\n/1 root1 +\n  /1/1 pre + <\n  /1/2 alpha\n  /1/3 beta\n"},
		{id: "case-016", start: F1, do: add(AddOpts{Title: "mid", Placement: after("/1/1")}),
			tree: "root1 *\n  alpha\n  mid\n  beta\n    beta-kid\nroot2\n",
			out:  "active=/1\n/1 root1 +\n  /1/1 alpha\n  /1/2 mid + <\n  /1/3 beta\n"},
		{id: "case-019", start: F1, do: add(AddOpts{Title: "x", Placement: &Placement{"into", ""}}),
			err: E(CodePlacementMissing, 2, "add: choose exactly one of before, after or into (CLI: --before, --after, --into)", F("verb", "add"))},
		{id: "case-020", start: F1, do: add(AddOpts{Title: "gamma", Goto: gotoP(".")}),
			tree: "root1\n  alpha\n  beta\n    beta-kid\n  gamma *\nroot2\n",
			out:  "active=/1/3\n/1 root1 +\n  /1/1 alpha\n  /1/2 beta\n  /1/3 gamma + <\n"},
		{id: "case-021", start: F1, do: add(AddOpts{Title: "gamma", Goto: self}),
			tree: "root1\n  alpha\n  beta\n    beta-kid\n  gamma *\nroot2\n"},
		{id: "case-022", start: F1, do: add(AddOpts{Title: "gamma", Goto: gotoP("..")}),
			tree: f1 + "  gamma\nroot2\n",
			out:  "active=/1\n/1 root1 + <\n  /1/1 alpha\n  /1/2 beta\n  /1/3 gamma\n/2 root2\n"},
		{id: "case-023", start: F1, do: add(AddOpts{Title: "x", Goto: gotoP("/9")}),
			err: E(CodeGotoUnresolved, 1, "add: goto path not found: /9 (no position 9 at root)",
				F("verb", "add"), F("path", "/9"), F("detail", "path not found: /9 (no position 9 at root)"))},
		{id: "case-024", start: F1, do: add(AddOpts{Title: "x", Goto: gotoP("foo")}),
			err: E(CodeGotoUnresolved, 1, "add: goto path 'foo': segment 'foo' is not a 1-based position",
				F("verb", "add"), F("path", "foo"), F("detail", "path 'foo': segment 'foo' is not a 1-based position"))},
		{id: "case-025", start: F1, do: add(AddOpts{Title: "buy milk", Goto: self}),
			tree: "root1\n  alpha\n  beta\n    beta-kid\n  buy milk *\nroot2\n"},
		{id: "case-026", do: add(AddOpts{Title: "first"}), tree: "first\n", out: "active=\n/1 first + <\n",
			check: func(t *testing.T, _ *memStore, res any) {
				t.Helper()
				if v := res.(*View); v.ActiveKey != "" || v.ActivePath != "" {
					t.Errorf("active %q %q", v.ActiveKey, v.ActivePath)
				}
			}},
		{id: "case-027", start: F1, do: add(AddOpts{Title: "x", Placement: into("/9")}),
			err: E(CodePathNotFound, 1, "path not found: /9 (no position 9 at root)",
				F("path", "/9"), F("detail", "path not found: /9 (no position 9 at root)"))},
		{id: "case-028", start: F4, do: add(AddOpts{Title: "y", Placement: after("/2"), Goto: gotoP("-")}),
			tree: "a\nb *\ny\n", out: "active=/2\n/1 a\n/2 b + <\n/3 y\n"},
		{id: "case-029", start: F4, do: add(AddOpts{Title: "X", Placement: before("/1")}),
			tree: "X\na\nb\n", out: "active=\n/1 X + <\n/2 a\n/3 b\n"},
		{id: "case-030", start: F1, do: add(AddOpts{Title: "z", Goto: gotoP("+")}),
			err: E(CodeGotoUnresolved, 1, "add: goto path '+': active item has no next sibling",
				F("verb", "add"), F("path", "+"), F("detail", "path '+': active item has no next sibling"))},
		{id: "case-207", start: F1, do: add(AddOpts{Title: "kid", Goto: Goto{Present: true}}),
			err: E(CodeGotoPathRequired, 1, "add: goto requires a path", F("verb", "add"))},
		{id: "case-219", start: F1, do: add(AddOpts{Title: "x", Placement: &Placement{"under", "/1"}}),
			err: E(CodePlacementInvalid, 2, "add: unknown placement kind 'under'", F("verb", "add"), F("kind", "under"))},
		{id: "case-220", start: F1, do: add(AddOpts{Title: "x", Placement: &Placement{Anchor: "/1"}}),
			err: E(CodePlacementMissing, 2, "add: choose exactly one of before, after or into (CLI: --before, --after, --into)", F("verb", "add"))},
		{id: "add-placement-before-goto", start: F1, do: add(AddOpts{Title: "x", Placement: &Placement{"under", "/1"}, Goto: Goto{Present: true}}),
			err: E(CodePlacementInvalid, 2, "add: unknown placement kind 'under'", F("verb", "add"), F("kind", "under"))},
		{id: "add-after-last-root", start: F1, do: add(AddOpts{Title: "z", Placement: after("/2")}),
			tree: f1 + "root2\nz\n"},
		{id: "add-into-goto-parent-prev", start: F1, do: add(AddOpts{Title: "z", Placement: into("/1/2"), Goto: gotoP("../-")}),
			err: E(CodeGotoUnresolved, 1, "add: goto path '../-': segment '-' is not a 1-based position",
				F("verb", "add"), F("path", "../-"), F("detail", "path '../-': segment '-' is not a 1-based position"))},
		{id: "add-goto-projected-sibling", start: F1, do: add(AddOpts{Title: "z", Placement: before("/1/1"), Goto: gotoP("+")}),
			tree: "root1\n  z\n  alpha *\n  beta\n    beta-kid\nroot2\n"},
	})
}

func TestMoveCases(t *testing.T) {
	runCases(t, []vcase{
		{id: "case-032", start: F1, do: move(MoveOpts{Path: "/1/1"}),
			err: E(CodePlacementMissing, 2, "move: choose exactly one of before, after or into (CLI: --before, --after, --into)", F("verb", "move"))},
		{id: "case-033", start: F1, do: move(MoveOpts{Path: "/1/1", Placement: into("/2")}),
			tree: "root1 *\n  beta\n    beta-kid\nroot2\n  alpha\n", out: "active=/1\n/1 root1 + <\n  /1/1 beta\n/2 root2\n"},
		{id: "case-034", start: F1, do: move(MoveOpts{Path: "/2", Placement: before("/1")}),
			tree: "root2\nroot1 *\n  alpha\n  beta\n    beta-kid\n", out: "active=/2\n/1 root2\n/2 root1 + <\n  /2/1 alpha\n  /2/2 beta\n"},
		{id: "case-035", start: F1, do: move(MoveOpts{Path: "/1/1", Placement: after("/1/2")}),
			tree: "root1 *\n  beta\n    beta-kid\n  alpha\nroot2\n"},
		{id: "case-036", start: F1, do: move(MoveOpts{Path: "/1/2", Placement: into("/1/2")}),
			err: E(CodeCycle, 1, "move: cannot move /1/2 into itself or its subtree (would create a cycle)",
				F("verb", "move"), F("path", "/1/2"), F("title", "beta"), F("placementKind", "into"))},
		{id: "case-037", start: F1, do: move(MoveOpts{Path: "/1/2", Placement: into("/1/2/1")}),
			err: E(CodeCycle, 1, "move: cannot move /1/2 into itself or its subtree (would create a cycle)",
				F("verb", "move"), F("path", "/1/2"), F("title", "beta"), F("placementKind", "into"))},
		{id: "case-038", start: F1, do: move(MoveOpts{Path: "/1/2", Placement: after("/1/2/1")}),
			err: E(CodeCycle, 1, "move: cannot move item next to its own descendant",
				F("verb", "move"), F("path", "/1/2"), F("title", "beta"), F("placementKind", "after"))},
		{id: "cycle-into-self-empty-title", start: "x active", prep: func(d *Document) { d.Items[0].Title = "" },
			do: move(MoveOpts{Placement: into(".")}), err: E(CodeCycle, 1, "move: cannot move item into itself",
				F("verb", "move"), F("path", "/1"), F("title", ""), F("placementKind", "into"))},
		{id: "case-039", start: F1, do: move(MoveOpts{Path: "/1/1", Placement: before("/1/1")}), check: noEvents},
		{id: "case-040", start: F1, do: move(MoveOpts{Path: "/1", Placement: after("/1")}),
			out: "active=/1\n/1 root1 + <\n  /1/1 alpha\n  /1/2 beta\n/2 root2\n", check: noEvents},
		{id: "case-041", start: "root1\n  alpha active\n  beta\n    beta-kid\nroot2", do: move(MoveOpts{Placement: into("/2")}),
			tree: "root1\n  beta\n    beta-kid\nroot2\n  alpha *\n", out: "active=/2/1\n/2 root2 +\n  /2/1 alpha + <\n"},
		{id: "case-042", start: F4, do: move(MoveOpts{Placement: into("/2")}),
			err: E(CodeNoActiveItem, 1, "move: no active item; pass a path", F("verb", "move"))},
		{id: "case-043", start: F1, do: move(MoveOpts{Path: "/1", Placement: after("/2")}),
			tree: "root2\nroot1 *\n  alpha\n  beta\n    beta-kid\n", out: "active=/2\n/1 root2\n/2 root1 + <\n  /2/1 alpha\n  /2/2 beta\n"},
		{id: "case-045", start: F1, do: move(MoveOpts{Path: "/2", Placement: into("/1/2/1"), Goto: self}),
			tree: "root1\n  alpha\n  beta\n    beta-kid\n      root2 *\n",
			out:  "active=/1/2/1/1\n/1 root1 +\n  /1/2 beta +\n    /1/2/1 beta-kid +\n      /1/2/1/1 root2 + <\n"},
		{id: "case-046", start: F1, do: move(MoveOpts{Path: "/1/1", Placement: before("/1/9")}),
			err: E(CodePathNotFound, 1, "path not found: /1/9 (no position 9 under '/1')",
				F("path", "/1/9"), F("detail", "path not found: /1/9 (no position 9 under '/1')"))},
		{id: "case-047", start: F4, do: move(MoveOpts{Path: "/1/1", Placement: &Placement{"before", ""}}),
			err: E(CodePlacementMissing, 2, "move: choose exactly one of before, after or into (CLI: --before, --after, --into)", F("verb", "move"))},
		{id: "case-048", start: F4, do: move(MoveOpts{Placement: into("/9")}),
			err: E(CodePathNotFound, 1, "path not found: /9 (no position 9 at root)",
				F("path", "/9"), F("detail", "path not found: /9 (no position 9 at root)"))},
		{id: "move-target-not-found", start: F1, do: move(MoveOpts{Path: "/7", Placement: into("/1")}),
			err: E(CodePathNotFound, 1, "path not found: /7 (no position 7 at root)",
				F("path", "/7"), F("detail", "path not found: /7 (no position 7 at root)"))},
		{id: "move-before-later-sibling", start: "p active\n  a\n  b\n  c", do: move(MoveOpts{Path: "/1/1", Placement: before("/1/3")}),
			tree: "p *\n  b\n  a\n  c\n"},
		{id: "move-after-earlier-sibling", start: "p active\n  a\n  b\n  c", do: move(MoveOpts{Path: "/1/3", Placement: after("/1/1")}),
			tree: "p *\n  a\n  c\n  b\n"},
		{id: "move-into-current-parent-goes-last", start: "p active\n  a\n  b\n  c", do: move(MoveOpts{Path: "/1/1", Placement: into("/1")}),
			tree: "p *\n  b\n  c\n  a\n"},
		{id: "move-goto-parent", start: F1, do: move(MoveOpts{Path: "/1/1", Placement: into("/2"), Goto: gotoP("..")}),
			tree: "root1\n  beta\n    beta-kid\nroot2 *\n  alpha\n"},
		{id: "move-goto-unresolved", start: F1, do: move(MoveOpts{Path: "/1/1", Placement: into("/2"), Goto: gotoP("-")}),
			err: E(CodeGotoUnresolved, 1, "move: goto path '-': active item has no previous sibling",
				F("verb", "move"), F("path", "-"), F("detail", "path '-': active item has no previous sibling"))},
		{id: "move-no-active-view-is-moved", start: F4, do: move(MoveOpts{Path: "/1", Placement: after("/2")}),
			tree: "b\na\n", out: "active=\n/1 b\n/2 a + <\n"},
	})
}

func noEvents(t *testing.T, s *memStore, _ any) {
	t.Helper()
	if len(s.events) != 0 {
		t.Errorf("events = %v", s.events)
	}
}

func TestGotoCases(t *testing.T) {
	runCases(t, []vcase{
		{id: "case-049", start: F1, do: gotoV("/1/2"), tree: "root1\n  alpha\n  beta *\n    beta-kid\nroot2\n",
			out: "active=/1/2\n/1 root1 +\n  /1/1 alpha\n  /1/2 beta + <\n    /1/2/1 beta-kid\n"},
		{id: "case-050", start: F1, do: gotoV("./2/1"), tree: "root1\n  alpha\n  beta\n    beta-kid *\nroot2\n"},
		{id: "case-052", start: F1, do: gotoV("/9/9"),
			err: E(CodePathNotFound, 1, "path not found: /9/9 (no position 9 at root)",
				F("path", "/9/9"), F("detail", "path not found: /9/9 (no position 9 at root)"))},
		{id: "case-053", start: F1, do: gotoV("/"),
			err: E(CodePathNotFound, 1, "path '/': empty absolute path", F("path", "/"), F("detail", "path '/': empty absolute path"))},
		{id: "case-054", start: F1, do: gotoV("."), check: noEvents},
		{id: "case-055", start: F4, do: gotoV("1"),
			err: E(CodePathNotFound, 1, "path '1' is relative but no active item", F("path", "1"), F("detail", "path '1' is relative but no active item"))},
		{id: "case-056", start: F1, do: gotoV("+"), tree: "root1\n  alpha\n  beta\n    beta-kid\nroot2 *\n",
			out: "active=/2\n/1 root1\n/2 root2 + <\n"},
		{id: "case-226", start: F1, do: gotoV(""), err: E(CodePathRequired, 2, "goto: path required", F("verb", "goto"))},
		{id: "case-057", start: F1, do: gotoV(""), err: E(CodePathRequired, 2, "goto: path required", F("verb", "goto"))},
	})
}

func TestDoneCases(t *testing.T) {
	const aDoneActiveOpenKid = "A done active\n  a1"
	runCases(t, []vcase{
		{id: "case-058", start: F5, do: done(DoneOpts{}), tree: "parent *\n  kid ✓\n",
			out: "active=/1\n/1 parent + <\n  /1/1 kid\n", check: itemNotes("kid", closedN)},
		{id: "case-059", start: F1, do: done(DoneOpts{Path: "/1/1"}), tree: "root1 *\n  alpha ✓\n  beta\n    beta-kid\nroot2\n",
			check: itemNotes("alpha", closedN)},
		{id: "case-060", start: F1, do: done(DoneOpts{Path: "/1/2"}),
			err: E(CodeOpenDescendants, 1, "done: /1/2 has 1 open descendant(s); pass closeAll to close them too, or force to close beta anyway (CLI: --close-all, --force)",
				F("verb", "done"), F("path", "/1/2"), F("title", "beta"), F("openCount", 1))},
		{id: "case-061", start: F1, do: done(DoneOpts{Path: "/1/2", Force: true}), tree: "root1 *\n  alpha\n  beta ✓\n    beta-kid\nroot2\n",
			check: itemNotes("beta", closedN)},
		{id: "case-062", start: F1, do: done(DoneOpts{Path: "/1/2", CloseAll: true}), tree: "root1 *\n  alpha\n  beta ✓\n    beta-kid ✓\nroot2\n",
			check: func(t *testing.T, s *memStore, res any) {
				t.Helper()
				itemNotes("beta", closedN)(t, s, res)
				itemNotes("beta-kid", closedN)(t, s, res)
			}},
		{id: "case-063", start: "root1 active\n  alpha done\n  beta\n    beta-kid\nroot2", do: done(DoneOpts{Path: "/1/1"}),
			tree: "root1 *\n  alpha ✓\n  beta\n    beta-kid\nroot2\n", check: itemNotes("alpha")},
		{id: "case-064", start: F4, do: done(DoneOpts{}), err: E(CodeNoActiveItem, 1, "done: no active item; pass a path", F("verb", "done"))},
		{id: "case-065", start: F1, do: done(DoneOpts{Goto: gotoP(".")}), err: E(CodeGotoUnsupported, 2, "done: goto is not supported", F("verb", "done"))},
		{id: "case-066", start: F3, do: done(DoneOpts{}), tree: "only ✓\n", out: "active=\n/1 only + <\n",
			check: func(t *testing.T, s *memStore, res any) {
				t.Helper()
				v := res.(*View)
				n := v.Items[0]
				if v.ActiveKey != "" || !n.Done || len(n.Notes) != 1 || n.Notes[0] != closedN || len(n.Children) != 0 || !n.Expanded {
					t.Errorf("view %+v node %+v", v, n)
				}
			}},
		{id: "case-067", start: "root1\n  alpha\n  beta\n    beta-kid\nroot2 active", do: done(DoneOpts{Path: "/1/1"}),
			tree: "root1 *\n  alpha ✓\n  beta\n    beta-kid\nroot2\n"},
		{id: "case-068", start: aDoneActiveOpenKid, do: done(DoneOpts{Path: "/1"}),
			err: E(CodeOpenDescendants, 1, "done: /1 has 1 open descendant(s); pass closeAll to close them too, or force to close A anyway (CLI: --close-all, --force)",
				F("verb", "done"), F("path", "/1"), F("title", "A"), F("openCount", 1))},
		{id: "case-069", start: aDoneActiveOpenKid, do: edit(EditOpts{Path: "/1", Done: ptr(true)}),
			err: E(CodeOpenDescendants, 1, "edit: /1 has 1 open descendant(s); pass closeAll to close them too, or force to close A anyway (CLI: --close-all, --force)",
				F("verb", "edit"), F("path", "/1"), F("title", "A"), F("openCount", 1))},
		{id: "case-071", start: F5, do: pop(PopOpts{}), tree: "parent *\n  kid ✓\n",
			out: "active=/1\n/1 parent + <\n  /1/1 kid\n", check: itemNotes("kid", closedN)},
		{id: "case-074", start: F4, do: pop(PopOpts{}), err: E(CodeNoActiveItem, 1, "pop: no active item; pass a path", F("verb", "pop"))},
		{id: "case-075", start: "root active\n  kid\n    grandkid", do: pop(PopOpts{CloseAll: true}),
			tree: "root ✓\n  kid ✓\n    grandkid ✓\n", out: "active=\n/1 root + <\n  /1/1 kid\n"},
		{id: "case-076", start: F1, do: pop(PopOpts{}),
			err: E(CodeOpenDescendants, 1, "done: /1 has 3 open descendant(s); pass closeAll to close them too, or force to close root1 anyway (CLI: --close-all, --force)",
				F("verb", "done"), F("path", "/1"), F("title", "root1"), F("openCount", 3))},
		{id: "case-077", start: F1, do: pop(PopOpts{HasPath: true}),
			err: E(CodePopNoPath, 2, "pop: takes no path; pop always operates on the active item", F("verb", "pop"))},
		{id: "case-073", start: F1, do: pop(PopOpts{Goto: self}), err: E(CodeGotoUnsupported, 2, "pop: goto is not supported", F("verb", "pop"))},
		{id: "pop-path-before-goto", start: F4, do: pop(PopOpts{HasPath: true, Goto: self}),
			err: E(CodePopNoPath, 2, "pop: takes no path; pop always operates on the active item", F("verb", "pop"))},
		{id: "case-078", start: F1, do: done(DoneOpts{Path: "/1/2", Force: true, CloseAll: true}),
			tree: "root1 *\n  alpha\n  beta ✓\n    beta-kid ✓\nroot2\n"},
		{id: "case-214", start: F5, do: done(DoneOpts{Path: ""}), tree: "parent *\n  kid ✓\n"},
		{id: "done-goto-before-target", start: F4, do: done(DoneOpts{Path: "/9", Goto: Goto{Present: true}}),
			err: E(CodeGotoUnsupported, 2, "done: goto is not supported", F("verb", "done"))},
		{id: "done-path-not-found", start: F1, do: done(DoneOpts{Path: "/1/9"}),
			err: E(CodePathNotFound, 1, "path not found: /1/9 (no position 9 under '/1')",
				F("path", "/1/9"), F("detail", "path not found: /1/9 (no position 9 under '/1')"))},
		{id: "done-closeall-skips-done-descendants", start: "r active\n  a done note=old\n  b", do: done(DoneOpts{CloseAll: true}),
			tree: "r ✓\n  a ✓\n  b ✓\n", check: itemNotes("a", Note{"2026-01-01T00:00:00.000Z", "old"})},
	})
}

func TestEditCases(t *testing.T) {
	const alphaDone = "root1 active\n  alpha done note=closed\n  beta\n    beta-kid\nroot2"
	runCases(t, []vcase{
		{id: "case-079", start: F1, do: edit(EditOpts{Path: "/1/1", Done: ptr(true)}), tree: "root1 *\n  alpha ✓\n  beta\n    beta-kid\nroot2\n",
			out: "active=/1\n/1 root1 +\n  /1/1 alpha + <\n  /1/2 beta\n", check: itemNotes("alpha", closedN)},
		{id: "case-080", start: alphaDone, do: edit(EditOpts{Path: "/1/1", Done: ptr(false)}), tree: "root1 *\n  alpha\n  beta\n    beta-kid\nroot2\n",
			check: itemNotes("alpha", Note{"2026-01-01T00:00:00.000Z", "closed"})},
		{id: "case-081", start: alphaDone, do: edit(EditOpts{Path: "/1/1", Done: ptr(true)}), noWrite: true,
			check: itemNotes("alpha", Note{"2026-01-01T00:00:00.000Z", "closed"})},
		{id: "case-083", start: F1, do: edit(EditOpts{Path: "/1/1"}),
			err: E(CodeNothingToEdit, 2, "edit: nothing to edit; pass a state or a title (CLI: --done, --open, --title)", F("verb", "edit"))},
		{id: "case-084", start: F1, do: edit(EditOpts{Path: "/1/2", Done: ptr(true)}),
			err: E(CodeOpenDescendants, 1, "edit: /1/2 has 1 open descendant(s); pass closeAll to close them too, or force to close beta anyway (CLI: --close-all, --force)",
				F("verb", "edit"), F("path", "/1/2"), F("title", "beta"), F("openCount", 1))},
		{id: "case-085", start: F1, do: edit(EditOpts{Path: "/1/1", Done: ptr(false), Force: true}),
			err: E(CodeOptionMisused, 2, "edit: force (CLI: --force) only applies when closing (state done; CLI: --done)", F("verb", "edit"))},
		{id: "case-086", start: F1, do: edit(EditOpts{Path: "/1/1", Title: ptr("X"), CloseAll: true}),
			err: E(CodeOptionMisused, 2, "edit: closeAll (CLI: --close-all) only applies when closing (state done; CLI: --done)", F("verb", "edit"))},
		{id: "case-087", start: F1, do: edit(EditOpts{Path: "/1/1", Title: ptr("  renamed  ")}),
			tree: "root1 *\n  renamed\n  beta\n    beta-kid\nroot2\n"},
		{id: "case-088", start: F1, do: edit(EditOpts{Path: "/1/1", Title: ptr("alpha")}), noWrite: true,
			out: "active=/1\n/1 root1 +\n  /1/1 alpha + <\n  /1/2 beta\n"},
		{id: "case-088/trimmed-same", start: F1, do: edit(EditOpts{Path: "/1/1", Title: ptr(" alpha\t")}), noWrite: true},
		{id: "case-089", start: F1, do: edit(EditOpts{Path: "/1/1", Done: ptr(true), Goto: gotoP(".")}),
			tree: "root1\n  alpha ✓ *\n  beta\n    beta-kid\nroot2\n"},
		{id: "case-090", start: F1, do: edit(EditOpts{Title: ptr("   ")}),
			err: E(CodeNothingToEdit, 2, "edit: nothing to edit; pass a state or a title (CLI: --done, --open, --title)", F("verb", "edit"))},
		{id: "case-091", start: F4, do: edit(EditOpts{Title: ptr("x")}),
			err: E(CodeNoActiveItem, 1, "edit: no active item; pass a path", F("verb", "edit"))},
		{id: "case-092", start: F1, do: edit(EditOpts{Path: "/1/1", Done: ptr(true), Title: ptr("finished")}),
			tree: "root1 *\n  finished ✓\n  beta\n    beta-kid\nroot2\n", check: itemNotes("finished", closedN)},
		{id: "case-093", start: F1, do: edit(EditOpts{Done: ptr(false)}), noWrite: true},
		{id: "case-094", start: F1, do: edit(EditOpts{Done: ptr(true), Force: true}),
			tree: "root1 ✓ *\n  alpha\n  beta\n    beta-kid\nroot2\n"},
		{id: "case-213", start: "r active\n  a\n  b", do: edit(EditOpts{Path: "/1", Done: ptr(true)}),
			err: E(CodeOpenDescendants, 1, "edit: /1 has 2 open descendant(s); pass closeAll to close them too, or force to close r anyway (CLI: --close-all, --force)",
				F("verb", "edit"), F("path", "/1"), F("title", "r"), F("openCount", 2))},
		{id: "case-229", start: F1, do: edit(EditOpts{Done: ptr(false), CloseAll: true}),
			err: E(CodeOptionMisused, 2, "edit: closeAll (CLI: --close-all) only applies when closing (state done; CLI: --done)", F("verb", "edit"))},
		{id: "case-230", start: F1, do: edit(EditOpts{Title: nil}),
			err: E(CodeNothingToEdit, 2, "edit: nothing to edit; pass a state or a title (CLI: --done, --open, --title)", F("verb", "edit"))},
		{id: "edit-force-before-target", start: F4, do: edit(EditOpts{Path: "/9", Title: ptr("x"), Force: true}),
			err: E(CodeOptionMisused, 2, "edit: force (CLI: --force) only applies when closing (state done; CLI: --done)", F("verb", "edit"))},
		{id: "edit-goto-after-close-check", start: F1, do: edit(EditOpts{Path: "/1/2", Done: ptr(true), Goto: Goto{Present: true}}),
			err: E(CodeOpenDescendants, 1, "edit: /1/2 has 1 open descendant(s); pass closeAll to close them too, or force to close beta anyway (CLI: --close-all, --force)",
				F("verb", "edit"), F("path", "/1/2"), F("title", "beta"), F("openCount", 1))},
		{id: "edit-goto-falsy", start: F1, do: edit(EditOpts{Title: ptr("x"), Goto: Goto{Present: true}}),
			err: E(CodeGotoPathRequired, 1, "edit: goto requires a path", F("verb", "edit"))},
		{id: "edit-goto-only-writes", start: F1, do: edit(EditOpts{Path: "/1/1", Title: ptr("alpha"), Goto: gotoP("+")}),
			tree: "root1\n  alpha\n  beta *\n    beta-kid\nroot2\n"},
		{id: "edit-reopen-and-rename", start: alphaDone, do: edit(EditOpts{Path: "/1/1", Done: ptr(false), Title: ptr("A")}),
			tree: "root1 *\n  A\n  beta\n    beta-kid\nroot2\n"},
	})
}

func TestShowCases(t *testing.T) {
	const ship = "ship\n  spec\n  tests\n  docs\n    README\n    SKILL active\nfollowups"
	f1view := "active=/1\n/1 root1 + <\n  /1/1 alpha\n  /1/2 beta\n/2 root2\n"
	runCases(t, []vcase{
		{id: "case-096", start: F1, do: show(ShowOpts{}), noWrite: true, out: f1view},
		{id: "case-097", start: F1, do: show(ShowOpts{Path: "/1/2"}), noWrite: true,
			out: "active=/1\n/1 root1 +\n  /1/1 alpha\n  /1/2 beta + <\n    /1/2/1 beta-kid\n"},
		{id: "case-098", start: F1, do: show(ShowOpts{NoChildren: true}), noWrite: true,
			out: "active=/1\n/1 root1 <\n/2 root2\n"},
		{id: "case-099", start: F4, do: show(ShowOpts{}), noWrite: true, out: "<nil>"},
		{id: "case-100", start: F4, do: show(ShowOpts{Goto: gotoP("/1")}), noWrite: true, out: "<nil>"},
		{id: "case-101", start: F2, do: show(ShowOpts{Path: "/1/2/1", WithSiblings: true}), noWrite: true,
			out: "active=/1/2\n/1 root1 +\n  /1/1 alpha\n  /1/2 beta +\n    /1/2/1 beta-kid + <\n  /1/3 gamma\n"},
		{id: "with-siblings-depth2-no-change", start: F2, do: show(ShowOpts{WithSiblings: true}), noWrite: true,
			out: "active=/1/2\n/1 root1 +\n  /1/1 alpha\n  /1/2 beta + <\n    /1/2/1 beta-kid\n  /1/3 gamma\n"},
		{id: "case-102", start: F1, do: show(ShowOpts{Path: "/1", WithDescendants: true}), noWrite: true,
			out: "active=/1\n/1 root1 + <\n  /1/1 alpha +\n  /1/2 beta +\n    /1/2/1 beta-kid +\n/2 root2\n"},
		{id: "no-children-wins", start: F1, do: show(ShowOpts{Path: "/1", WithDescendants: true, NoChildren: true}), noWrite: true,
			out: "active=/1\n/1 root1 <\n/2 root2\n"},
		{id: "case-105", start: F1, do: show(ShowOpts{Path: "/1/2", Goto: gotoP(".")}),
			tree: "root1\n  alpha\n  beta *\n    beta-kid\nroot2\n", out: "active=/1/2\n/1 root1 +\n  /1/1 alpha\n  /1/2 beta + <\n    /1/2/1 beta-kid\n"},
		{id: "case-106", start: F2, do: show(ShowOpts{Path: "/1/2", Goto: gotoP("..")}),
			tree: "root1 *\n  alpha\n    alpha-kid\n  beta\n    beta-kid\n  gamma\nroot2\n",
			out:  "active=/1\n/1 root1 + <\n  /1/1 alpha\n  /1/2 beta\n  /1/3 gamma\n/2 root2\n"},
		{id: "case-109", start: F1, do: show(ShowOpts{Path: ""}), noWrite: true, out: f1view},
		{id: "case-110", start: F2, do: show(ShowOpts{}), noWrite: true,
			out: "active=/1/2\n/1 root1 +\n  /1/1 alpha\n  /1/2 beta + <\n    /1/2/1 beta-kid\n  /1/3 gamma\n"},
		{id: "case-111", start: ship, do: show(ShowOpts{}), noWrite: true,
			out: "active=/1/3/2\n/1 ship +\n  /1/3 docs +\n    /1/3/1 README\n    /1/3/2 SKILL + <\n"},
		{id: "with-siblings-ship", start: ship, do: show(ShowOpts{WithSiblings: true}), noWrite: true,
			out: "active=/1/3/2\n/1 ship +\n  /1/1 spec\n  /1/2 tests\n  /1/3 docs +\n    /1/3/1 README\n    /1/3/2 SKILL + <\n"},
		{id: "show-goto-current-no-write", start: F1, do: show(ShowOpts{Goto: self}), noWrite: true, out: f1view},
		{id: "show-not-found", start: F1, do: show(ShowOpts{Path: "/3"}),
			err: E(CodePathNotFound, 1, "path not found: /3 (no position 3 at root)",
				F("path", "/3"), F("detail", "path not found: /3 (no position 3 at root)"))},
		{id: "show-goto-unresolved", start: F1, do: show(ShowOpts{Goto: gotoP("..")}),
			err: E(CodeGotoUnresolved, 1, "show: goto path '..': active item has no parent",
				F("verb", "show"), F("path", ".."), F("detail", "path '..': active item has no parent"))},
		{id: "case-227", start: F1, do: show(ShowOpts{Goto: Goto{Present: true}}),
			err: E(CodeGotoPathRequired, 1, "show: goto requires a path", F("verb", "show"))},
		{id: "case-107", start: "only active note=n1 note=n2", do: show(ShowOpts{}), noWrite: true, out: "active=/1\n/1 only + <\n",
			check: func(t *testing.T, _ *memStore, res any) {
				t.Helper()
				if n := res.(*View).Items[0]; len(n.Notes) != 2 || n.Notes[0].Text != "n1" || n.Notes[1].Text != "n2" {
					t.Errorf("notes %v", n.Notes)
				}
			}},
		{id: "case-108", start: F1, do: show(ShowOpts{Path: "/2"}), noWrite: true, out: "active=/1\n/1 root1\n/2 root2 + <\n",
			check: func(t *testing.T, _ *memStore, res any) {
				t.Helper()
				if n := res.(*View).Items[1]; len(n.Notes) != 0 || n.Notes == nil {
					t.Errorf("notes %#v", n.Notes)
				}
			}},
		{id: "case-112", start: "r active", prep: func(d *Document) { d.Items[0].Notes = []Note{{Timestamp: "", Text: "x\n\ny"}} },
			do: show(ShowOpts{}), noWrite: true, check: func(t *testing.T, _ *memStore, res any) {
				t.Helper()
				if n := res.(*View).Items[0]; len(n.Notes) != 1 || n.Notes[0] != (Note{"", "x\n\ny"}) {
					t.Errorf("notes %#v", n.Notes)
				}
			}},
		{id: "case-113", start: "x active", prep: func(d *Document) { d.Items[0].Title = "" }, do: show(ShowOpts{}), noWrite: true,
			out: "active=/1\n/1  + <\n"},
		{id: "show-notes-append-copies", start: "r active note=n1 note=n2", do: show(ShowOpts{}), noWrite: true,
			prep: func(d *Document) { d.Items[0].Notes = slices.Grow(d.Items[0].Notes, 4) }, // room to append in place
			check: func(t *testing.T, s *memStore, res any) {
				t.Helper()
				n := res.(*View).Items[0]
				if len(n.Notes) != 2 || n.Notes[1].Text != "n2" {
					t.Fatalf("notes %v", n.Notes)
				}
				// A view is read-only like its document; an append to its
				// notes must still not write into the document's.
				if grown := append(n.Notes, Note{Text: "x"}); grown[2].Text != "x" {
					t.Fatalf("appended %v", grown)
				}
				if all := s.doc.Items[0].Notes[:cap(s.doc.Items[0].Notes)]; len(all) > 2 && all[2].Text != "" {
					t.Errorf("an append to the view's notes wrote %q into the document's", all[2].Text)
				}
			}},
	})
}

func TestNoteCases(t *testing.T) {
	ts := func(text string) Note { return Note{fixedStamp, text} }
	runCases(t, []vcase{
		{id: "case-114", start: F1, do: note(NoteOpts{Text: "first observation"}), check: itemNotes("root1", ts("first observation")),
			out: "active=/1\n/1 root1 + <\n  /1/1 alpha\n  /1/2 beta\n/2 root2\n"},
		{id: "case-115", start: F1, do: note(NoteOpts{Path: "/1/2", Text: "note on beta"}), check: itemNotes("beta", ts("note on beta"))},
		{id: "case-117", start: F1, do: note(NoteOpts{}), err: E(CodeTextRequired, 2, "note: text required", F("verb", "note"))},
		{id: "case-118", start: F4, do: note(NoteOpts{Text: "hi"}), err: E(CodeNoActiveItem, 1, "note: no active item; pass a path", F("verb", "note"))},
		{id: "case-119", start: F4, do: note(NoteOpts{Text: " \n\t "}), err: E(CodeTextRequired, 2, "note: text required", F("verb", "note"))},
		{id: "case-120", start: F1, do: note(NoteOpts{Path: "2024", Text: "plans"}),
			err: E(CodePathNotFound, 1, "path not found: 2024 (no position 2024 under '/1')",
				F("path", "2024"), F("detail", "path not found: 2024 (no position 2024 under '/1')"))},
		{id: "case-122", start: F1, do: note(NoteOpts{Path: "/1/2", Text: "observation", Goto: gotoP(".")}),
			tree: "root1\n  alpha\n  beta *\n    beta-kid\nroot2\n", check: itemNotes("beta", ts("observation"))},
		{id: "case-116", start: F1, do: note(NoteOpts{Text: "hello world"}), check: itemNotes("root1", ts("hello world"))},
		{id: "case-123", start: F1, do: note(NoteOpts{Path: "/1/2"}), err: E(CodeTextRequired, 2, "note: text required", F("verb", "note"))},
		{id: "case-124", start: F1, do: note(NoteOpts{Text: "  padded  "}), check: itemNotes("root1", ts("padded"))},
		{id: "note-multiline", start: F1, do: note(NoteOpts{Text: "\nline1\nline2\n"}), check: itemNotes("root1", ts("line1\nline2"))},
		{id: "note-closed-text", start: F1, do: note(NoteOpts{Text: "closed"}), check: itemNotes("root1", ts("closed"))},
		{id: "note-goto-unresolved", start: F1, do: note(NoteOpts{Text: "x", Goto: gotoP("/5")}),
			err: E(CodeGotoUnresolved, 1, "note: goto path not found: /5 (no position 5 at root)",
				F("verb", "note"), F("path", "/5"), F("detail", "path not found: /5 (no position 5 at root)"))},
	})
}

func TestDeleteCases(t *testing.T) {
	runCases(t, []vcase{
		{id: "case-125", start: F1, do: del(DeleteOpts{Path: "/1/1"}), tree: "root1 *\n  beta\n    beta-kid\nroot2\n",
			out: "deleted k2 /1/1 \"alpha\" +0\nactive=/1\n/1 root1 + <\n  /1/1 beta\n/2 root2\n"},
		{id: "case-126", start: F1, do: del(DeleteOpts{Path: "/1/2"}),
			err: E(CodeHasDescendants, 1, "delete: /1/2 has 1 descendant(s); pass recursive (CLI: --recursive) to delete the whole subtree",
				F("verb", "delete"), F("path", "/1/2"), F("title", "beta"), F("descendantCount", 1))},
		{id: "case-127", start: F1, do: del(DeleteOpts{Path: "/1/2", Recursive: true}), tree: "root1 *\n  alpha\nroot2\n",
			out: "deleted k3 /1/2 \"beta\" +1\nactive=/1\n/1 root1 + <\n  /1/1 alpha\n/2 root2\n"},
		{id: "case-128", start: F5, do: del(DeleteOpts{Path: "/1/1"}), tree: "parent *\n",
			out: "deleted k2 /1/1 \"kid\" +0\nactive=/1\n/1 parent + <\n"},
		{id: "case-129", start: F3, do: del(DeleteOpts{Path: "/1"}), tree: "(empty)",
			out: "deleted k1 /1 \"only\" +0\n<nil>", check: func(t *testing.T, s *memStore, _ any) {
				t.Helper()
				if s.doc.Active != "" || len(s.doc.Items) != 0 {
					t.Errorf("doc %+v", s.doc)
				}
			}},
		{id: "case-132", start: F1, do: del(DeleteOpts{Path: ""}), err: E(CodePathRequired, 2, "delete: path required", F("verb", "delete"))},
		{id: "case-133", start: F4, do: del(DeleteOpts{Path: "/2"}), tree: "a\n", out: "deleted k2 /2 \"b\" +0\n<nil>"},
		{id: "case-134", start: "A\n  a1\n    a1x active\n  a2\nB", do: del(DeleteOpts{Path: "/1/1", Recursive: true}),
			tree: "A *\n  a2\nB\n", out: "deleted k2 /1/1 \"a1\" +1\nactive=/1\n/1 A + <\n  /1/1 a2\n/2 B\n"},
		{id: "case-135", start: "root1 active\n  alpha done\n  beta\n    beta-kid\nroot2", do: del(DeleteOpts{Path: "/1", Recursive: true}),
			tree: "root2\n", out: "deleted k1 /1 \"root1\" +3\n<nil>"},
		{id: "case-228", start: F1, do: del(DeleteOpts{Path: "/1", Goto: gotoP(".")}),
			err: E(CodeGotoUnsupported, 2, "delete: goto is not supported", F("verb", "delete"))},
		{id: "delete-goto-before-path", start: F1, do: del(DeleteOpts{Goto: Goto{Present: true}}),
			err: E(CodeGotoUnsupported, 2, "delete: goto is not supported", F("verb", "delete"))},
		{id: "delete-not-found", start: F1, do: del(DeleteOpts{Path: "/1/5"}),
			err: E(CodePathNotFound, 1, "path not found: /1/5 (no position 5 under '/1')",
				F("path", "/1/5"), F("detail", "path not found: /1/5 (no position 5 under '/1')"))},
		{id: "delete-active-unrelated", start: F1, do: del(DeleteOpts{Path: "/2"}), tree: "root1 *\n  alpha\n  beta\n    beta-kid\n"},
	})
}

// TestDocumentCases covers edge cases 171-174 (documents that load but
// cannot be written).
func TestDocumentCases(t *testing.T) {
	ghost := func(d *Document) { d.Active = "ghost" }
	dangling := func(d *Document) { d.Items[1].ParentKey = "missing" }
	runCases(t, []vcase{
		{id: "case-171/show", start: F4, prep: ghost, do: show(ShowOpts{}), noWrite: true, out: "<nil>"},
		{id: "case-171/goto", start: F4, prep: ghost, do: gotoV("/1"), tree: "a *\nb\n"},
		{id: "case-171/add", start: F4, prep: ghost, do: add(AddOpts{Title: "x"}),
			err: E(CodeInvalidDocument, 2, "active references unknown item", F("active", "ghost"))},
		{id: "case-172/show", start: "a\nb key=b", prep: dangling, noWrite: true, do: show(ShowOpts{Path: "/1"}),
			out: "active=\n/1 a + <\n"},
		{id: "case-172/goto", start: "a\nb key=b", prep: dangling, do: gotoV("/1"),
			err: E(CodeInvalidDocument, 2, "item references unknown parent", F("key", "b"), F("parentKey", "missing"))},
		{id: "case-173", start: "a key=a\nb key=a", do: push("x"),
			err: E(CodeInvalidDocument, 2, "duplicate item key", F("key", "a"))},
		// Duplicate keys (a document never validated): a row matches its
		// target by key, so both roots keyed a render as the target.
		{id: "duplicate-key-show", start: "a key=a\nb key=a", noWrite: true, do: show(ShowOpts{Path: "/2"}),
			out: "active=\n/2 b + <\n/2 b + <\n"},
		{id: "case-174/show", start: "a\nb key=b", prep: func(d *Document) { d.Items[1].ParentKey = "b" }, noWrite: true,
			do: show(ShowOpts{Path: "/1", WithSiblings: true, WithDescendants: true}), out: "active=\n/1 a + <\n"},
		{id: "case-174/add", start: "a\nb key=b", prep: func(d *Document) { d.Items[1].ParentKey = "b" }, do: add(AddOpts{Title: "z"}),
			err: E(CodeInvalidDocument, 2, "parent chain cycle", F("key", "b"))},
		{id: "cycle-active-show-bounded", start: "a key=a\nb key=b active", prep: func(d *Document) { d.Items[0].ParentKey = "b"; d.Items[1].ParentKey = "a" },
			noWrite: true, do: show(ShowOpts{WithDescendants: true, WithSiblings: true})},
	})
}

// TestCopyCases covers copy (cases 136-142, 145, 221).
func TestCopyCases(t *testing.T) {
	src := "alpha key=s1\n  alpha-child key=s2 done note=closed\nbeta key=s3"
	copyFrom := func(srcOutline string, sameStore bool) func(Store) (any, error) {
		return func(d Store) (any, error) {
			if sameStore {
				return eng.Copy(context.Background(), d, d)
			}
			return eng.Copy(context.Background(), newMem(tree(srcOutline)), d)
		}
	}
	runCases(t, []vcase{
		{id: "case-136", do: copyFrom(src, false), tree: "alpha\n  alpha-child ✓\nbeta\n",
			out: "copied 3 s1>" + K1 + " s2>" + K2 + " s3>" + K3,
			check: func(t *testing.T, s *memStore, _ any) {
				t.Helper()
				want := tree(src)
				for i, it := range s.doc.Items {
					w := want.Items[i]
					if it.Title != w.Title || it.Done != w.Done || *it.CreatedAt != *w.CreatedAt || fmt.Sprint(it.Notes) != fmt.Sprint(w.Notes) {
						t.Errorf("copy %d = %+v, want %+v", i, it, w)
					}
				}
			}},
		{id: "case-137", start: "pre-existing", do: copyFrom(src, false), tree: "pre-existing\nalpha\n  alpha-child ✓\nbeta\n"},
		{id: "case-138", start: "d", do: copyFrom("", false), noWrite: true, out: "copied 0 "},
		{id: "case-139", start: "a key=a\n  b key=b", do: copyFrom("", true), tree: "a\n  b\na\n  b\n",
			out: "copied 2 a>" + K1 + " b>" + K2},
		{id: "case-140", start: "d key=d-1 active", do: copyFrom(src, false), tree: "d *\nalpha\n  alpha-child ✓\nbeta\n"},
		{id: "case-142", do: func(d Store) (any, error) {
			s := tree("root key=r\nlost key=o")
			s.Items[1].ParentKey = "nowhere"
			return eng.Copy(context.Background(), newMem(s), d)
		}, tree: "root\n", out: "copied 1 r>" + K1},
		{id: "case-145", do: func(d Store) (any, error) {
			s := tree("x")
			s.Items[0].CreatedAt = nil
			return eng.Copy(context.Background(), newMem(s), d)
		}, tree: "x\n", check: func(t *testing.T, s *memStore, _ any) {
			t.Helper()
			if s.doc.Items[0].CreatedAt != nil {
				t.Error("createdAt invented")
			}
		}},
		{id: "copy-interleaved-source-preorder", do: func(d Store) (any, error) {
			s := &Document{Items: []*Item{{Key: "c", ParentKey: "a", Title: "c"}, {Key: "b", Title: "b"}, {Key: "a", Title: "a"}, {Key: "d", ParentKey: "b", Title: "d"}}}
			return eng.Copy(context.Background(), newMem(s), d)
		}, tree: "b\n  d\na\n  c\n", out: "copied 4 b>" + K1 + " d>" + K2 + " a>" + K3 + " c>i-20260616-184644-000004"},
		{id: "case-221/source", do: func(d Store) (any, error) { return eng.Copy(context.Background(), nil, d) },
			err: E(CodeSourceRequired, 2, "copy: source noggin required", F("verb", "copy"))},
		{id: "case-221/dest", do: func(d Store) (any, error) { return eng.Copy(context.Background(), d, nil) },
			err: E(CodeDestRequired, 2, "copy: dest noggin required", F("verb", "copy"))},
		{id: "case-221/both", do: func(Store) (any, error) { return eng.Copy(context.Background(), nil, nil) },
			err: E(CodeSourceRequired, 2, "copy: source noggin required", F("verb", "copy"))},
	})
}

// TestCycleMessageWhitespaceTitle: the long cycle wording is chosen by the
// title's JavaScript truthiness, so a blank title still selects it.
func TestCycleMessageWhitespaceTitle(t *testing.T) {
	s := newMem(tree("x active"))
	s.doc.Items[0].Title = " "
	_, err := eng.Move(context.Background(), s, MoveOpts{Placement: into(".")})
	wantErr(t, err, CodeCycle, 1, "move: cannot move /1 into itself or its subtree (would create a cycle)",
		F("verb", "move"), F("path", "/1"), F("title", " "), F("placementKind", "into"))
}

// racyStore plans first on a stale cached document, then on a fresher one
// (another writer got in between), like a file store under its lock.
type racyStore struct {
	memStore
	stale *Document
}

func (r *racyStore) Update(ctx context.Context, w Write) (*Document, error) {
	ops, err := w.Plan(r.stale, NewHistory(nil, nil))
	if err != nil || len(ops) == 0 {
		return r.stale, err
	}
	return r.memStore.Update(ctx, w)
}

// TestReplanOnFreshDocument: verbs compute their ops from the document
// they are given on each plan call, never from an earlier call.
func TestReplanOnFreshDocument(t *testing.T) {
	fresh := tree(F1)
	fresh.Active = "k5" // another process moved the cursor to root2
	r := &racyStore{memStore: memStore{doc: fresh}, stale: tree(F1)}
	v, err := eng.Push(context.Background(), r, PushOpts{Title: "new"})
	if err != nil {
		t.Fatal(err)
	}
	if got := titlesOf(r.doc); got != "root1\n  alpha\n  beta\n    beta-kid\nroot2\n  new *\n" {
		t.Errorf("tree =\n%s", got)
	}
	if v.ActivePath != "/2/1" {
		t.Errorf("view active %s", v.ActivePath)
	}
	// A delete result describes the fresh document's target.
	r = &racyStore{memStore: memStore{doc: tree("x\nb\nc")}, stale: tree("a\nb\nc")}
	res, err := eng.Delete(context.Background(), r, DeleteOpts{Path: "/1"})
	if err != nil || res.Deleted.Title != "x" {
		t.Errorf("delete = %+v, %v", res, err)
	}
}

// failStore fails every call.
type failStore struct{ memStore }

var errBoom = fmt.Errorf("boom")

func (*failStore) Load(context.Context) (*Document, error) { return nil, errBoom }
func (*failStore) Update(context.Context, Write) (*Document, error) {
	return nil, errBoom
}

// TestStoreErrorsPropagate: storage failures are returned unchanged.
func TestStoreErrorsPropagate(t *testing.T) {
	s := &failStore{}
	calls := map[string]func() error{
		"push":   func() error { _, err := eng.Push(context.Background(), s, PushOpts{Title: "x"}); return err },
		"add":    func() error { _, err := eng.Add(context.Background(), s, AddOpts{Title: "x"}); return err },
		"move":   func() error { _, err := eng.Move(context.Background(), s, MoveOpts{Placement: into("/1")}); return err },
		"goto":   func() error { _, err := eng.Goto(context.Background(), s, GotoOpts{Path: "/1"}); return err },
		"done":   func() error { _, err := eng.Done(context.Background(), s, DoneOpts{}); return err },
		"pop":    func() error { _, err := eng.Pop(context.Background(), s, PopOpts{}); return err },
		"edit":   func() error { _, err := eng.Edit(context.Background(), s, EditOpts{Title: ptr("x")}); return err },
		"show":   func() error { _, err := eng.Show(context.Background(), s, ShowOpts{}); return err },
		"showgo": func() error { _, err := eng.Show(context.Background(), s, ShowOpts{Goto: self}); return err },
		"note":   func() error { _, err := eng.Note(context.Background(), s, NoteOpts{Text: "x"}); return err },
		"delete": func() error { _, err := eng.Delete(context.Background(), s, DeleteOpts{Path: "/1"}); return err },
		"copy":   func() error { _, err := eng.Copy(context.Background(), s, newMem(nil)); return err },
		"copyto": func() error { _, err := eng.Copy(context.Background(), newMem(tree(F3)), s); return err },
	}
	for name, call := range calls {
		if err := call(); err != errBoom {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestGotoBaseMissing covers the defensive goto-base-missing (case 232):
// unreachable through the verbs, raised by the goto resolver itself.
func TestGotoBaseMissing(t *testing.T) {
	t.Run("case-232", func(t *testing.T) {
		_, err := goTo(tree(F1), "ghost", self, "add")
		wantErr(t, err, CodeGotoBaseMissing, 1, "add: goto has no base item", F("verb", "add"))
	})
}
