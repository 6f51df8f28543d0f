package envelope_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/noggin-go/noggin/core/envelope"
	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/store"
)

// update regenerates the golden envelopes: go test ./envelope -update.
var update = flag.Bool("update", false, "rewrite core/testdata/golden from the engine's current output")

const goldenDir = "../testdata/golden"

// The determinism seam of every golden run: a fixed clock and sequential keys.
var clock = time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)

func engine() *noggin.Engine {
	return &noggin.Engine{Now: func() time.Time { return clock }, Keys: noggin.SequentialKeys{}}
}

// fixture builds a document from an indented outline, two spaces per
// level. Each line is "title[ | flag…]" where the flags are: active, done,
// nocreated (no createdAt), note=<text> (timestamped), note0=<text>
// (null timestamp), parent=<key> (explicit parentKey, for orphans),
// key=<key>. In values, a backslash-n stands for a newline.
// Keys are i-20260101-090000-00000N in line order, createdAt
// 2026-01-01T09:00:00.000Z.
func fixture(outline string) *noggin.Document {
	doc := noggin.NewDocument()
	var stack []*noggin.Item
	for _, line := range strings.Split(outline, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		depth := (len(line) - len(strings.TrimLeft(line, " "))) / 2
		parts := strings.Split(strings.TrimSpace(line), " | ")
		created := "2026-01-01T09:00:00.000Z"
		it := &noggin.Item{
			Key:       fmt.Sprintf("i-20260101-090000-%06x", len(doc.Items)+1),
			Title:     parts[0],
			CreatedAt: &created,
			Notes:     []noggin.Note{},
		}
		stack = stack[:depth]
		if depth > 0 {
			it.ParentKey = stack[depth-1].Key
		}
		stack = append(stack, it)
		for _, f := range parts[1:] {
			name, val, _ := strings.Cut(f, "=")
			val = strings.ReplaceAll(val, `\n`, "\n")
			switch name {
			case "active":
				doc.Active = it.Key
			case "done":
				it.Done = true
			case "nocreated":
				it.CreatedAt = nil
			case "note":
				it.Notes = append(it.Notes, noggin.Note{Timestamp: "2026-01-01T10:00:00.000Z", Text: val})
			case "note0":
				it.Notes = append(it.Notes, noggin.Note{Text: val})
			case "parent":
				it.ParentKey = val
			case "key":
				it.Key = val
			default:
				panic("fixture: unknown flag " + f)
			}
		}
		doc.Items = append(doc.Items, it)
	}
	return doc
}

// The fixtures of docs/cli.md.
const (
	f0 = ``
	f1 = `
root1 | active
  alpha
  beta
    beta-kid
root2`
	f2 = `
root1
  alpha
    alpha-kid
  beta | active
    beta-kid
  gamma
root2`
	f3 = `only | active`
	f4 = `
a
b`
	f5 = `
parent
  kid | active`
)

// with returns outline with flags added to the line whose title is title.
func with(outline, title string, flags ...string) string {
	lines := strings.Split(outline, "\n")
	for i, l := range lines {
		if strings.SplitN(strings.TrimSpace(l), " | ", 2)[0] == title {
			lines[i] = l + " | " + strings.Join(flags, " | ")
			return strings.Join(lines, "\n")
		}
	}
	panic("with: no line " + title)
}

// without removes a flag from every line.
func without(outline, flag string) string {
	return strings.ReplaceAll(outline, " | "+flag, "")
}

type run func(e *noggin.Engine, s noggin.Store) (noggin.Result, error)

// goldenCase is one golden envelope: the verb, the fixture, the engine call
// and the error code it must produce ("" = success).
type goldenCase struct {
	file    string // <dir>/<name> under testdata/golden, without .json
	verb    string
	fixture string
	code    string
	run     run
}

func view(v *noggin.View, err error) (noggin.Result, error) {
	if v == nil {
		return (*noggin.View)(nil), err
	}
	return v, err
}

func pl(kind, anchor string) *noggin.Placement { return &noggin.Placement{Kind: kind, Anchor: anchor} }

var (
	gotoSelf  = noggin.Goto{Present: true, Self: true}
	gotoFalsy = noggin.Goto{Present: true}
)

func gotoPath(p string) noggin.Goto { return noggin.Goto{Present: true, Path: p} }
func bp(b bool) *bool               { return &b }
func strp(s string) *string         { return &s }

