package noggin

import (
	"errors"
	"testing"
)

// TestCatalog pins the CLI wording of docs/envelope.md for every code the
// catalog renders (the "<verb>: " prefix comes from data.verb, else the
// surface verb).
func TestCatalog(t *testing.T) {
	tests := []struct {
		err     *Error
		surface string
		want    string
		exit    int
	}{
		{NewError(CodeNoActiveItem, F("verb", "note")), "", "note: no active item; pass a path", 1},
		{NewError(CodeNoLocation), "show", "show: location required", 2},
		{NewError(CodeNoProvider, F("scheme", "memory"), F("location", "memory://x")), "show", "show: no provider registered for scheme 'memory://'", 2},
		{NewError(CodePathNotFound, F("path", "/9"), F("detail", "path not found: /9 (no position 9 at root)")), "goto", "goto: path not found: /9 (no position 9 at root)", 1},
		{NewError(CodePathRequired, F("verb", "delete")), "", "delete: path required", 2},
		{NewErrorDetail(CodeCycle, "cannot move item into itself", F("verb", "move"), F("path", "/1/2"), F("title", "beta"), F("placementKind", "into")), "", "move: cannot move /1/2 into itself or its subtree (would create a cycle)", 1},
		{NewErrorDetail(CodeCycle, "cannot move item next to its own descendant", F("verb", "move"), F("path", "/1/2"), F("title", "beta"), F("placementKind", "before")), "", "move: cannot move item next to its own descendant", 1},
		{NewError(CodePlacementMissing, F("verb", "add")), "", "add: choose exactly one of before, after or into (CLI: --before, --after, --into)", 2},
		{NewError(CodePlacementInvalid, F("verb", "add"), F("kind", "under")), "", "add: unknown placement kind 'under'", 2},
		{NewError(CodeTextRequired, F("verb", "note")), "", "note: text required", 2},
		{NewError(CodeNothingToEdit, F("verb", "edit")), "", "edit: nothing to edit; pass a state or a title (CLI: --done, --open, --title)", 2},
		{NewErrorDetail(CodeOptionMisused, "force", F("verb", "edit")), "", "edit: force (CLI: --force) only applies when closing (state done; CLI: --done)", 2},
		{NewErrorDetail(CodeOptionMisused, "closeAll", F("verb", "edit")), "", "edit: closeAll (CLI: --close-all) only applies when closing (state done; CLI: --done)", 2},
		{NewError(CodeGotoUnsupported, F("verb", "done")), "", "done: goto is not supported", 2},
		{NewError(CodeGotoBaseMissing, F("verb", "add")), "", "add: goto has no base item", 1},
		{NewError(CodeGotoPathRequired, F("verb", "add")), "", "add: goto requires a path", 1},
		{NewError(CodeGotoUnresolved, F("verb", "add"), F("path", "+"), F("detail", "path '+': active item has no next sibling")), "", "add: goto path '+': active item has no next sibling", 1},
		{NewError(CodeHasDescendants, F("verb", "delete"), F("path", "/1/2"), F("title", "beta"), F("descendantCount", 1)), "", "delete: /1/2 has 1 descendant(s); pass recursive (CLI: --recursive) to delete the whole subtree", 1},
		{NewError(CodeOpenDescendants, F("verb", "done"), F("path", "/1"), F("title", "root1"), F("openCount", 3)), "pop", "done: /1 has 3 open descendant(s); pass closeAll to close them too, or force to close root1 anyway (CLI: --close-all, --force)", 1},
		{NewError(CodePopNoPath, F("verb", "pop")), "", "pop: takes no path; pop always operates on the active item", 2},
		{NewError(CodeInvalidNote), "show", "show: invalid note object", 2},
		{NewErrorDetail(CodeLockTimeout, "/tmp/x.yaml"), "add", "add: could not acquire lock on /tmp/x.yaml within 5000ms", 1},
		{NewError(CodeSourceRequired, F("verb", "copy")), "", "copy: source noggin required", 2},
		{NewError(CodeDestRequired, F("verb", "copy")), "", "copy: dest noggin required", 2},
		{Errorf(CodeInvalidOp, "unknown op type").With(F("opType", "zap")), "", "unknown op type", 2},
		{Errorf(CodeInvalidDocument, "expected active field"), "show", "show: expected active field", 2},
		{Usage(CodeNogginError, 2, "unknown flag: --bogus"), "push", "unknown flag: --bogus", 2},
	}
	for _, tc := range tests {
		t.Run(tc.err.Code, func(t *testing.T) {
			if got := tc.err.MessageFor(tc.surface); got != tc.want {
				t.Errorf("message = %q, want %q", got, tc.want)
			}
			if tc.err.ExitCode != tc.exit {
				t.Errorf("exit = %d, want %d", tc.err.ExitCode, tc.exit)
			}
		})
	}
	w := Wrap(errors.New("disk on fire"))
	if w.Code != CodeNogginError || w.ExitCode != 1 || w.MessageFor("add") != "disk on fire" || Wrap(nil) != nil {
		t.Errorf("Wrap = %+v", w)
	}
	if e := NewError(CodeTextRequired); Wrap(e) != e || e.Error() != "text required" {
		t.Error("Wrap of a noggin error")
	}
	if ExitCodeOf("brand-new-code") != 1 {
		t.Error("unknown codes exit 1")
	}
}
