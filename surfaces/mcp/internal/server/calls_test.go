package server

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/noggin-go/noggin/core/store"
)

// callCase is one tool call on a fresh noggin. In args, $N stands for the
// absolute noggin file and $D for its directory; in the golden text the
// directory is written as $DIR.
type callCase struct {
	name    string
	fixture string
	tool    string
	args    string
	// setup runs after the fixture is written.
	setup func(t *testing.T, dir string)
	// opts adjusts the store options (dir is the test directory).
	opts func(dir string) store.Options
	// check inspects the noggin file afterwards.
	check func(t *testing.T, file string)
}

var callCases = []callCase{
	// noggin_show
	{name: "show", fixture: "F1", tool: "noggin_show", args: `{"noggin": "$N"}`},
	{name: "show-path-withall", fixture: "F1", tool: "noggin_show", args: `{"noggin": "$N", "path": "/1", "withAll": true}`},
	{name: "show-withsiblings", fixture: "F5", tool: "noggin_show", args: `{"noggin": "$N", "withSiblings": true}`},
	{name: "show-withdescendants", fixture: "F1", tool: "noggin_show", args: `{"noggin": "$N", "withDescendants": true}`},
	{name: "show-nochildren", fixture: "F1", tool: "noggin_show", args: `{"noggin": "$N", "noChildren": true, "withNotes": true}`},
	{name: "show-nochildren-withdescendants", fixture: "F1", tool: "noggin_show", args: `{"noggin": "$N", "noChildren": true, "withDescendants": true}`},
	{name: "show-empty-path", fixture: "F1", tool: "noggin_show", args: `{"noggin": "$N", "path": ""}`},
	{name: "show-path-untrimmed", fixture: "F1", tool: "noggin_show", args: `{"noggin": "$N", "path": " /1"}`},
	{name: "show-no-active", fixture: "F4", tool: "noggin_show", args: `{"noggin": "$N"}`},    // 215
	{name: "show-missing-file", fixture: "F0", tool: "noggin_show", args: `{"noggin": "$N"}`}, // null, nothing created
	{name: "show-path-not-found", fixture: "F1", tool: "noggin_show", args: `{"noggin": "$N", "path": "/9"}`},
	{name: "show-goto-unknown", fixture: "F1", tool: "noggin_show", args: `{"noggin": "$N", "path": "/2", "goto": true}`},
	{name: "show-noggin-missing", fixture: "F1", tool: "noggin_show", args: `{}`}, // 205
	{name: "show-noggin-blank", fixture: "F1", tool: "noggin_show", args: `{"noggin": "   "}`},
	{name: "show-noggin-number", fixture: "F1", tool: "noggin_show", args: `{"noggin": 5}`},
	{name: "show-noggin-spaced", fixture: "F1", tool: "noggin_show", args: `{"noggin": "  $N\n"}`},
	{name: "show-no-arguments-object", fixture: "F1", tool: "noggin_show", args: `null`},

	// noggin_push
	{name: "push", fixture: "F1", tool: "noggin_push", args: `{"noggin": "$N", "title": "new"}`},
	{name: "push-empty-noggin", fixture: "F0", tool: "noggin_push", args: `{"noggin": "$N", "title": "first"}`},
	{name: "push-number-title", fixture: "F3", tool: "noggin_push", args: `{"noggin": "$N", "title": 5}`}, // 210
	{name: "push-float-title", fixture: "F3", tool: "noggin_push", args: `{"noggin": "$N", "title": 1.50}`},
	{name: "push-bool-title", fixture: "F3", tool: "noggin_push", args: `{"noggin": "$N", "title": true}`},
	{name: "push-trimmed-title", fixture: "F3", tool: "noggin_push", args: `{"noggin": "$N", "title": "  spaced out  "}`},
	{name: "push-no-active", fixture: "F4", tool: "noggin_push", args: `{"noggin": "$N", "title": "x"}`},
	{name: "push-title-missing", fixture: "F1", tool: "noggin_push", args: `{"noggin": "$N"}`},
	{name: "push-title-blank", fixture: "F1", tool: "noggin_push", args: `{"noggin": "$N", "title": " \t "}`},
	{name: "push-title-null", fixture: "F1", tool: "noggin_push", args: `{"noggin": "$N", "title": null}`},
	{name: "push-invalid-before-title", fixture: "BAD", tool: "noggin_push", args: `{"noggin": "$N"}`},
	{name: "push-noggin-missing", fixture: "F1", tool: "noggin_push", args: `{"title": "x"}`},

	// noggin_add
	{name: "add", fixture: "F1", tool: "noggin_add", args: `{"noggin": "$N", "title": "gamma"}`},
	{name: "add-empty-noggin", fixture: "F0", tool: "noggin_add", args: `{"noggin": "$N", "title": "first"}`},
	{name: "add-into", fixture: "F1", tool: "noggin_add", args: `{"noggin": "$N", "title": "inner", "into": "/1/1"}`},
	{name: "add-before", fixture: "F1", tool: "noggin_add", args: `{"noggin": "$N", "title": "pre", "before": "/1/1"}`},
	{name: "add-after", fixture: "F1", tool: "noggin_add", args: `{"noggin": "$N", "title": "mid", "after": "/1/1"}`},
	{name: "add-before-root", fixture: "F4", tool: "noggin_add", args: `{"noggin": "$N", "title": "X", "before": "/1"}`},
	{name: "add-falsy-placements", fixture: "F1", tool: "noggin_add", args: `{"noggin": "$N", "title": "x", "before": "", "after": null, "into": "/2"}`},
	{name: "add-number-anchor", fixture: "F1", tool: "noggin_add", args: `{"noggin": "$N", "title": "x", "into": 2}`},
	{name: "add-goto-true", fixture: "F1", tool: "noggin_add", args: `{"noggin": "$N", "title": "gamma", "goto": true}`},
	{name: "add-goto-parent", fixture: "F1", tool: "noggin_add", args: `{"noggin": "$N", "title": "gamma", "goto": ".."}`},
	{name: "add-goto-prev", fixture: "F4", tool: "noggin_add", args: `{"noggin": "$N", "title": "y", "after": "/2", "goto": "-"}`},
	{name: "add-goto-false", fixture: "F1", tool: "noggin_add", args: `{"noggin": "$N", "title": "kid", "goto": false}`}, // 207
	{name: "add-goto-empty", fixture: "F1", tool: "noggin_add", args: `{"noggin": "$N", "title": "kid", "goto": ""}`},
	{name: "add-goto-null", fixture: "F1", tool: "noggin_add", args: `{"noggin": "$N", "title": "kid", "goto": null}`},
	{name: "add-goto-unresolved", fixture: "F1", tool: "noggin_add", args: `{"noggin": "$N", "title": "x", "goto": "/9"}`},
	{name: "add-goto-next-missing", fixture: "F1", tool: "noggin_add", args: `{"noggin": "$N", "title": "z", "goto": "+"}`},
	{name: "add-anchor-not-found", fixture: "F1", tool: "noggin_add", args: `{"noggin": "$N", "title": "x", "into": "/9"}`},
	{name: "add-placement-conflict", fixture: "F1", tool: "noggin_add", args: `{"noggin": "$N", "title": "x", "before": "/1/1", "after": "/1/2"}`},
	{name: "add-title-missing", fixture: "F1", tool: "noggin_add", args: `{"noggin": "$N", "into": "/1"}`},

	// noggin_goto
	{name: "goto", fixture: "F1", tool: "noggin_goto", args: `{"noggin": "$N", "path": "/1/2"}`},
	{name: "goto-trimmed", fixture: "F1", tool: "noggin_goto", args: `{"noggin": "$N", "path": "  /1/2/1 "}`},
	{name: "goto-relative", fixture: "F1", tool: "noggin_goto", args: `{"noggin": "$N", "path": "./2/1"}`},
	{name: "goto-next", fixture: "F1", tool: "noggin_goto", args: `{"noggin": "$N", "path": "+"}`},
	{name: "goto-number", fixture: "F1", tool: "noggin_goto", args: `{"noggin": "$N", "path": 2}`},
	{name: "goto-path-missing", fixture: "F1", tool: "noggin_goto", args: `{"noggin": "$N"}`},
	{name: "goto-path-blank", fixture: "F1", tool: "noggin_goto", args: `{"noggin": "$N", "path": "   "}`},
	{name: "goto-not-found", fixture: "F1", tool: "noggin_goto", args: `{"noggin": "$N", "path": "/9/9"}`},
	{name: "goto-slash", fixture: "F1", tool: "noggin_goto", args: `{"noggin": "$N", "path": "/"}`},
	{name: "goto-relative-no-active", fixture: "F4", tool: "noggin_goto", args: `{"noggin": "$N", "path": "1"}`},

	// noggin_done
	{name: "done", fixture: "F5", tool: "noggin_done", args: `{"noggin": "$N"}`},
	{name: "done-path", fixture: "F1", tool: "noggin_done", args: `{"noggin": "$N", "path": "/1/1"}`},
	{name: "done-empty-path", fixture: "F5", tool: "noggin_done", args: `{"noggin": "$N", "path": ""}`}, // 214
	{name: "done-root", fixture: "F3", tool: "noggin_done", args: `{"noggin": "$N"}`},
	{name: "done-open-descendants", fixture: "F1", tool: "noggin_done", args: `{"noggin": "$N", "path": "/1/2"}`},
	{name: "done-force", fixture: "F1", tool: "noggin_done", args: `{"noggin": "$N", "path": "/1/2", "force": true}`},
	{name: "done-closeall", fixture: "F1", tool: "noggin_done", args: `{"noggin": "$N", "path": "/1/2", "closeAll": true}`},
	{name: "done-force-truthy-string", fixture: "F1", tool: "noggin_done", args: `{"noggin": "$N", "path": "/1/2", "force": "yes"}`},
	{name: "done-goto-unsupported", fixture: "F1", tool: "noggin_done", args: `{"noggin": "$N", "path": "/1/1", "goto": "."}`},
	{name: "done-no-active", fixture: "F4", tool: "noggin_done", args: `{"noggin": "$N"}`},
	{name: "done-not-found", fixture: "F1", tool: "noggin_done", args: `{"noggin": "$N", "path": "/1/9"}`},

	// noggin_pop
	{name: "pop", fixture: "F5", tool: "noggin_pop", args: `{"noggin": "$N"}`},
	{name: "pop-path", fixture: "F5", tool: "noggin_pop", args: `{"noggin": "$N", "path": "/1", "goto": "."}`},
	{name: "pop-open-descendants", fixture: "F1", tool: "noggin_pop", args: `{"noggin": "$N"}`},
	{name: "pop-closeall", fixture: "F1", tool: "noggin_pop", args: `{"noggin": "$N", "closeAll": true}`},
	{name: "pop-force", fixture: "F1", tool: "noggin_pop", args: `{"noggin": "$N", "force": true}`},
	{name: "pop-no-active", fixture: "F4", tool: "noggin_pop", args: `{"noggin": "$N"}`},

	// noggin_edit
	{name: "edit-done", fixture: "F1", tool: "noggin_edit", args: `{"noggin": "$N", "path": "/1/1", "state": "done"}`},
	{name: "edit-open-noop", fixture: "F1", tool: "noggin_edit", args: `{"noggin": "$N", "state": "open"}`},
	{name: "edit-title", fixture: "F1", tool: "noggin_edit", args: `{"noggin": "$N", "path": "/1/1", "title": "  renamed  "}`},
	{name: "edit-done-and-title", fixture: "F1", tool: "noggin_edit", args: `{"noggin": "$N", "path": "/1/1", "state": "done", "title": "finished"}`},
	{name: "edit-done-goto", fixture: "F1", tool: "noggin_edit", args: `{"noggin": "$N", "path": "/1/1", "state": "done", "goto": "."}`},
	{name: "edit-goto-false", fixture: "F1", tool: "noggin_edit", args: `{"noggin": "$N", "path": "/1/1", "title": "x", "goto": false}`},
	{name: "edit-open-descendants", fixture: "F1", tool: "noggin_edit", args: `{"noggin": "$N", "path": "/1", "state": "done"}`}, // 213
	{name: "edit-closeall", fixture: "F1", tool: "noggin_edit", args: `{"noggin": "$N", "path": "/1", "state": "done", "closeAll": true}`},
	{name: "edit-nothing", fixture: "F1", tool: "noggin_edit", args: `{"noggin": "$N", "path": "/1/1"}`},
	{name: "edit-bad-state", fixture: "F1", tool: "noggin_edit", args: `{"noggin": "$N", "state": "closed"}`},                          // 209
	{name: "edit-bad-state-with-title", fixture: "F1", tool: "noggin_edit", args: `{"noggin": "$N", "state": "closed", "title": "x"}`}, // 209
	{name: "edit-null-state-with-title", fixture: "F1", tool: "noggin_edit", args: `{"noggin": "$N", "state": null, "title": "x"}`},
	{name: "edit-blank-title", fixture: "F1", tool: "noggin_edit", args: `{"noggin": "$N", "title": "   "}`},
	{name: "edit-number-title", fixture: "F1", tool: "noggin_edit", args: `{"noggin": "$N", "title": 5}`},
	{name: "edit-force-misused", fixture: "F1", tool: "noggin_edit", args: `{"noggin": "$N", "path": "/1/1", "state": "open", "force": true}`},
	{name: "edit-closeall-misused", fixture: "F1", tool: "noggin_edit", args: `{"noggin": "$N", "path": "/1/1", "title": "X", "closeAll": true}`},
	{name: "edit-no-active", fixture: "F4", tool: "noggin_edit", args: `{"noggin": "$N", "title": "x"}`},

	// noggin_note
	{name: "note", fixture: "F1", tool: "noggin_note", args: `{"noggin": "$N", "text": "  found it  "}`},
	{name: "note-path", fixture: "F1", tool: "noggin_note", args: `{"noggin": "$N", "path": "/1/2/1", "text": "deep"}`},
	{name: "note-goto", fixture: "F1", tool: "noggin_note", args: `{"noggin": "$N", "text": "hi", "goto": "/1/1"}`}, // 208
	{name: "note-number-text", fixture: "F1", tool: "noggin_note", args: `{"noggin": "$N", "text": 42}`},
	{name: "note-multiline", fixture: "F1", tool: "noggin_note", args: `{"noggin": "$N", "text": "line one\nline \"two\" <&> ✓"}`},
	{name: "note-text-missing", fixture: "F1", tool: "noggin_note", args: `{"noggin": "$N"}`},
	{name: "note-text-blank", fixture: "F1", tool: "noggin_note", args: `{"noggin": "$N", "text": " \n "}`},
	{name: "note-no-active", fixture: "F4", tool: "noggin_note", args: `{"noggin": "$N", "text": "x"}`},
	{name: "note-not-found", fixture: "F1", tool: "noggin_note", args: `{"noggin": "$N", "path": "/3", "text": "x"}`},

	// noggin_move
	{name: "move-into", fixture: "F1", tool: "noggin_move", args: `{"noggin": "$N", "path": "/1/1", "into": "/2"}`},
	{name: "move-before", fixture: "F1", tool: "noggin_move", args: `{"noggin": "$N", "path": "/2", "before": "/1"}`},
	{name: "move-after", fixture: "F1", tool: "noggin_move", args: `{"noggin": "$N", "path": "/1/1", "after": "/1/2"}`},
	{name: "move-active", fixture: "F5", tool: "noggin_move", args: `{"noggin": "$N", "after": "/1"}`},
	{name: "move-self-noop", fixture: "F1", tool: "noggin_move", args: `{"noggin": "$N", "path": "/1/1", "before": "/1/1"}`},
	{name: "move-goto", fixture: "F1", tool: "noggin_move", args: `{"noggin": "$N", "path": "/1/1", "into": "/2", "goto": true}`},
	{name: "move-missing", fixture: "F1", tool: "noggin_move", args: `{"noggin": "$N"}`},                                                // 211
	{name: "move-conflict", fixture: "F1", tool: "noggin_move", args: `{"noggin": "$N", "path": "/1/1", "before": "/2", "into": "/2"}`}, // 211
	{name: "move-cycle-self", fixture: "F1", tool: "noggin_move", args: `{"noggin": "$N", "path": "/1/2", "into": "/1/2"}`},
	{name: "move-cycle-subtree", fixture: "F1", tool: "noggin_move", args: `{"noggin": "$N", "path": "/1/2", "into": "/1/2/1"}`},
	{name: "move-cycle-descendant", fixture: "F1", tool: "noggin_move", args: `{"noggin": "$N", "path": "/1/2", "after": "/1/2/1"}`},
	{name: "move-anchor-not-found", fixture: "F4", tool: "noggin_move", args: `{"noggin": "$N", "into": "/9"}`},
	{name: "move-no-active", fixture: "F4", tool: "noggin_move", args: `{"noggin": "$N", "into": "/2"}`},

	// noggin_delete
	{name: "delete-leaf", fixture: "F1", tool: "noggin_delete", args: `{"noggin": "$N", "path": "/1/1"}`},
	{name: "delete-trimmed", fixture: "F1", tool: "noggin_delete", args: `{"noggin": "$N", "path": " /2 "}`},
	{name: "delete-has-descendants", fixture: "F1", tool: "noggin_delete", args: `{"noggin": "$N", "path": "/1/2"}`},
	{name: "delete-recursive", fixture: "F1", tool: "noggin_delete", args: `{"noggin": "$N", "path": "/1/2", "recursive": true}`},
	{name: "delete-active-root", fixture: "F1", tool: "noggin_delete", args: `{"noggin": "$N", "path": "/1", "recursive": true}`},
	{name: "delete-active-leaf", fixture: "F5", tool: "noggin_delete", args: `{"noggin": "$N", "path": "."}`},
	{name: "delete-goto-unsupported", fixture: "F1", tool: "noggin_delete", args: `{"noggin": "$N", "path": "/2", "goto": "."}`},
	{name: "delete-path-missing", fixture: "F1", tool: "noggin_delete", args: `{"noggin": "$N"}`},
	{name: "delete-path-blank", fixture: "F1", tool: "noggin_delete", args: `{"noggin": "$N", "path": "  "}`}, // 217
	{name: "delete-not-found", fixture: "F1", tool: "noggin_delete", args: `{"noggin": "$N", "path": "/1/7"}`},

	// noggin_where
	{name: "where", fixture: "F1", tool: "noggin_where", args: `{"noggin": "$N"}`},
	{name: "where-trimmed", fixture: "F1", tool: "noggin_where", args: `{"noggin": " $N "}`}, // 212
	{name: "where-file-uri", fixture: "F1", tool: "noggin_where", args: `{"noggin": "file://$N"}`},
	{name: "where-missing-file", fixture: "F0", tool: "noggin_where", args: `{"noggin": "$N"}`},
	{name: "where-invalid", fixture: "BAD", tool: "noggin_where", args: `{"noggin": "$N"}`},

	// noggin_copy
	{name: "copy", fixture: "F1", tool: "noggin_copy", args: `{"from": "$N", "to": "$D/dest.yaml"}`,
		check: func(t *testing.T, file string) {
			t.Helper()
			mustExist(t, filepath.Join(filepath.Dir(file), "dest.yaml"))
		}},
	{name: "copy-same", fixture: "F5", tool: "noggin_copy", args: `{"from": "$N", "to": " $N "}`},
	{name: "copy-empty-source", fixture: "F0", tool: "noggin_copy", args: `{"from": "$N", "to": "$D/dest.yaml"}`,
		check: func(t *testing.T, file string) {
			t.Helper()
			mustNotExist(t, filepath.Join(filepath.Dir(file), "dest.yaml"))
		}},
	{name: "copy-to-missing", fixture: "F1", tool: "noggin_copy", args: `{"from": "$N"}`}, // 216
	{name: "copy-from-missing", fixture: "F1", tool: "noggin_copy", args: `{"to": "$N"}`},
	{name: "copy-from-number", fixture: "F1", tool: "noggin_copy", args: `{"from": 5, "to": "$N"}`},
	{name: "copy-to-blank", fixture: "F1", tool: "noggin_copy", args: `{"from": "$N", "to": "  "}`},
	{name: "copy-from-invalid", fixture: "BAD", tool: "noggin_copy", args: `{"from": "$N", "to": "$D/dest.yaml"}`},
	{name: "copy-to-no-provider", fixture: "F1", tool: "noggin_copy", args: `{"from": "$N", "to": "memory://x"}`},

	// noggin_providers
	{name: "providers", fixture: "F1", tool: "noggin_providers", args: `{}`},
	{name: "providers-unknown-argument", fixture: "F1", tool: "noggin_providers", args: `{"noggin": 5}`},

	// unknown tools (206)
	{name: "unknown-bogus", fixture: "F1", tool: "noggin_bogus", args: `{"noggin": "$N"}`},
	{name: "unknown-foo-bar", fixture: "F1", tool: "noggin_foo_bar", args: `{}`},
	{name: "unknown-unprefixed", fixture: "F1", tool: "frobnicate", args: `{}`},

	// storage error codes
	{name: "err-no-provider", fixture: "F1", tool: "noggin_show", args: `{"noggin": "memory://x"}`},
	{name: "err-no-provider-https", fixture: "F1", tool: "noggin_push", args: `{"noggin": "https://example.com/x.yaml", "title": "x"}`},
	{name: "err-io-directory", fixture: "F1", tool: "noggin_show", args: `{"noggin": "$D"}`},
	{name: "err-invalid-document", fixture: "BAD", tool: "noggin_show", args: `{"noggin": "$N"}`},
	{name: "err-invalid-note", fixture: "NOTE", tool: "noggin_show", args: `{"noggin": "$N"}`},
	{name: "err-invalid-document-on-write", fixture: "DANGLING", tool: "noggin_push", args: `{"noggin": "$N", "title": "x"}`},
	{name: "show-dangling-readable", fixture: "DANGLING", tool: "noggin_show", args: `{"noggin": "$N", "withAll": true}`},
	{name: "err-unsupported-schema", fixture: "SCHEMA", tool: "noggin_show", args: `{"noggin": "$N"}`},
	{name: "err-lock-timeout", fixture: "F1", tool: "noggin_push", args: `{"noggin": "$N", "title": "x"}`,
		setup: func(t *testing.T, dir string) {
			t.Helper()
			lock := filepath.Join(dir, "n.yaml.lock")
			if err := os.Mkdir(lock, 0o755); err != nil {
				t.Fatal(err)
			}
			pid := fmt.Sprintf("%d\n%d\n", os.Getpid(), time.Now().UnixMilli())
			if err := os.WriteFile(filepath.Join(lock, "pid"), []byte(pid), 0o644); err != nil {
				t.Fatal(err)
			}
		},
		opts: func(string) store.Options { return store.Options{LockTimeout: 100 * time.Millisecond} }},
	{name: "err-root-refused-absolute", fixture: "F1", tool: "noggin_show", args: `{"noggin": "/etc/noggin.yaml"}`,
		opts: func(dir string) store.Options { return store.Options{Root: dir} }},
	{name: "err-root-refused-dotdot", fixture: "F1", tool: "noggin_show", args: `{"noggin": "../n.yaml"}`,
		opts: func(dir string) store.Options { return store.Options{Root: dir} }},
	{name: "err-root-refused-home", fixture: "F1", tool: "noggin_show", args: `{"noggin": "~/.noggin.yaml"}`,
		opts: func(dir string) store.Options { return store.Options{Root: dir} }},
	{name: "root-relative-ok", fixture: "F1", tool: "noggin_show", args: `{"noggin": "n.yaml"}`,
		opts: func(dir string) store.Options { return store.Options{Root: dir} }},
	{name: "root-absolute-inside-ok", fixture: "F1", tool: "noggin_where", args: `{"noggin": "$N"}`,
		opts: func(dir string) store.Options { return store.Options{Root: dir} }},
}