func push(o noggin.PushOpts) run {
	return func(e *noggin.Engine, s noggin.Store) (noggin.Result, error) {
		return view(e.Push(context.Background(), s, o))
	}
}
func add(o noggin.AddOpts) run {
	return func(e *noggin.Engine, s noggin.Store) (noggin.Result, error) {
		return view(e.Add(context.Background(), s, o))
	}
}
func move(o noggin.MoveOpts) run {
	return func(e *noggin.Engine, s noggin.Store) (noggin.Result, error) {
		return view(e.Move(context.Background(), s, o))
	}
}
func gotoV(o noggin.GotoOpts) run {
	return func(e *noggin.Engine, s noggin.Store) (noggin.Result, error) {
		return view(e.Goto(context.Background(), s, o))
	}
}
func done(o noggin.DoneOpts) run {
	return func(e *noggin.Engine, s noggin.Store) (noggin.Result, error) {
		return view(e.Done(context.Background(), s, o))
	}
}
func pop(o noggin.PopOpts) run {
	return func(e *noggin.Engine, s noggin.Store) (noggin.Result, error) {
		return view(e.Pop(context.Background(), s, o))
	}
}
func edit(o noggin.EditOpts) run {
	return func(e *noggin.Engine, s noggin.Store) (noggin.Result, error) {
		return view(e.Edit(context.Background(), s, o))
	}
}
func show(o noggin.ShowOpts) run {
	return func(e *noggin.Engine, s noggin.Store) (noggin.Result, error) {
		return view(e.Show(context.Background(), s, o))
	}
}
func note(o noggin.NoteOpts) run {
	return func(e *noggin.Engine, s noggin.Store) (noggin.Result, error) {
		return view(e.Note(context.Background(), s, o))
	}
}
func del(o noggin.DeleteOpts) run {
	return func(e *noggin.Engine, s noggin.Store) (noggin.Result, error) {
		r, err := e.Delete(context.Background(), s, o)
		if err != nil {
			return nil, err
		}
		return r, nil
	}
}

// copyFrom copies the fixture src into the case's store (dst).
func copyFrom(src string) run {
	return func(e *noggin.Engine, dst noggin.Store) (noggin.Result, error) {
		r, err := e.Copy(context.Background(), store.NewMemory("memory://src", fixture(src)), dst)
		if err != nil {
			return nil, err
		}
		return r, nil
	}
}

// fail returns err without running the engine (errors raised by surfaces
// or stores, built as they build them).
func fail(err error) run {
	return func(*noggin.Engine, noggin.Store) (noggin.Result, error) { return nil, err }
}

const srcCopy = `
alpha
  alpha-child | done | note=closed
beta`

