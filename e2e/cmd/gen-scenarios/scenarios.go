package main

import (
	"fmt"
	"strings"

	"github.com/noggin-go/noggin/e2e"
)

// The corpus. Steps without a [surface] prefix run on all three surfaces;
// prefixed steps exist where the spec makes the surfaces differ on purpose
// (each surface's variant then has its own expected envelope), and never
// change the file unless every surface makes the same change.
func scenarios() []scn {
	var all []scn
	add := func(s ...scn) { all = append(all, s...) }

	// ---- push ----
	add(
		S("push-first", "push onto a missing file creates it; the new root is active (edge 1).", "",
			`push title=first`, `show`, `where`),
		S("push-child-of-active", "push creates a child of the active item and moves into it (edge 2).", F3,
			`push title=child`),
		S("push-multi-word", "A title with spaces is kept as one title (edge 3).", "",
			`push title="review design doc"`),
		S("push-under-root-trims-peers", "push under root1: the view shows root1's row only (edge 7).", F1,
			`push title=new`),
		S("push-no-active-new-root", "push with no active item makes a new last root (edge 8).", F4,
			`push title=x`),
		S("push-dash-title", "A title that starts with a dash (edge 11).", "",
			`push title=-x`),
		S("push-chain", "Three pushes build a spine; show the whole subtree.", "",
			`push title=a`, `push title=b`, `push title=c`, `show path=/1 withDescendants`),
		S("push-unicode", "Unicode titles are stored and echoed raw.", "",
			`push title="café 📍 ✅ 日本語 — ünïcødé"`, `push title="emoji 🧠🚀"`),
		S("push-json-escapes", "Quotes, backslashes, <>& and a tab in a title.", "",
			`push title="say \"hi\" \\ <b>&amp;</b>"`, `push title="tab\there"`),
		S("push-yaml-special-titles", "Titles that YAML must quote.", "",
			`push title=123`, `push title=true`, `push title=null`, `push title="a: b"`, `push title="#hash"`,
			`push title="- dash"`, `push title="it's"`, `push title="'quoted'"`, `push title=~`, `push title=1.5`, `push title=yes`),
		S("push-long-title", "A title longer than the YAML line width is folded in the file.", "",
			`push title="`+strings.Repeat("lorem ipsum dolor sit amet ", 6)+`end"`),
		S("push-empty-title", "An empty title: the CLI's title-required, MCP's argument error; RPC has engine semantics (accepted) and is left out here.", F3,
			`[cli] push title=`, `[mcp] push title=`, `[cli] push title="   "`, `[mcp] push title="   "`),
		S("push-after-done", "push under an item that is done.", doc("k-d", it{key: "k-d", title: "finished", done: true, notes: []string{"closed"}}),
			`push title=more`),
	)

	// ---- add ----
	add(
		S("add-child", "add creates the last child of the active item; active unchanged (edge 13).", F1,
			`add title=gamma`),
		S("add-into", "add into an item (edge 14).", F1, `add title=inner into=/1/1`),
		S("add-before", "add before an item (edge 15).", F1, `add title=pre before=/1/1`),
		S("add-after", "add after an item (edge 16).", F1, `add title=mid after=/1/1`),
		S("add-goto-self", "goto (true) moves to the new item (edge 21).", F1, `add title=gamma goto`),
		S("add-goto-dot", "goto=. is the new item (edge 20).", F1, `add title=gamma goto=.`),
		S("add-goto-parent", "goto=.. is the new item's parent (edge 22).", F1, `add title=gamma goto=..`),
		S("add-goto-absolute", "goto an absolute path.", F1, `add title=gamma goto=/2`),
		S("add-goto-unresolved", "goto to a missing path fails and writes nothing (edge 23).", F1,
			`add title=x goto=/9`, `show`),
		S("add-goto-not-a-position", "goto=foo is not a 1-based position (edge 24).", F1, `add title=x goto=foo`),
		S("add-goto-next-missing", "The new item is the last child: it has no next sibling (edge 30).", F1, `add title=z goto=+`),
		S("add-goto-prev", "add after /2 and go to its previous sibling (edge 28).", F4, `add title=y after=/2 goto=-`),
		S("add-goto-into-child", "goto into a child of the new item's sibling row.", F1, `add title=x after=/1/1 goto=-`),
		S("add-before-root-no-active", "Roots [X, a, b]; active stays null (edge 29).", F4, `add title=X before=/1`),
		S("add-first-root", "add on an empty noggin: no active item afterwards (edge 26).", "", `add title=first`, `add title=second`, `show path=/2`),
		S("add-into-missing", "An anchor that does not resolve (edge 27).", F1, `add title=x into=/9`),
		S("add-into-relative", "Anchors are resolved against the active item.", F2, `add title=x into=1`, `add title=y before=-`, `add title=z after=+`),
		S("add-into-goto", "add into an anchor and go there.", F1, `add title=x into=/2 goto`),
		S("add-goto-sibling-path", "goto -/1 from the new item.", F2, `add title=x after=/1/3 goto=-/1`),
		S("add-placement-conflict", "Two placements: a CLI usage error, an MCP argument error (edge 17).", F1,
			`[cli] add title=x before=/1/1 after=/1/2`, `[mcp] add title=x before=/1/1 after=/1/2`),
		S("add-placement-empty-anchor", "An empty anchor is placement-missing on the CLI and RPC; MCP treats it as absent (edge 19).", F1,
			`[cli,rpc] add title=x into=`),
		S("add-goto-falsy", "A falsy goto is goto-path-required on MCP and RPC (edge 207).", F1,
			`[mcp,rpc] add title=kid goto=""`),
		S("add-to-done-parent", "add under a done item.", doc("k-d", it{key: "k-d", title: "finished", done: true, notes: []string{"closed"}}),
			`add title=later`),
		S("add-many", "Ten adds keep sibling order.", F3,
			`add title=1st`, `add title=2nd`, `add title=3rd`, `add title=4th`, `add title=5th`,
			`add title=6th`, `add title=7th`, `add title=8th`, `add title=9th`, `add title=10th`, `show withDescendants`),
	)

	// ---- move ----
	add(
		S("move-into", "Move alpha into root2 (edge 33).", F1, `move path=/1/1 into=/2`),
		S("move-root-before", "Move root2 before root1; the active root1 is now /2 (edge 34).", F1, `move path=/2 before=/1`),
		S("move-after", "Move alpha after beta (edge 35).", F1, `move path=/1/1 after=/1/2`),
		S("move-cycle-into-self", "Moving an item into itself is a cycle (edge 36).", F1, `move path=/1/2 into=/1/2`),
		S("move-cycle-into-subtree", "Moving an item into its subtree is a cycle (edge 37).", F1, `move path=/1/2 into=/1/2/1`),
		S("move-cycle-next-to-descendant", "Moving next to a descendant is a cycle (edge 38).", F1, `move path=/1/2 after=/1/2/1`),
		S("move-before-itself", "before itself: no-op, still written (edge 39).", F1, `move path=/1/1 before=/1/1`),
		S("move-after-itself-root", "after itself: the view target is the active item (edge 40).", F1, `move path=/1 after=/1`),
		S("move-active-follows", "Moving the active item keeps it active (edge 41).", F1a("k-alpha"), `move into=/2`),
		S("move-no-active", "move without a path and no active item (edge 42).", F4, `move into=/2`),
		S("move-root-after-root", "Move root1 after root2 (edge 43).", F1, `move path=/1 after=/2`),
		S("move-goto", "move with goto: CLI and RPC; MCP has no goto, so it goes there with goto (edge 45).", F1,
			`[cli,rpc] move path=/2 into=/1/2/1 goto`, `[mcp-alt] move path=/2 into=/1/2/1`, `[mcp-alt] goto path=/1/2/1/1`, `show`),
		S("move-anchor-missing", "The anchor does not resolve (edge 46).", F1, `move path=/1/1 before=/1/9`),
		S("move-anchor-before-target", "The anchor is resolved before the target (edge 48).", F4, `move into=/9`),
		S("move-no-placement", "No placement: placement-missing (CLI, RPC), argument error (MCP) (edge 32, 211).", F1,
			`[cli,rpc] move path=/1/1`, `[mcp] move path=/1/1`),
		S("move-empty-anchor", "An empty anchor: placement-missing before the target is checked (edge 47).", F4,
			`[cli,rpc] move path=/1/1 before=`),
		S("move-placement-conflict", "Two placements on the CLI and MCP.", F1,
			`[cli] move path=/1/1 before=/2 into=/2`, `[mcp] move path=/1/1 before=/2 into=/2`),
		S("move-subtree-with-descendants", "beta moves with its kid.", F1, `move path=/1/2 into=/2`, `show path=/2 withDescendants`),
		S("move-into-own-parent", "into its own parent moves it to the end of the row.", F2, `move path=/1/1 into=/1`),
		S("move-relative-paths", "Relative target and anchor.", F2, `move path=- after=+`, `move path=. before=/2`),
		S("move-ancestor-of-active", "Moving an ancestor of the active item: the cursor follows by key.", F2, `move path=/1 after=/2`, `show`),
		S("move-to-root-level", "Move a nested item to the root level.", F2, `move path=/1/2/1 after=/2`),
	)

	// ---- goto ----
	add(
		S("goto-absolute", "goto an absolute path (edge 49).", F1, `goto path=/1/2`),
		S("goto-relative-dot-slash", "goto ./2/1 (edge 50).", F1, `goto path=./2/1`),
		S("goto-missing", "path-not-found with data (edge 52).", F1, `goto path=/9/9`),
		S("goto-slash", "`/` is an empty absolute path (edge 53).", F1, `goto path=/`),
		S("goto-dot", "goto . keeps the cursor and rewrites the file (edge 54).", F1, `goto path=.`),
		S("goto-relative-no-active", "A relative path without an active item (edge 55).", F4, `goto path=1`),
		S("goto-next-root", "goto + (edge 56).", F1, `goto path=+`),
		S("goto-prev", "goto -.", F2, `goto path=-`, `goto path=-`),
		S("goto-no-path", "goto without a path: each surface's own error (edge 51, 57, 226).", F1,
			`[cli] goto`, `[mcp] goto`, `[rpc] goto`, `[cli] goto path=""`, `[mcp] goto path=""`, `[rpc] goto path=""`),
		S("goto-walk", "A walk around the tree.", F2, `goto path=/2`, `goto path=/1/3`, `goto path=..`, `goto path=2/1`, `goto path=../../1/1`),
		S("goto-repairs-dangling-active", "A dangling active key reads as no active item; goto repairs it (edge 171).",
			doc("ghost", it{key: "k-a", title: "a"}), `show`, `goto path=/1`, `show`),
	)

	// ---- done / pop ----
	add(
		S("done-active", "done on the active leaf: closed note, cursor to parent (edge 58).", F5, `done`),
		S("done-path", "done on a path (edge 59).", F1, `done path=/1/1`),
		S("done-open-descendants", "open-descendants with its data (edge 60).", F1, `done path=/1/2`),
		S("done-force", "force closes and leaves the kid open (edge 61).", F1, `done path=/1/2 force`, `show path=/1/2`),
		S("done-close-all", "closeAll closes the subtree with one timestamp (edge 62).", F1, `done path=/1/2 closeAll`, `show path=/1/2`),
		S("done-already-done", "done on a done item adds no note (edge 63).",
			doc("k-root1", it{key: "k-root1", title: "root1"}, it{key: "k-alpha", parent: "k-root1", title: "alpha", done: true}),
			`done path=/1/1`),
		S("done-no-active", "done without active item (edge 64).", F4, `done`),
		S("done-goto", "done rejects goto: engine error on the CLI and RPC; MCP ignores goto (edge 65).", F1,
			`[cli,rpc] done goto=.`, `[cli,rpc] done path=/1/1 goto`),
		S("done-root", "Closing a root: active becomes null (edge 66).", F3, `done`),
		S("done-cursor-to-parent", "The cursor always goes to the closed item's parent (edge 67).", F1a("k-root2"), `done path=/1/1`),
		S("done-done-item-with-open-kid", "The open-descendants check runs although the item is done (edge 68, 69).",
			doc("k-A", it{key: "k-A", title: "A", done: true, notes: []string{"closed"}}, it{key: "k-a1", parent: "k-A", title: "a1"}),
			`done path=/1`, `edit path=/1 done`),
		S("done-force-close-all", "force + closeAll behaves like closeAll (edge 78).", F1, `done path=/1/2 force closeAll`),
		S("done-twice", "done on the active item twice: the second closes the parent.", F5, `done`, `done`, `show path=/1`),
		S("done-relative", "done on relative paths.", F2, `done path=-/1`, `done path=+`),
		S("pop-active", "pop = done on the active item (edge 71).", F5, `pop`),
		S("pop-path", "pop with a path: CLI usage error, RPC pop-no-path; MCP ignores it (edge 72, 77).", F1,
			`[cli] pop path=/1/1`, `[rpc] pop path=/1`),
		S("pop-goto", "pop with goto: CLI usage error, RPC goto-unsupported (edge 73).", F1,
			`[cli] pop goto=.`, `[rpc] pop goto=.`),
		S("pop-no-active", "pop without active item (edge 74).", F4, `pop`),
		S("pop-close-all", "pop closeAll closes everything below (edge 75).", Deep, `pop closeAll`),
		S("pop-open-descendants", "pop reports data.verb done (edge 76).", F1, `pop`),
		S("pop-force", "pop force leaves the kids open.", Deep, `pop force`, `show path=/1 withDescendants`),
		S("pop-to-empty-cursor", "Popping a chain to the top.", "", `push title=a`, `push title=b`, `pop`, `pop`, `show`, `show path=/1 withAll`),
	)

	// ---- edit ----
	f1AlphaDone := doc("k-root1", it{key: "k-root1", title: "root1"},
		it{key: "k-alpha", parent: "k-root1", title: "alpha", done: true, notes: []string{"closed"}},
		it{key: "k-beta", parent: "k-root1", title: "beta"}, it{key: "k-betakid", parent: "k-beta", title: "beta-kid"},
		it{key: "k-root2", title: "root2"})
	add(
		S("edit-done", "edit done closes without moving the cursor (edge 79).", F1, `edit path=/1/1 done`),
		S("edit-open", "edit open reopens; notes unchanged (edge 80).", f1AlphaDone, `edit path=/1/1 open`),
		S("edit-done-twice", "Closing a done item again adds no note (edge 81).", f1AlphaDone, `edit path=/1/1 done`),
		S("edit-done-and-open", "done and open together is a CLI usage error (edge 82).", F1, `[cli] edit path=/1/1 done open`),
		S("edit-nothing", "Nothing to edit: nothing-to-edit (CLI, RPC), argument error (MCP) (edge 83, 209).", F1,
			`[cli,rpc] edit path=/1/1`, `[mcp] edit path=/1/1`),
		S("edit-open-descendants", "edit done on an item with an open kid (edge 84).", F1, `edit path=/1/2 done`),
		S("edit-force-without-done", "force without done is option-misused (edge 85).", F1, `edit path=/1/1 open force`),
		S("edit-close-all-without-done", "closeAll without done is option-misused (edge 86).", F1, `edit path=/1/1 title=X closeAll`),
		S("edit-title-trimmed", "The new title is trimmed (edge 87).", F1, `edit path=/1/1 title="  renamed  "`),
		S("edit-same-title", "Renaming to the same title writes nothing (edge 88).", F1, `edit path=/1/1 title=alpha`),
		S("edit-done-goto", "edit done with goto moves the cursor to the target (edge 89).", F1, `edit path=/1/1 done goto=.`),
		S("edit-blank-title", "A blank title counts as absent (edge 90).", F1, `[cli,rpc] edit title="   "`, `[mcp] edit title="   "`),
		S("edit-no-active", "edit without active item (edge 91).", F4, `edit title=x`),
		S("edit-done-and-title", "Rename and close in one write (edge 92).", F1, `edit path=/1/1 done title=finished`),
		S("edit-open-on-open", "Reopening an open item writes nothing (edge 93).", F1, `edit open`),
		S("edit-done-force-active", "Close the active root despite open kids; cursor stays (edge 94).", F1, `edit done force`),
		S("edit-done-close-all", "edit done closeAll.", F1, `edit path=/1 done closeAll`, `show path=/1 withDescendants`),
		S("edit-goto-unresolved", "edit with a goto that does not resolve writes nothing.", F1, `edit path=/1/1 title=y goto=/9`, `show path=/1/1`),
		S("edit-goto-relative", "goto + from the edited item.", F1, `edit path=/1/1 title=y goto=+`),
		S("edit-goto-falsy", "A falsy goto (MCP and RPC only).", F1, `[mcp,rpc] edit path=/1/1 title=y goto=""`),
		S("edit-reopen-then-close", "Close, reopen and close again: two closed notes.", F3, `edit done`, `edit open`, `edit done`),
		S("edit-missing-path", "edit on a missing path.", F1, `edit path=/3 done`),
		S("edit-goto-child", "goto a bare relative path from the edited item.", F1, `edit path=/1 title=z goto=2`, `edit path=/1/2 title=w goto=../1`),
		S("edit-unicode-title", "Rename to unicode.", F3, `edit title="Ünïcødé ✅ 完成"`),
	)

	// ---- show ----
	add(
		S("show-default", "show renders the spine, the peers and the kids (edge 96).", F1, `show`),
		S("show-path", "show a nested path (edge 97).", F1, `show path=/1/2`),
		S("show-no-children", "noChildren drops the target's children (edge 98).", F1, `show noChildren`),
		S("show-no-active", "No target: data null (edge 99, 215).", F4, `show`),
		S("show-no-active-goto", "A goto with no target is ignored (edge 100).", F4, `[cli,rpc] show goto=/1`, `show`),
		S("show-with-siblings", "withSiblings widens every ancestor's row, not the roots (edge 101).", F2, `show path=/1/2/1 withSiblings`),
		S("show-with-descendants", "withDescendants expands the subtree (edge 102).", F1, `show path=/1 withDescendants`),
		S("show-with-all", "withAll = withSiblings + withDescendants.", F2, `show path=/1/1 withAll`),
		S("show-descendants-no-children", "The CLI rejects withDescendants with noChildren; MCP and RPC let noChildren win (edge 103, 104).", F1,
			`[cli] show withDescendants noChildren`, `[cli] show withAll noChildren`, `[mcp,rpc] show withDescendants noChildren`),
		S("show-goto", "show with goto moves the cursor (edge 105); MCP uses goto instead.", F1,
			`[cli,rpc] show path=/1/2 goto=.`, `[mcp-alt] goto path=/1/2`, `show`),
		S("show-goto-parent", "show with goto .. (edge 106).", F2, `[cli,rpc] show path=/1/2 goto=..`, `[mcp-alt] goto path=/1`, `show`),
		S("show-goto-same", "A goto to the active item writes nothing.", F1, `[cli,rpc] show goto=.`, `show`),
		S("show-goto-unresolved", "show goto to a missing path (CLI, RPC).", F1, `[cli,rpc] show goto=/7`),
		S("show-with-notes", "withNotes has no effect on the envelope (edge 107).", doc("k-only", it{key: "k-only", title: "only", notes: []string{"n1", "n2"}}),
			`show withNotes`),
		S("show-empty-path", "An empty path means the active item (edge 109).", F1, `show path=""`),
		S("show-f2", "The default view of F2 (edge 110).", F2, `show`),
		S("show-ship", "Ancestor siblings are trimmed (edge 111).", Ship, `show`, `show withSiblings`, `show path=/1/3 withAll`),
		S("show-empty-title", "A root with an empty title (edge 113).", doc("k-e", it{key: "k-e", title: "''"}), `show`),
		S("show-root-row", "A root target lists every root.", F2, `show path=/2`),
		S("show-all-flags", "Every show flag on a deep target.", Ship, `show path=/1/3/1 withSiblings withDescendants withNotes`),
		S("show-missing", "show on a missing path.", F1, `show path=/1/9`),
	)

	// ---- note ----
	add(
		S("note-active", "A note on the active item (edge 114).", F1, `note text="first observation"`),
		S("note-path", "A note on a path; cursor unchanged (edge 115).", F1, `note path=/1/2 text="note on beta"`),
		S("note-blank", "Blank text: text-required (CLI, RPC), argument error (MCP) (edge 117).", F1,
			`[cli,rpc] note`, `[mcp] note`, `[cli,rpc] note path=/1/2`, `[mcp] note path=/1/2 text="  "`),
		S("note-no-active", "No active item (edge 118).", F4, `note text=hi`),
		S("note-no-active-blank", "Text is checked before the target (edge 119).", F4, `[cli,rpc] note`),
		S("note-path-like-text", "`2024` is a path: no such child (edge 120).", F1, `note path=2024 text=plans`),
		S("note-goto", "note with goto (edge 122); MCP notes then goes.", F1,
			`[cli,rpc] note path=/1/2 text=observation goto=.`, `[mcp-alt] note path=/1/2 text=observation`, `[mcp-alt] goto path=/1/2`, `show`),
		S("note-padded", "Note text is trimmed (edge 124).", F1, `note text="  padded  "`),
		S("note-multi-line", "Multi-line note text.", F3, `note text="line1\nline2\n\nline4"`, `show`),
		S("note-unicode", "Unicode note text.", F3, `note text="naïve café — 📍 ✏️ ✅ 日本"`),
		S("note-closed-text", "A user note `closed` looks like a close note.", F3, `note text=closed`),
		S("note-long", "A long note is folded in the YAML file.", F3, `note text="`+strings.Repeat("word ", 40)+`end"`),
		S("note-yaml-special", "Note texts that YAML must quote.", F3,
			`note text=yes`, `note text=" 123"`, `note text="key: value"`, `note text="#not a comment"`, `note text="- item"`,
			`note text="{braces}"`, `note text="[brackets]"`, `note text="@at"`, `note text="*star"`, `note text="&amp"`, `note text="!bang"`, `note text="%pct"`),
		S("note-relative-paths", "Notes through relative paths.", F2, `note path=.. text=up`, `note path=- text=prev`, `note path=+ text=next`, `note path=1 text=kid`),
		S("note-missing-path", "A note on a missing path.", F1, `note path=/1/9 text=x`),
		S("note-many", "Five notes keep order.", F3, `note text=one`, `note text=two`, `note text=three`, `note text=four`, `note text=five`),
		S("note-tab-and-cr", "Control characters in a note.", F3, `note text="a\tb\rc"`),
		S("note-slash-text", "A text that only looks like a path to the resolver (edge 121 shape, on a path).", F1, `note path=/1 text="/foo bar"`),
	)

	// ---- delete ----
	add(
		S("delete-leaf", "Delete a leaf (edge 125).", F1, `delete path=/1/1`),
		S("delete-has-descendants", "has-descendants with data (edge 126).", F1, `delete path=/1/2`),
		S("delete-recursive", "Recursive delete (edge 127).", F1, `delete path=/1/2 recursive`),
		S("delete-active-leaf", "Deleting the active leaf moves the cursor to its parent (edge 128).", F5, `delete path=/1/1`),
		S("delete-last", "Deleting the last item: data is only `deleted` (edge 129).", F3, `delete path=/1`),
		S("delete-no-path", "No path: each surface's own error (edge 130).", F1, `[cli] delete`, `[mcp] delete`, `[rpc] delete`),
		S("delete-goto", "delete rejects goto: CLI usage error, RPC goto-unsupported (edge 131, 228).", F1,
			`[cli] delete path=/1/1 goto=.`, `[rpc] delete path=/1/1 goto=.`),
		S("delete-empty-path", "An empty path: path-required (CLI, RPC), argument error (MCP) (edge 132, 217).", F1,
			`[cli,rpc] delete path=""`, `[mcp] delete path=""`, `[mcp] delete path="  "`),
		S("delete-leaves-no-active", "Items remain but none is active: view null (edge 133).", F4, `delete path=/2`),
		S("delete-active-branch-recursive", "Recursive delete of the active branch: cursor to the target's parent (edge 134).",
			doc("k-a1x", it{key: "k-A", title: "A"}, it{key: "k-a1", parent: "k-A", title: "a1"}, it{key: "k-a1x", parent: "k-a1", title: "a1x"},
				it{key: "k-a2", parent: "k-A", title: "a2"}, it{key: "k-B", title: "B"}),
			`delete path=/1/1 recursive`, `show`),
		S("delete-root-recursive", "Recursive delete of the active root (edge 135).", F1, `delete path=/1 recursive`, `show`),
		S("delete-missing", "Deleting a missing path.", F1, `delete path=/1/9`),
		S("delete-relative", "Delete through relative paths.", F2, `delete path=- recursive`, `delete path=+`, `show`),
		S("delete-all-one-by-one", "Delete every item.", F4, `delete path=/1`, `delete path=/1`, `show`),
		S("delete-done-descendants-count", "Done descendants count too.", doc("", it{key: "k-p", title: "p"},
			it{key: "k-c", parent: "k-p", title: "c", done: true, notes: []string{"closed"}}), `delete path=/1`, `delete path=/1 recursive`),
		S("delete-deep-active", "Delete the active item's grandparent.", Deep, `goto path=/1/1/1`, `delete path=/1 recursive`),
	)

	// ---- copy ----
	add(
		S("copy-basic", "Copy a noggin into a missing one (edge 136).", "",
			`copy from=src.yaml to=dst.yaml`, `show path=/1 withDescendants noggin=dst.yaml`).with("src.yaml", Src),
		S("copy-into-existing", "Copied roots go after the destination's roots (edge 137).",
			doc("", it{key: "d-pre", title: "pre-existing"}), `copy from=src.yaml to=noggin.yaml`, `show path=/3`).with("src.yaml", Src),
		S("copy-empty-source", "An empty source copies nothing and writes nothing (edge 138).", "",
			`copy from=empty.yaml to=dst.yaml`).with("empty.yaml", Empty),
		S("copy-self", "Copying a noggin onto itself duplicates it once (edge 139).", F1, `copy from=noggin.yaml to=noggin.yaml`, `show path=/3 withDescendants`),
		S("copy-keeps-dest-active", "The destination's cursor stays (edge 140).", F3, `copy from=src.yaml to=noggin.yaml`, `show`).with("src.yaml", Src),
		S("copy-skips-orphans", "Orphans are skipped (edge 142).", "",
			`copy from=src.yaml to=dst.yaml`).with("src.yaml", doc("", it{key: "o-root", title: "root"}, it{key: "o-orphan", parent: "o-gone", title: "orphan"})),
		S("copy-no-provider", "A memory:// destination has no provider (edge 143).", "",
			`copy from=src.yaml to=memory://x`).with("src.yaml", Src),
		S("copy-no-created-at", "A missing createdAt stays missing (edge 145).", "",
			`copy from=src.yaml to=dst.yaml`).with("src.yaml", doc("", it{key: "n-1", title: "old", noCreatedAt: true})),
		S("copy-missing-source", "A missing source is an empty noggin.", "", `copy from=nothing.yaml to=dst.yaml`),
		S("copy-usage", "One location: the CLI's usage error, MCP's argument error (edge 141, 216).", "",
			`[cli] copy from=src.yaml`, `[mcp] copy from=src.yaml`).with("src.yaml", Src),
		S("copy-then-edit", "Work on the copy; the source is untouched.", "",
			`copy from=src.yaml to=noggin.yaml`, `goto path=/2`, `push title=new`, `done path=/1/1`).with("src.yaml", Src),
		S("copy-invalid-source", "An invalid source fails before anything is written.", "",
			`copy from=src.yaml to=dst.yaml`).with("src.yaml", "schemaVersion: 2\nactive: null\nitems: []\n"),
		S("copy-two-noggins-roundtrip", "Copy a into b and b back into a.", F3,
			`copy from=noggin.yaml to=other.yaml`, `copy from=other.yaml to=noggin.yaml`, `show path=/2 noggin=noggin.yaml`, `where noggin=other.yaml`),
	)

	// ---- paths (probed with show on F2, edges 146-159) ----
	paths := []struct{ name, fixture, path, desc string }{
		{"bare-position", F2, "1", "A bare position is relative to the active item."},
		{"leading-zero-relative", F2, "01", "Leading zeros in a relative path."},
		{"bare-missing", F2, "2", "A relative position past the end."},
		{"minus", F2, "-", "The previous sibling."},
		{"plus", F2, "+", "The next sibling."},
		{"minus-slash", F2, "-/1", "The previous sibling's first child."},
		{"plus-slash-missing", F2, "+/1", "gamma has no children."},
		{"plus-slash-trailing", F2, "+/", "A trailing slash with no descendant."},
		{"dotdot-child", F2, "../1", "The parent's first child."},
		{"dotdot-double-slash", F2, "..//1", "Empty segments are dropped."},
		{"dotdot-dot-slash", F2, ".././1", "../ then ./"},
		{"abs-not-position", F2, "/1/abc", "A segment that is not a position."},
		{"abs-zero", F2, "/1/0", "0 is not a 1-based position."},
		{"above-root", F2, "../..", "Climbing above a root."},
		{"double-slash", F2, "//", "An absolute path with only slashes."},
		{"abs-leading-zeros", F2, "/01/002", "Leading zeros in an absolute path."},
		{"trailing-slash", F2, "/1/", "A trailing slash."},
		{"dot-slash-dotdot", F2, "./..", ".. only counts at the front."},
		{"leading-space", F2, " /1", "A leading space makes a relative path."},
		{"dotdot-at-root", F3, "..", "The active root has no parent."},
		{"dot-no-active", F4, ".", "`.` without an active item."},
		{"dot", F2, ".", "`.` is the active item."},
		{"dot-slash", F2, "./", "`./` is the active item."},
		{"dotdot", F2, "..", "`..` is the parent."},
		{"minus-at-first", doc("k-only", it{key: "k-r", title: "r"}, it{key: "k-only", parent: "k-r", title: "only"}), "-", "No previous sibling."},
		{"plus-at-last", doc("k-only", it{key: "k-r", title: "r"}, it{key: "k-only", parent: "k-r", title: "only"}), "+", "No next sibling."},
		{"deep-dotdot", F2a("k-betakid"), "../../1", "Two levels up from beta-kid."},
		{"dotdot-minus", F2, "../-", "Sibling tokens only count at the front."},
		{"plus-one", F2, "+1", "`+1` is a relative segment."},
		{"minus-one", F2, "-1", "`-1` is a relative segment."},
		{"minus-slash-no-active", F4, "-/1", "`-/1` without an active item."},
		{"abs-missing-root", F2, "/9", "No such root."},
		{"abs-missing-child", F2, "/1/9", "No such child."},
		{"abs-deep", F2, "/1/1/1", "A depth-3 absolute path."},
		{"minus-slash-deep-missing", F2, "-/1/1", "alpha-kid has no children."},
		{"triple-slash", F2, "///", "Three slashes."},
		{"relative-two-levels", F2a("k-root1"), "2/1", "A two-level relative path."},
		{"dotdot-dotdot-slash", F2, "../../", "../../ from depth 2."},
		{"letters", F2, "foo", "Letters are not positions."},
	}
	for _, p := range paths {
		steps := []string{"show path=" + Q(p.path), "goto path=" + Q(p.path)}
		if strings.TrimSpace(p.path) != p.path {
			// noggin_goto trims its path; show does not.
			steps = steps[:1]
		}
		add(S("path-"+p.name, fmt.Sprintf("Path form %q: %s", p.path, p.desc), p.fixture, steps...))
	}

	// ---- documents and storage ----
	add(
		S("doc-unsupported-schema", "schemaVersion 99 (edge 160).", "schemaVersion: 99\nactive: null\nitems: []\n", `show`, `push title=x`, `where`),
		S("doc-schema-string", "schemaVersion \"1\" is not the number 1 (edge 161).", "schemaVersion: \"1\"\nactive: null\nitems: []\n", `show`),
		S("doc-schema-missing", "A missing schemaVersion (edge 161).", "active: null\nitems: []\n", `show`),
		S("doc-no-active-field", "A missing active field (edge 162).", "schemaVersion: 1\nitems: []\n", `show`),
		S("doc-no-items", "A missing items array (edge 163).", "schemaVersion: 1\nactive: null\n", `show`),
		S("doc-not-yaml", "Text that does not parse (edge 164).", ": : : not yaml\n", `add title=x`),
		S("doc-scalar", "A scalar top level (edge 165).", "hello\n", `show`),
		S("doc-empty-file", "An empty file is an empty noggin; the first write fills it (edge 166).", "\n", `show`, `add title=x`),
		S("doc-whitespace-file", "A whitespace-only file.", "   \n\n", `push title=x`),
		S("doc-json-file", "A .json noggin keeps unknown fields and drops closedAt (edge 167).", "",
			`goto path=/1 noggin=n.json`, `show noggin=n.json`).with("n.json",
			`{"schemaVersion": 1, "topExtra": true, "active": null, "items": [{"key": "j-1", "parentKey": null, "title": "json item", "done": false, "closedAt": "x", "extra": 42, "notes": []}]}`+"\n"),
		S("doc-item-without-notes", "An item without notes (edge 168).", "schemaVersion: 1\nactive: null\nitems:\n  - key: k\n    parentKey: null\n    title: t\n    done: false\n", `show path=/1`),
		S("doc-note-without-text", "A note without text is invalid-note (edge 169).", "schemaVersion: 1\nactive: null\nitems:\n  - key: k\n    parentKey: null\n    title: t\n    done: false\n    notes:\n      - timestamp: x\n", `show path=/1`),
		S("doc-note-without-timestamp", "A note without timestamp reads as null (edge 170).", "schemaVersion: 1\nactive: k\nitems:\n  - key: k\n    parentKey: null\n    title: t\n    done: false\n    notes:\n      - text: hi\n", `show`, `note text=more`),
		S("doc-dangling-active", "A dangling active: reads fine, writes that keep it fail (edge 171).", doc("ghost", it{key: "k-a", title: "a"}),
			`add title=x`, `show`),
		S("doc-dangling-parent", "A dangling parent: invisible, and every write fails (edge 172).",
			doc("", it{key: "k-a", title: "a"}, it{key: "k-o", parent: "k-missing", title: "orphan"}), `show path=/1`, `goto path=/1`),
		S("doc-duplicate-key", "Duplicate keys block writes (edge 173).", doc("", it{key: "a", title: "one"}, it{key: "a", title: "two"}),
			`show path=/2`, `push title=x`),
		S("doc-self-parent", "A self-parent cycle (edge 174).", doc("", it{key: "k-a", title: "a"}, it{key: "b", parent: "b", title: "b"}),
			`show path=/1`, `add title=z`),
		S("doc-unknown-fields", "Unknown fields are kept in place.", "schemaVersion: 1\nactive: k\nextra: kept\nitems:\n  - key: k\n    owner: me\n    parentKey: null\n    title: t\n    done: false\n    createdAt: '2026-01-01T00:00:00.000Z'\n    notes: []\n",
			`note text=hello`),
		S("doc-legacy-fields", "closedAt and pushedAt are dropped on write.", "schemaVersion: 1\nactive: k\nitems:\n  - key: k\n    parentKey: null\n    title: t\n    done: true\n    createdAt: '2026-01-01T00:00:00.000Z'\n    closedAt: '2026-01-01T00:00:00.000Z'\n    pushedAt: '2026-01-01T00:00:00.000Z'\n    notes: []\n",
			`edit title=renamed`),
		S("doc-unquoted-timestamps", "Hand-written unquoted timestamps are read as strings.", "schemaVersion: 1\nactive: k\nitems:\n  - key: k\n    parentKey: null\n    title: t\n    done: false\n    createdAt: 2026-01-01T00:00:00Z\n    notes:\n      - timestamp: 2026-01-01T00:00:00Z\n        text: hand\n",
			`show`, `note text=x`),
		S("doc-interleaved-items", "Sibling order is array order among siblings.", "schemaVersion: 1\nactive: null\nitems:\n  - key: c1\n    parentKey: r\n    title: c1\n    done: false\n    notes: []\n  - key: r\n    parentKey: null\n    title: r\n    done: false\n    notes: []\n  - key: c2\n    parentKey: r\n    title: c2\n    done: false\n    notes: []\n",
			`show path=/1`, `add title=c3 into=/1`, `add title=c0 before=/1/1`, `move path=/1/4 before=/1/2`),
		S("lock-live", "A lock held by a live process: writes time out, reads work (edge 175).", F3,
			`show`, `push title=x`).with("noggin.yaml.lock/pid", "$PID\n$NOWMS\n"),
		S("lock-dead-pid", "A lock of a dead process is reclaimed at once (edge 176).", F3,
			`push title=x`).with("noggin.yaml.lock/pid", "4194301\n$NOWMS\n"),
		S("lock-stale-time", "A lock older than 30 s is reclaimed (edge 178).", F3,
			`push title=x`).with("noggin.yaml.lock/pid", "$PID\n1000\n"),
		S("io-directory", "A location that is a directory: io (edge 179).", "", `show noggin=adir`, `push title=x noggin=adir`).with("dir adir", ""),
		S("storage-missing-dir-read", "Reads need no directory (edge 181).", "", `show noggin=no/such/dir/x.yaml`, `where noggin=no/such/dir/x.yaml`),
		S("storage-missing-dir-write", "Writes create missing parent directories (our deliberate difference).", "", `push title=x noggin=sub/dir/x.yaml`, `show noggin=sub/dir/x.yaml`),
		S("storage-memory-no-provider", "memory:// has no provider (edge 182).", "", `show noggin=memory://x`, `push title=x noggin=memory://x`),
		S("storage-unknown-scheme", "An unknown scheme has no provider.", "", `show noggin=foo://bar`),
		S("storage-rpc-outside-root", "The RPC server refuses locations outside its root (location-refused, a code new in noggin for Go).", "",
			`[rpc] show noggin=../../outside.yaml`, `[rpc] push title=x noggin=/etc/noggin-e2e.yaml`),
		S("where-relative", "where echoes the location as given (edge 184).", "", `where`, `where noggin=other.yaml`),
		S("where-invalid", "where opens the noggin (edge 188).", "schemaVersion: 2\nactive: null\nitems: []\n", `where`),
		S("providers", "providers lists the file scheme (edge 189).", "", `providers`),
		S("yaml-layout", "The written YAML layout: quoting, notes, done (edge 190).", "",
			`push title=root`, `add title=kid`, `note text="line1\nline2"`, `edit path=/1/1 done`),
	)

	// ---- workflows ----
	add(
		S("flow-side-quest", "A side-quest: push, note, pop, back where we were.", F3,
			`push title="side quest"`, `note text="found the bug"`, `pop`, `show`),
		S("flow-capture-and-reorder", "Capture todos, reorder, close them.", F3,
			`add title=first`, `add title=second`, `add title=third`, `move path=/1/3 before=/1/1`, `done path=/1/2`, `show withDescendants`),
		S("flow-rename-close-reopen", "Rename, close, reopen, note.", F1,
			`edit path=/1/2 title="beta renamed"`, `edit path=/1/2 done closeAll`, `edit path=/1/2 open`, `note path=/1/2 text=reopened`, `show path=/1/2`),
		S("flow-build-and-delete", "Build a tree and delete it again.", "",
			`push title=a`, `add title=b`, `add title=c`, `goto path=/1/2`, `push title=d`, `delete path=/1 recursive`, `show`),
		S("flow-two-noggins", "Two noggins in one scenario do not interfere.", "",
			`push title=mine`, `push title=theirs noggin=other.yaml`, `show`, `show noggin=other.yaml`),
		S("flow-close-everything", "Close the whole tree from the top.", F2,
			`done path=/1 closeAll`, `done path=/2`, `show path=/1 withAll`),
		S("flow-mixed-paths", "Mixed absolute and relative addressing.", F2,
			`goto path=1`, `add title=x into=..`, `note path=../../3 text=g`, `move path=/1/3 before=/1/1`, `show path=/1 withDescendants`),
		S("flow-unicode-multiline", "Unicode and multi-line text everywhere.", "",
			`push title="Ω root"`, `note text="première ligne\ndeuxième ligne 📍"`, `add title="子 item"`, `edit path=/1/1 title="子 renamed ✅"`, `show withDescendants`),
	)

	// ---- a 1,000-item noggin ----
	big := func(name, desc string, steps ...string) scn {
		return scn{name: name, desc: desc, steps: steps, files: [][2]string{{"generate noggin.yaml items=1000", ""}}}
	}
	add(
		big("big-show", "Views of a 1,000-item noggin.", `show`, `show path=/10`, `show path=/8/8/8 withSiblings`),
		big("big-push-note-done", "Writes on a 1,000-item noggin.", `push title=new`, `note text=hello`, `done`, `show`),
		big("big-move-delete", "Move and delete subtrees of a 1,000-item noggin.", `move path=/1 after=/10`, `delete path=/1 recursive`, `show path=/9`),
		big("big-copy", "Copy a 1,000-item noggin into an empty one.", `copy from=noggin.yaml to=copy.yaml`, `show path=/8/8/8 noggin=copy.yaml`),
		big("big-close-all", "Close a big subtree.", `done path=/5 closeAll`, `show path=/5 withDescendants`),
	)
	return all
}

// Q quotes a value for a step line when needed.
func Q(v string) string { return e2e.Q(v) }