func mustExist(t *testing.T, p string) {
	t.Helper()
	if _, err := os.Stat(p); err != nil {
		t.Errorf("%s should exist: %v", p, err)
	}
}

func mustNotExist(t *testing.T, p string) {
	t.Helper()
	if _, err := os.Stat(p); err == nil {
		t.Errorf("%s should not exist", p)
	}
}

// TestCalls runs every call case on a fresh noggin and compares the
// result text with testdata/calls/<name>.json.
func TestCalls(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range callCases {
		if seen[c.name] {
			t.Fatalf("duplicate case %s", c.name)
		}
		seen[c.name] = true
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			file := writeFixture(t, dir, "n.yaml", c.fixture)
			if c.setup != nil {
				c.setup(t, dir)
			}
			var o store.Options
			if c.opts != nil {
				o = c.opts(dir)
			}
			cs := newSession(t, o)
			args := strings.NewReplacer("$N", jsonInner(file), "$D", jsonInner(dir)).Replace(c.args)
			r := call(t, cs, c.tool, json.RawMessage(args))
			got := strings.ReplaceAll(r.Text, dir, "$DIR")
			golden(t, filepath.Join("calls", c.name+".json"), []byte(got))
			if c.check != nil {
				c.check(t, file)
			}
		})
	}
}

// jsonInner is s escaped for use inside a JSON string literal.
func jsonInner(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}