func goldenCases() []goldenCase {
	return []goldenCase{
		// push
		{"push/ok-empty", "push", f0, "", push(noggin.PushOpts{Title: "first"})},
		{"push/ok-child", "push", f3, "", push(noggin.PushOpts{Title: "child"})},
		{"push/ok-siblings", "push", f1, "", push(noggin.PushOpts{Title: "new"})},
		{"push/ok-no-active", "push", f4, "", push(noggin.PushOpts{Title: "x"})},
		{"push/ok-empty-title", "push", f0, "", push(noggin.PushOpts{Title: ""})},
		{"push/ok-unicode-title", "push", f0, "", push(noggin.PushOpts{Title: "\"quoted\" \\ <b>&</b> 🎉 \u2028 tab\tend"})},
		{"push/title-required", "push", f0, noggin.CodeTitleRequired,
			fail(noggin.Usage(noggin.CodeTitleRequired, 2, "push: title required (CLI: --title or words)"))},
		{"push/invalid-document", "push", "root | active\norphan | parent=missing", noggin.CodeInvalidDocument, push(noggin.PushOpts{Title: "x"})},

		// add
		{"add/ok", "add", f1, "", add(noggin.AddOpts{Title: "gamma"})},
		{"add/ok-empty", "add", f0, "", add(noggin.AddOpts{Title: "first"})},
		{"add/ok-into", "add", f1, "", add(noggin.AddOpts{Title: "inner", Placement: pl("into", "/1/1")})},
		{"add/ok-before", "add", f1, "", add(noggin.AddOpts{Title: "pre", Placement: pl("before", "/1/1")})},
		{"add/ok-after", "add", f1, "", add(noggin.AddOpts{Title: "mid", Placement: pl("after", "/1/1")})},
		{"add/ok-before-root-no-active", "add", f4, "", add(noggin.AddOpts{Title: "X", Placement: pl("before", "/1")})},
		{"add/ok-goto-self", "add", f1, "", add(noggin.AddOpts{Title: "gamma", Goto: gotoSelf})},
		{"add/ok-goto-parent", "add", f1, "", add(noggin.AddOpts{Title: "gamma", Goto: gotoPath("..")})},
		{"add/ok-goto-previous", "add", f4, "", add(noggin.AddOpts{Title: "y", Placement: pl("after", "/2"), Goto: gotoPath("-")})},
		{"add/placement-missing", "add", f1, noggin.CodePlacementMissing, add(noggin.AddOpts{Title: "x", Placement: pl("into", "")})},
		{"add/placement-invalid", "add", f1, noggin.CodePlacementInvalid, add(noggin.AddOpts{Title: "x", Placement: pl("under", "/1")})},
		{"add/path-not-found", "add", f1, noggin.CodePathNotFound, add(noggin.AddOpts{Title: "x", Placement: pl("into", "/9")})},
		{"add/goto-unresolved", "add", f1, noggin.CodeGotoUnresolved, add(noggin.AddOpts{Title: "x", Goto: gotoPath("/9")})},
		{"add/goto-unresolved-segment", "add", f1, noggin.CodeGotoUnresolved, add(noggin.AddOpts{Title: "x", Goto: gotoPath("foo")})},
		{"add/goto-path-required", "add", f1, noggin.CodeGotoPathRequired, add(noggin.AddOpts{Title: "kid", Goto: gotoFalsy})},
		{"add/title-required", "add", f1, noggin.CodeTitleRequired,
			fail(noggin.Usage(noggin.CodeTitleRequired, 2, "add: title required (CLI: --title or words)"))},
		{"add/invalid-document", "add", "", noggin.CodeInvalidDocument, ghostActive(add(noggin.AddOpts{Title: "x"}))},

		// move
		{"move/ok-into", "move", f1, "", move(noggin.MoveOpts{Path: "/1/1", Placement: pl("into", "/2")})},
		{"move/ok-before-root", "move", f1, "", move(noggin.MoveOpts{Path: "/2", Placement: pl("before", "/1")})},
		{"move/ok-after", "move", f1, "", move(noggin.MoveOpts{Path: "/1/1", Placement: pl("after", "/1/2")})},
		{"move/ok-noop", "move", f1, "", move(noggin.MoveOpts{Path: "/1", Placement: pl("after", "/1")})},
		{"move/ok-active-follows", "move", with(without(f1, "active"), "alpha", "active"), "",
			move(noggin.MoveOpts{Placement: pl("into", "/2")})},
		{"move/ok-goto", "move", f1, "", move(noggin.MoveOpts{Path: "/2", Placement: pl("into", "/1/2/1"), Goto: gotoSelf})},
		{"move/placement-missing", "move", f1, noggin.CodePlacementMissing, move(noggin.MoveOpts{Path: "/1/1"})},
		{"move/placement-invalid", "move", f1, noggin.CodePlacementInvalid, move(noggin.MoveOpts{Path: "/1/1", Placement: pl("under", "/2")})},
		{"move/path-not-found-anchor", "move", f1, noggin.CodePathNotFound, move(noggin.MoveOpts{Path: "/1/1", Placement: pl("before", "/1/9")})},
		{"move/path-not-found", "move", f1, noggin.CodePathNotFound, move(noggin.MoveOpts{Path: "/3", Placement: pl("into", "/2")})},
		{"move/no-active-item", "move", f4, noggin.CodeNoActiveItem, move(noggin.MoveOpts{Placement: pl("into", "/2")})},
		{"move/cycle-into-itself", "move", f1, noggin.CodeCycle, move(noggin.MoveOpts{Path: "/1/2", Placement: pl("into", "/1/2")})},
		{"move/cycle-into-subtree", "move", f1, noggin.CodeCycle, move(noggin.MoveOpts{Path: "/1/2", Placement: pl("into", "/1/2/1")})},
		{"move/cycle-next-to-descendant", "move", f1, noggin.CodeCycle, move(noggin.MoveOpts{Path: "/1/2", Placement: pl("after", "/1/2/1")})},
		{"move/goto-unresolved", "move", f1, noggin.CodeGotoUnresolved, move(noggin.MoveOpts{Path: "/1/1", Placement: pl("into", "/2"), Goto: gotoPath("+")})},
		{"move/goto-path-required", "move", f1, noggin.CodeGotoPathRequired, move(noggin.MoveOpts{Path: "/1/1", Placement: pl("into", "/2"), Goto: gotoFalsy})},

		// goto
		{"goto/ok", "goto", f1, "", gotoV(noggin.GotoOpts{Path: "/1/2"})},
		{"goto/ok-relative", "goto", f1, "", gotoV(noggin.GotoOpts{Path: "./2/1"})},
		{"goto/ok-next-root", "goto", f1, "", gotoV(noggin.GotoOpts{Path: "+"})},
		{"goto/path-required", "goto", f1, noggin.CodePathRequired, gotoV(noggin.GotoOpts{})},
		{"goto/path-not-found", "goto", f1, noggin.CodePathNotFound, gotoV(noggin.GotoOpts{Path: "/9/9"})},
		{"goto/path-not-found-empty-absolute", "goto", f1, noggin.CodePathNotFound, gotoV(noggin.GotoOpts{Path: "/"})},
		{"goto/path-not-found-no-active", "goto", f4, noggin.CodePathNotFound, gotoV(noggin.GotoOpts{Path: "1"})},

		// done
		{"done/ok", "done", f5, "", done(noggin.DoneOpts{})},
		{"done/ok-path", "done", f1, "", done(noggin.DoneOpts{Path: "/1/1"})},
		{"done/ok-root", "done", f3, "", done(noggin.DoneOpts{})},
		{"done/ok-force", "done", f1, "", done(noggin.DoneOpts{Path: "/1/2", Force: true})},
		{"done/ok-close-all", "done", f1, "", done(noggin.DoneOpts{Path: "/1/2", CloseAll: true})},
		{"done/ok-already-done", "done", with(f1, "alpha", "done"), "", done(noggin.DoneOpts{Path: "/1/1"})},
		{"done/ok-other-active", "done", with(without(f1, "active"), "root2", "active"), "", done(noggin.DoneOpts{Path: "/1/1"})},
		{"done/open-descendants", "done", f1, noggin.CodeOpenDescendants, done(noggin.DoneOpts{Path: "/1/2"})},
		{"done/open-descendants-already-done", "done", "A | done | active\n  a1", noggin.CodeOpenDescendants, done(noggin.DoneOpts{Path: "/1"})},
		{"done/no-active-item", "done", f4, noggin.CodeNoActiveItem, done(noggin.DoneOpts{})},
		{"done/goto-unsupported", "done", f1, noggin.CodeGotoUnsupported, done(noggin.DoneOpts{Goto: gotoSelf})},
		{"done/path-not-found", "done", f1, noggin.CodePathNotFound, done(noggin.DoneOpts{Path: "/1/9"})},

		// pop
		{"pop/ok", "pop", f5, "", pop(noggin.PopOpts{})},
		{"pop/ok-close-all", "pop", "root | active\n  kid\n    grandkid", "", pop(noggin.PopOpts{CloseAll: true})},
		{"pop/ok-force", "pop", f1, "", pop(noggin.PopOpts{Force: true})},
		{"pop/open-descendants", "pop", f1, noggin.CodeOpenDescendants, pop(noggin.PopOpts{})},
		{"pop/no-active-item", "pop", f4, noggin.CodeNoActiveItem, pop(noggin.PopOpts{})},
		{"pop/pop-no-path", "pop", f1, noggin.CodePopNoPath, pop(noggin.PopOpts{HasPath: true})},
		{"pop/goto-unsupported", "pop", f1, noggin.CodeGotoUnsupported, pop(noggin.PopOpts{Goto: gotoSelf})},

		// edit
		{"edit/ok-done", "edit", f1, "", edit(noggin.EditOpts{Path: "/1/1", Done: bp(true)})},
		{"edit/ok-open", "edit", with(f1, "alpha", "done", "note=closed"), "", edit(noggin.EditOpts{Path: "/1/1", Done: bp(false)})},
		{"edit/ok-title", "edit", f1, "", edit(noggin.EditOpts{Path: "/1/1", Title: strp("  renamed  ")})},
		{"edit/ok-unchanged", "edit", f1, "", edit(noggin.EditOpts{Path: "/1/1", Title: strp("alpha")})},
		{"edit/ok-done-goto", "edit", f1, "", edit(noggin.EditOpts{Path: "/1/1", Done: bp(true), Goto: gotoSelf})},
		{"edit/ok-done-title", "edit", f1, "", edit(noggin.EditOpts{Path: "/1/1", Done: bp(true), Title: strp("finished")})},
		{"edit/ok-force", "edit", f1, "", edit(noggin.EditOpts{Done: bp(true), Force: true})},
		{"edit/nothing-to-edit", "edit", f1, noggin.CodeNothingToEdit, edit(noggin.EditOpts{Path: "/1/1"})},
		{"edit/nothing-to-edit-blank-title", "edit", f1, noggin.CodeNothingToEdit, edit(noggin.EditOpts{Title: strp("   ")})},
		{"edit/option-misused-force", "edit", f1, noggin.CodeOptionMisused, edit(noggin.EditOpts{Path: "/1/1", Done: bp(false), Force: true})},
		{"edit/option-misused-close-all", "edit", f1, noggin.CodeOptionMisused, edit(noggin.EditOpts{Path: "/1/1", Title: strp("X"), CloseAll: true})},
		{"edit/no-active-item", "edit", f4, noggin.CodeNoActiveItem, edit(noggin.EditOpts{Title: strp("x")})},
		{"edit/path-not-found", "edit", f1, noggin.CodePathNotFound, edit(noggin.EditOpts{Path: "/1/9", Title: strp("x")})},
		{"edit/open-descendants", "edit", f1, noggin.CodeOpenDescendants, edit(noggin.EditOpts{Path: "/1/2", Done: bp(true)})},
		{"edit/goto-unresolved", "edit", f1, noggin.CodeGotoUnresolved, edit(noggin.EditOpts{Path: "/1/1", Title: strp("x"), Goto: gotoPath("/9")})},
		{"edit/goto-path-required", "edit", f1, noggin.CodeGotoPathRequired, edit(noggin.EditOpts{Path: "/1/1", Title: strp("x"), Goto: gotoFalsy})},

		// show
		{"show/ok", "show", f1, "", show(noggin.ShowOpts{})},
		{"show/ok-path", "show", f1, "", show(noggin.ShowOpts{Path: "/1/2"})},
		{"show/ok-default-view", "show", f2, "", show(noggin.ShowOpts{})},
		{"show/ok-no-children", "show", f1, "", show(noggin.ShowOpts{NoChildren: true})},
		{"show/ok-with-siblings", "show", f2, "", show(noggin.ShowOpts{Path: "/1/2/1", WithSiblings: true})},
		{"show/ok-with-descendants", "show", f1, "", show(noggin.ShowOpts{Path: "/1", WithDescendants: true})},
		{"show/ok-goto", "show", f1, "", show(noggin.ShowOpts{Path: "/1/2", Goto: gotoSelf})},
		{"show/ok-goto-parent", "show", f2, "", show(noggin.ShowOpts{Path: "/1/2", Goto: gotoPath("..")})},
		{"show/ok-notes", "show", "r | active | done | note=n1 | note0=x\\n\\ny | nocreated", "", show(noggin.ShowOpts{})},
		{"show/ok-null", "show", f4, "", show(noggin.ShowOpts{})},
		{"show/ok-null-goto", "show", f4, "", show(noggin.ShowOpts{Goto: gotoPath("/1")})},
		{"show/path-not-found", "show", f2, noggin.CodePathNotFound, show(noggin.ShowOpts{Path: "2"})},
		{"show/path-not-found-above-root", "show", f2, noggin.CodePathNotFound, show(noggin.ShowOpts{Path: "../.."})},
		{"show/goto-unresolved", "show", f1, noggin.CodeGotoUnresolved, show(noggin.ShowOpts{Goto: gotoPath("/9")})},
		{"show/goto-path-required", "show", f1, noggin.CodeGotoPathRequired, show(noggin.ShowOpts{Goto: gotoFalsy})},

		// note
		{"note/ok", "note", f1, "", note(noggin.NoteOpts{Text: "first observation"})},
		{"note/ok-path", "note", f1, "", note(noggin.NoteOpts{Path: "/1/2", Text: "note on beta"})},
		{"note/ok-goto", "note", f1, "", note(noggin.NoteOpts{Path: "/1/2", Text: "observation", Goto: gotoSelf})},
		{"note/ok-trimmed-multiline", "note", f1, "", note(noggin.NoteOpts{Text: "  line one\nline \"two\"  "})},
		{"note/text-required", "note", f1, noggin.CodeTextRequired, note(noggin.NoteOpts{Text: "  "})},
		{"note/text-required-no-active", "note", f4, noggin.CodeTextRequired, note(noggin.NoteOpts{})},
		{"note/no-active-item", "note", f4, noggin.CodeNoActiveItem, note(noggin.NoteOpts{Text: "hi"})},
		{"note/path-not-found", "note", f1, noggin.CodePathNotFound, note(noggin.NoteOpts{Path: "2024", Text: "plans"})},
		{"note/goto-unresolved", "note", f1, noggin.CodeGotoUnresolved, note(noggin.NoteOpts{Text: "x", Goto: gotoPath("-")})},
		{"note/goto-path-required", "note", f1, noggin.CodeGotoPathRequired, note(noggin.NoteOpts{Text: "x", Goto: gotoFalsy})},

		// delete
		{"delete/ok", "delete", f1, "", del(noggin.DeleteOpts{Path: "/1/1"})},
		{"delete/ok-recursive", "delete", f1, "", del(noggin.DeleteOpts{Path: "/1/2", Recursive: true})},
		{"delete/ok-active", "delete", f5, "", del(noggin.DeleteOpts{Path: "/1/1"})},
		{"delete/ok-last", "delete", f3, "", del(noggin.DeleteOpts{Path: "/1"})},
		{"delete/ok-no-active", "delete", f4, "", del(noggin.DeleteOpts{Path: "/2"})},
		{"delete/ok-active-descendant", "delete", "A\n  a1\n    a1x | active\n  a2\nB", "", del(noggin.DeleteOpts{Path: "/1/1", Recursive: true})},
		{"delete/ok-recursive-root", "delete", with(f1, "alpha", "done"), "", del(noggin.DeleteOpts{Path: "/1", Recursive: true})},
		{"delete/has-descendants", "delete", f1, noggin.CodeHasDescendants, del(noggin.DeleteOpts{Path: "/1/2"})},
		{"delete/path-required", "delete", f1, noggin.CodePathRequired, del(noggin.DeleteOpts{})},
		{"delete/goto-unsupported", "delete", f1, noggin.CodeGotoUnsupported, del(noggin.DeleteOpts{Path: "/1", Goto: gotoSelf})},
		{"delete/path-not-found", "delete", f1, noggin.CodePathNotFound, del(noggin.DeleteOpts{Path: "/3"})},

		// copy
		{"copy/ok", "copy", f0, "", copyFrom(srcCopy)},
		{"copy/ok-into-non-empty", "copy", "pre-existing | active", "", copyFrom(srcCopy)},
		{"copy/ok-empty-source", "copy", f0, "", copyFrom(f0)},
		{"copy/ok-orphan-skipped", "copy", f0, "", copyFrom("root\norphan | parent=missing")},
		{"copy/ok-no-created-at", "copy", f0, "", copyFrom("bare | nocreated")},
		{"copy/ok-same", "copy", f4, "", func(e *noggin.Engine, s noggin.Store) (noggin.Result, error) {
			r, err := e.Copy(context.Background(), s, s)
			if err != nil {
				return nil, err
			}
			return r, nil
		}},
		{"copy/source-required", "copy", f0, noggin.CodeSourceRequired, func(e *noggin.Engine, s noggin.Store) (noggin.Result, error) {
			r, err := e.Copy(context.Background(), nil, s)
			if err != nil {
				return nil, err
			}
			return r, nil
		}},
		{"copy/dest-required", "copy", f0, noggin.CodeDestRequired, func(e *noggin.Engine, s noggin.Store) (noggin.Result, error) {
			r, err := e.Copy(context.Background(), s, nil)
			if err != nil {
				return nil, err
			}
			return r, nil
		}},
		{"copy/usage", "copy", f0, noggin.CodeUsage, fail(noggin.Usage(noggin.CodeUsage, 2, "copy: usage: noggin copy <from> <to>"))},

		// where, providers
		{"where/ok", "where", f1, "", func(_ *noggin.Engine, s noggin.Store) (noggin.Result, error) {
			return noggin.Location(s.Describe()), nil
		}},
		{"providers/ok", "providers", f0, "", func(*noggin.Engine, noggin.Store) (noggin.Result, error) {
			return noggin.Providers(store.Providers(store.Options{})), nil
		}},
	}
}

