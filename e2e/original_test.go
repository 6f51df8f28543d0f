package e2e

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/noggin-go/noggin/core/codec"
)

// originalFixtures are testdata/original's noggin with cursors as noggin
// for Go wrote it and as the original left it after three writes.
func originalFixtures(t *testing.T) (ours, theirs []byte) {
	t.Helper()
	ours, err := os.ReadFile("testdata/original/cursors.yaml")
	if err == nil {
		theirs, err = os.ReadFile("testdata/original/cursors-by-original.yaml")
	}
	if err != nil {
		t.Fatal(err)
	}
	return ours, theirs
}

// TestOriginalKeepsCursors: the original, writing a noggin with agents'
// cursors, keeps them byte for byte (testdata/original/README.md); noggin
// for Go reads what it wrote, writes it back as it was, and the agents go
// on from their cursors — carol's, whose item the original deleted, as no
// active item.
func TestOriginalKeepsCursors(t *testing.T) {
	ours, theirs := originalFixtures(t)
	tail := func(b []byte) string {
		_, after, ok := bytes.Cut(b, []byte("\ncursors:\n"))
		if !ok {
			t.Fatalf("no cursors map in\n%s", b)
		}
		return string(after)
	}
	if tail(ours) != tail(theirs) {
		t.Fatalf("the original changed the cursors:\n%s\nwas\n%s", tail(theirs), tail(ours))
	}
	doc, err := codec.DecodeYAML(theirs)
	if err != nil {
		t.Fatal(err)
	}
	if again := codec.EncodeYAML(doc); !bytes.Equal(again, theirs) {
		t.Fatalf("the original's file does not come back as it was:\n%s", again)
	}

	dir := t.TempDir()
	file := filepath.Join(dir, "n.yaml")
	if err := os.WriteFile(file, theirs, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"agents"}, "alice  /1/1 fix the lock test\nbob    /1/2 update the docs\ncarol  (item i-20260102-030405-000004 is gone)\n[exit 0]\n"},
		{[]string{"--agent", "alice", "note", "still on it"}, "/1 release\n  /1/1 📍 fix the lock test ✏️\n"},
		{[]string{"--agent", "carol", "pop"}, "noggin: pop: no active item; pass a path\n[exit 1]\n"},
		{[]string{"--agent", "carol", "goto", "/1/2"}, "  /1/2 📍 update the docs\n"},
		{[]string{"show", "--no-children"}, "/1/3 📍 original's push ✏️\n"},
	} {
		got := runCLI(t, dir, nil, append([]string{"--noggin", file}, c.args...)...)
		if !strings.Contains(got, c.want) {
			t.Errorf("%q:\n%s\nwant it to hold\n%s", c.args, got, c.want)
		}
	}
	after, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(string(after), "cursors:\n  alice: i-20260102-030405-000002\n  bob: i-20260102-030405-000003\n  carol: i-20260102-030405-000003\n") {
		t.Fatalf("cursors after the agents' writes:\n%s", after)
	}
}

// TestOriginalChangesRevision: a write by the original, which knows
// nothing of revisions, still makes a new one (a revision is the file's
// digest), so a write that says what it saw fails instead of landing on
// what the original changed.
func TestOriginalChangesRevision(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "n.yaml")
	ours, theirs := originalFixtures(t)
	revision := func() string {
		t.Helper()
		out := runCLI(t, dir, nil, "--noggin", file, "--json", "show")
		_, after, ok := strings.Cut(out, `"revision": "`)
		rev, _, _ := strings.Cut(after, `"`)
		if !ok || rev == "" {
			t.Fatalf("no revision in\n%s", out)
		}
		return rev
	}
	if err := os.WriteFile(file, ours, 0o644); err != nil {
		t.Fatal(err)
	}
	seen := revision()
	if err := os.WriteFile(file, theirs, 0o644); err != nil { // the original's three writes
		t.Fatal(err)
	}
	now := revision()
	if now == seen {
		t.Fatalf("the original's writes left the revision at %s", seen)
	}
	got := runCLI(t, dir, nil, "--noggin", file, "--if-revision", seen, "note", "/1/1", "stale")
	want := "noggin: note: the noggin changed since revision " + seen + " (it is now at " + now + "); nothing was written: read it again\n[exit 1]\n"
	if got != want {
		t.Fatalf("a write on the revision before the original's:\n%s\nwant\n%s", got, want)
	}
	if after, _ := os.ReadFile(file); !bytes.Equal(after, theirs) {
		t.Fatal("the stale write changed the file")
	}
	if got := runCLI(t, dir, nil, "--noggin", file, "--if-revision", now, "note", "/1/1", "fresh"); !strings.HasSuffix(got, "[exit 0]\n") {
		t.Fatalf("a write on the current revision: %s", got)
	}
	// changes accounts for the writes since the original's, not across them.
	if got := runCLI(t, dir, nil, "--noggin", file, "changes", "--since", now); !strings.HasPrefix(got, "#1 ") || !strings.Contains(got, " note: noted ") || !strings.HasSuffix(got, "[exit 0]\n") {
		t.Fatalf("changes since the original's writes:\n%s", got)
	}
	if got := runCLI(t, dir, nil, "--noggin", file, "changes", "--since", seen); !strings.Contains(got, "cannot say what changed since revision "+seen) || !strings.HasSuffix(got, "[exit 1]\n") {
		t.Fatalf("changes since before the original's writes:\n%s", got)
	}
}