// ghostActive runs r on F1 whose active key names no item (edge case 171):
// the write-time validation fails with invalid-document {active}.
func ghostActive(r run) run {
	return func(e *noggin.Engine, _ noggin.Store) (noggin.Result, error) {
		doc := fixture(f1)
		doc.Active = "ghost"
		return r(e, store.NewMemory("./noggin.yaml", doc))
	}
}

// result runs a case and encodes its envelope.
func (c goldenCase) result(t *testing.T) envelope.Envelope {
	t.Helper()
	s := store.NewMemory("./noggin.yaml", fixture(c.fixture))
	data, err := c.run(engine(), s)
	return envelope.Result(c.verb, data, err)
}

func TestGolden(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range goldenCases() {
		if seen[c.file] {
			t.Fatalf("duplicate golden %s", c.file)
		}
		seen[c.file] = true
		t.Run(c.file, func(t *testing.T) {
			env := c.result(t)
			checkGolden(t, c.file, c.code, env)
		})
	}
	for _, c := range storeCases(t) {
		seen[c.file] = true
		t.Run(c.file, func(t *testing.T) {
			checkGolden(t, c.file, c.code, c.env)
		})
	}
	// Every golden file belongs to a case.
	err := filepath.WalkDir(goldenDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(goldenDir, p)
		name := strings.TrimSuffix(filepath.ToSlash(rel), ".json")
		if !seen[name] {
			if *update {
				return os.Remove(p)
			}
			t.Errorf("stale golden %s (no case produces it; run with -update to remove)", rel)
		}
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
}

// checkGolden compares env's bytes with the golden file (or rewrites it).
func checkGolden(t *testing.T, file, code string, env envelope.Envelope) {
	t.Helper()
	got := env.Encode()
	gotCode := ""
	if env.Err != nil {
		gotCode = env.Err.Code
	}
	if gotCode != code {
		t.Errorf("code = %q, want %q; envelope:\n%s", gotCode, code, got)
	}
	if !json.Valid(got) {
		t.Errorf("invalid JSON:\n%s", got)
	}
	path := filepath.Join(goldenDir, file+".json")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("missing golden (run go test ./envelope -update): %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("envelope differs from %s:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// storeCase is an error envelope raised by the store rather than a verb.
type storeCase struct {
	file, code string
	env        envelope.Envelope
}

// placeholder replaces the test's temporary directory in store errors.
const placeholder = "/tmp/noggin-golden"

// storeCases runs the real store (memory and file providers) to produce
// the store-level error envelopes. Paths under the temporary directory are
// rewritten to placeholder so that the bytes are stable.
func storeCases(t *testing.T) []storeCase {
	t.Helper()
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	open := func(loc string, o store.Options) error {
		_, err := store.Open(context.Background(), loc, o)
		if err == nil {
			t.Fatalf("store.Open(context.Background(), %q) succeeded", loc)
		}
		return err
	}
	fix := func(err error) error {
		e := noggin.Wrap(err)
		c := *e
		c.Message = strings.ReplaceAll(c.Message, dir, placeholder)
		c.Data = slices.Clone(c.Data)
		for i, f := range c.Data {
			if s, ok := f.Value.(string); ok {
				c.Data[i].Value = strings.ReplaceAll(s, dir, placeholder)
			}
		}
		return &c
	}
	valid := "schemaVersion: 1\nactive: null\nitems: []\n"

	var cases []storeCase
	addCase := func(file, verb, code string, err error) {
		cases = append(cases, storeCase{file: "store/" + file, code: code, env: envelope.Failure(verb, fix(err))})
	}
	addCase("no-provider", "show", noggin.CodeNoProvider, open("memory://x", store.Options{}))
	addCase("no-location", "", noggin.CodeNoLocation, open("", store.Options{}))
	addCase("unsupported-schema", "show", noggin.CodeUnsupportedSchema,
		open(write("schema99.yaml", "schemaVersion: 99\nactive: null\nitems: []\n"), store.Options{}))
	addCase("unsupported-schema-string", "where", noggin.CodeUnsupportedSchema,
		open(write("schema-string.yaml", "schemaVersion: \"1\"\nactive: null\nitems: []\n"), store.Options{}))
	addCase("unsupported-schema-missing", "show", noggin.CodeUnsupportedSchema,
		open(write("schema-missing.yaml", "active: null\nitems: []\n"), store.Options{}))
	addCase("invalid-document-no-active", "show", noggin.CodeInvalidDocument,
		open(write("no-active.yaml", "schemaVersion: 1\nitems: []\n"), store.Options{}))
	addCase("invalid-document-no-items", "show", noggin.CodeInvalidDocument,
		open(write("no-items.yaml", "schemaVersion: 1\nactive: null\n"), store.Options{}))
	addCase("invalid-document-parse", "show", noggin.CodeInvalidDocument,
		open(write("parse.yaml", ": : : not yaml"), store.Options{}))
	addCase("invalid-document-scalar", "show", noggin.CodeInvalidDocument,
		open(write("scalar.yaml", "hello"), store.Options{}))
	addCase("invalid-document-notes", "show", noggin.CodeInvalidDocument,
		open(write("notes.yaml", "schemaVersion: 1\nactive: null\nitems:\n  - key: a\n    parentKey: null\n    title: a\n    done: false\n"), store.Options{}))
	addCase("invalid-note", "show", noggin.CodeInvalidNote,
		open(write("note.yaml", "schemaVersion: 1\nactive: null\nitems:\n  - key: a\n    parentKey: null\n    title: a\n    done: false\n    notes:\n      - timestamp: x\n"), store.Options{}))
	addCase("io", "show", noggin.CodeIO, open(dir, store.Options{}))

	// Write-time validation through the file store (edge cases 172, 173); a
	// duplicate key is refused when the file is read already.
	e := engine()
	for _, wc := range []struct{ file, text string }{
		{"invalid-document-unknown-parent", "schemaVersion: 1\nactive: null\nitems:\n  - key: a\n    parentKey: missing\n    title: a\n    done: false\n    notes: []\n"},
		{"invalid-document-duplicate-key", "schemaVersion: 1\nactive: null\nitems:\n  - key: a\n    parentKey: null\n    title: a\n    done: false\n    notes: []\n  - key: a\n    parentKey: null\n    title: b\n    done: false\n    notes: []\n"},
		{"invalid-document-parent-cycle", "schemaVersion: 1\nactive: null\nitems:\n  - key: b\n    parentKey: b\n    title: b\n    done: false\n    notes: []\n"},
	} {
		s, err := store.Open(context.Background(), write(wc.file+".yaml", wc.text), store.Options{})
		if err == nil {
			_, err = e.Add(context.Background(), s, noggin.AddOpts{Title: "z"})
		}
		if err == nil {
			t.Fatalf("%s: add succeeded", wc.file)
		}
		addCase(wc.file, "add", noggin.CodeInvalidDocument, err)
	}

	// lock-timeout: a lock held by this (live) process.
	lockFile := write("locked.yaml", valid)
	if err := os.Mkdir(lockFile+".lock", 0o755); err != nil {
		t.Fatal(err)
	}
	pid := fmt.Sprintf("%d\n%d\n", os.Getpid(), time.Now().UnixMilli())
	if err := os.WriteFile(filepath.Join(lockFile+".lock", "pid"), []byte(pid), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := store.Open(context.Background(), lockFile, store.Options{LockTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.Add(context.Background(), s, noggin.AddOpts{Title: "x"})
	if err == nil {
		t.Fatal("add under a held lock succeeded")
	}
	addCase("lock-timeout", "add", noggin.CodeLockTimeout, err)

	// copy to a location without a provider (edge case 143).
	addCase("no-provider-copy", "copy", noggin.CodeNoProvider, open("memory://x", store.Options{}))

	// A write that fails in the OS (not a noggin error): wrapped as
	// noggin-error, exit 1, no data. The parent "directory" is a file.
	notDir := write("file.yaml", valid)
	s, err = store.Open(context.Background(), filepath.Join(notDir, "x.yaml"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.Add(context.Background(), s, noggin.AddOpts{Title: "x"})
	if err == nil {
		t.Fatal("add below a file succeeded")
	}
	addCase("noggin-error-write", "add", noggin.CodeNogginError, err)

	// The op engine (engine/RPC hosts; edge cases 224, 225): no envelope verb.
	f1doc := fixture(f1)
	for _, ac := range []struct {
		file, code string
		ops        []noggin.Op
	}{
		{"invalid-op-type", noggin.CodeInvalidOp, []noggin.Op{{Type: "zap"}}},
		{"invalid-op-position", noggin.CodeInvalidOp, []noggin.Op{{Type: noggin.OpAdd, Position: -1,
			Item: &noggin.Item{Key: "n", Title: "n", Notes: []noggin.Note{}}}}},
		{"invalid-op-key", noggin.CodeInvalidOp, []noggin.Op{{Type: noggin.OpSet, Key: "nope", Title: strp("x")}}},
		{"invalid-document-active", noggin.CodeInvalidDocument, []noggin.Op{{Type: noggin.OpSetActive, Key: "ghost"}}},
	} {
		_, err := noggin.Apply(f1doc, ac.ops)
		if err == nil {
			t.Fatalf("apply %s succeeded", ac.file)
		}
		cases = append(cases, storeCase{file: "apply/" + ac.file, code: ac.code, env: envelope.Failure("", err)})
	}

	// Codes no store path reaches from CLI/MCP, built as the raisers build them.
	addCase("no-scheme", "", noggin.CodeNoScheme, noggin.NewError(noggin.CodeNoScheme, noggin.F("location", "/tmp/x.yaml")))
	addCase("location-refused", "show", noggin.CodeLocationRefused,
		open("../outside.yaml", store.Options{Root: dir}))
	return cases
}

// TestGoldenNodeFixedPoint checks every golden against JavaScript's
// JSON.stringify (when node is installed): each file must be exactly
// JSON.stringify(JSON.parse(text), null, 2) + "\n".
func TestGoldenNodeFixedPoint(t *testing.T) {
	node := envelope.NeedNode(t)
	script := `const fs=require('fs'),path=require('path');let bad=0;
function walk(d){for(const e of fs.readdirSync(d,{withFileTypes:true})){const p=path.join(d,e.name);
if(e.isDirectory())walk(p);else{const t=fs.readFileSync(p,'utf8');
if(JSON.stringify(JSON.parse(t),null,2)+'\n'!==t){console.log(p);bad++;}}}}
walk(process.argv[1]);process.exit(bad?1:0);`
	out, err := exec.Command(node, "-e", script, goldenDir).CombinedOutput()
	if err != nil {
		t.Errorf("goldens that are not JSON.stringify's output: %v\n%s", err, out)
	}
}
