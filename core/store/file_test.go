package store

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/noggin-go/noggin/core/internal/codec"
	"github.com/noggin-go/noggin/core/internal/mmap"
	"github.com/noggin-go/noggin/core/noggin"
)

// mustOpen opens location or fails the test.
func mustOpen(t *testing.T, location string, o Options) noggin.Store {
	t.Helper()
	s, err := Open(context.Background(), location, o)
	if err != nil {
		t.Fatalf("Open(context.Background(), %q): %v", location, err)
	}
	return s
}

// mustAdd adds one item or fails the test.
func mustAdd(t *testing.T, s noggin.Store, key string) {
	t.Helper()
	if err := addItem(s, key); err != nil {
		t.Fatalf("add %s: %v", key, err)
	}
}

// fileKeys decodes the file at p and returns its item keys.
func fileKeys(t *testing.T, p string) []string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := codec.DecodeYAML(b)
	if err != nil {
		t.Fatalf("file does not parse: %v\n%s", err, b)
	}
	return keysOf(doc)
}

// asError returns err as a *noggin.Error or fails the test.
func asError(t *testing.T, err error) *noggin.Error {
	t.Helper()
	var e *noggin.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not a *noggin.Error", err, err)
	}
	return e
}

// dirNames lists the names in dir, sorted.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

func TestOpenMissingFileCreatesNothing(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "sub", "x.yaml") // 181: reads need no directory
	s := mustOpen(t, p, Options{})
	doc, err := s.Load(context.Background())
	if err != nil || len(doc.Items) != 0 || doc.Active != "" {
		t.Fatalf("Load = %+v, %v; want the empty document", doc, err)
	}
	if got := s.Describe(); got != p {
		t.Errorf("Describe = %q", got)
	}
	// A plan with no ops writes nothing.
	if _, err := s.Update(context.Background(), planOf(func(*noggin.Document) ([]noggin.Op, error) { return nil, nil })); err != nil {
		t.Fatal(err)
	}
	// A failing plan writes nothing.
	boom := noggin.NewError(noggin.CodeNoActiveItem)
	if _, err := s.Update(context.Background(), planOf(func(*noggin.Document) ([]noggin.Op, error) { return nil, boom })); err != boom {
		t.Fatalf("Update error = %v, want the plan's error", err)
	}
	// An invalid op writes nothing.
	_, err = s.Update(context.Background(), planOf(func(*noggin.Document) ([]noggin.Op, error) {
		return []noggin.Op{{Type: noggin.OpSetActive, Key: "nope"}}, nil
	}))
	if errCode(err) != noggin.CodeInvalidDocument {
		t.Fatalf("Update error = %v, want invalid-document", err)
	}
	if names := dirNames(t, dir); len(names) != 0 {
		t.Fatalf("reads created %v", names)
	}
}

func TestDescribeVerbatim(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("HOME", dir)
	for _, loc := range []string{"./noggin.yaml", "rel.yaml", "~/y.yaml", "file://./rel.yaml", "file://~/z.yaml", DefaultLocation,
		"file://" + dir + "/u.yaml", "FILE://" + dir + "/v.yaml", dir + "/w.yaml"} {
		if got := mustOpen(t, loc, Options{}).Describe(); got != loc {
			t.Errorf("Describe(%q) = %q", loc, got)
		}
	}
}

func TestWritesGoWhereTheLocationSays(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	cwd := filepath.Join(dir, "cwd")
	for _, d := range []string{home, cwd} {
		if err := os.Mkdir(d, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOME", home)
	t.Chdir(cwd)
	tests := []struct{ location, file string }{
		{"~/y.yaml", filepath.Join(home, "y.yaml")},           // 185
		{"file://./rel.yaml", filepath.Join(cwd, "rel.yaml")}, // 186
		{"file://~/z.yaml", filepath.Join(home, "z.yaml")},    // 186
		{"plain.yaml", filepath.Join(cwd, "plain.yaml")},      // relative
		{"file://" + dir + "/a%20b.yaml", filepath.Join(dir, "a b.yaml")},
		{"nested/dirs/n.yaml", filepath.Join(cwd, "nested/dirs/n.yaml")}, // parents created
	}
	for _, tc := range tests {
		mustAdd(t, mustOpen(t, tc.location, Options{}), "k1")
		if got := fileKeys(t, tc.file); !slices.Equal(got, []string{"k1"}) {
			t.Errorf("%s: keys = %v", tc.location, got)
		}
	}
}

func TestOnDiskFormat(t *testing.T) { // 190
	dir := t.TempDir()
	p := filepath.Join(dir, "x.yaml")
	s := mustOpen(t, p, Options{})
	created := "2026-12-02T12:52:24.117Z"
	_, err := s.Update(context.Background(), planOf(func(*noggin.Document) ([]noggin.Op, error) {
		it := &noggin.Item{Key: "k1", Title: "root", CreatedAt: &created, Notes: []noggin.Note{}}
		return []noggin.Op{{Type: noggin.OpAdd, Item: it, AtEnd: true}, {Type: noggin.OpSetActive, Key: "k1"}}, nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	want := "schemaVersion: 1\nactive: k1\nitems:\n  - key: k1\n    parentKey: null\n    title: root\n    done: false\n" +
		"    createdAt: '2026-12-02T12:52:24.117Z'\n    notes: []\n"
	if b, _ := os.ReadFile(p); string(b) != want {
		t.Errorf("file =\n%s\nwant\n%s", b, want)
	}
}

func TestJSONFilesStayJSON(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "x.json")
	if err := os.WriteFile(p, []byte(`{"schemaVersion": 1, "active": null, "items": []}`), 0o666); err != nil {
		t.Fatal(err)
	}
	s := mustOpen(t, p, Options{})
	mustAdd(t, s, "k1")
	b, _ := os.ReadFile(p)
	doc, err := codec.DecodeJSON(b)
	if err != nil || !bytes.HasPrefix(b, []byte("{\n")) {
		t.Fatalf("file is not JSON (%v):\n%s", err, b)
	}
	if !slices.Equal(keysOf(doc), []string{"k1"}) {
		t.Errorf("keys = %v", keysOf(doc))
	}
}

func TestUnreadableIsIO(t *testing.T) { // 179
	dir := t.TempDir()
	_, err := Open(context.Background(), dir, Options{})
	e := asError(t, err)
	detail := "EISDIR: illegal operation on a directory, read"
	want := []noggin.Field{{Name: "path", Value: dir}, {Name: "detail", Value: detail}}
	if e.Code != noggin.CodeIO || e.ExitCode != 2 || !reflect.DeepEqual(e.Data, want) || e.Message != "failed to read file: "+detail {
		t.Errorf("error = %+v", e)
	}
	// file:// (the root directory) fails the same way.
	if _, err := Open(context.Background(), "file://", Options{}); errCode(err) != noggin.CodeIO {
		t.Errorf("file:// error = %v, want io", err)
	}
}

func TestBadFilesAreNeverOverwritten(t *testing.T) { // 188
	tests := []struct{ name, file, content, code string }{
		{"garbage", "bad.yaml", "items: [\n", noggin.CodeInvalidDocument},
		{"scalar", "bad.yaml", "hello\n", noggin.CodeInvalidDocument},
		{"future schema", "bad.yaml", "schemaVersion: 2\nactive: null\nitems: []\n", noggin.CodeUnsupportedSchema},
		{"missing active", "bad.yaml", "schemaVersion: 1\nitems: []\n", noggin.CodeInvalidDocument},
		{"yaml in a json file", "bad.json", "schemaVersion: 1\nactive: null\nitems: []\n", noggin.CodeInvalidDocument},
		{"future schema json", "bad.json", `{"schemaVersion": 3, "active": null, "items": []}`, noggin.CodeUnsupportedSchema},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, tc.file)
			// A long-lived store opened while the file was good.
			s := mustOpen(t, p, Options{})
			if err := os.WriteFile(p, []byte(tc.content), 0o666); err != nil {
				t.Fatal(err)
			}
			_, err := Open(context.Background(), p, Options{})
			e := asError(t, err)
			if e.Code != tc.code || e.Get("path") != p {
				t.Fatalf("Open error = %+v, want %s with data.path", e, tc.code)
			}
			if _, err := s.Load(context.Background()); errCode(err) != tc.code {
				t.Errorf("Load error = %v", err)
			}
			if err := addItem(s, "k1"); errCode(err) != tc.code {
				t.Errorf("Update error = %v", err)
			}
			if b, _ := os.ReadFile(p); string(b) != tc.content {
				t.Errorf("file changed to %q", b)
			}
			if names := dirNames(t, dir); !slices.Equal(names, []string{tc.file}) {
				t.Errorf("directory holds %v", names)
			}
		})
	}
}

func TestBadFileUnderTheLock(t *testing.T) {
	// The file breaks between planning (cached) and writing: the write
	// re-reads under the lock and refuses.
	p := filepath.Join(t.TempDir(), "x.yaml")
	s := mustOpen(t, p, Options{})
	bad := []byte("schemaVersion: 7\nactive: null\nitems: []\n")
	_, err := s.Update(context.Background(), planOf(func(*noggin.Document) ([]noggin.Op, error) {
		if err := os.WriteFile(p, bad, 0o666); err != nil {
			t.Fatal(err)
		}
		return []noggin.Op{addOp("k1")}, nil
	}))
	if errCode(err) != noggin.CodeUnsupportedSchema {
		t.Fatalf("error = %v", err)
	}
	if b, _ := os.ReadFile(p); !bytes.Equal(b, bad) {
		t.Errorf("file changed to %q", b)
	}
}

func TestWriteErrorsAreNogginErrors(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, []byte("x"), 0o666); err != nil {
		t.Fatal(err)
	}
	// A path below a regular file reads as missing; the write fails with
	// the raw OS error as noggin-error, exit 1.
	s := mustOpen(t, filepath.Join(blocker, "x.yaml"), Options{})
	e := asError(t, addItem(s, "k1"))
	want := "ENOTDIR: not a directory, mkdir '" + filepath.Join(blocker, "x.yaml.lock") + "'"
	if e.Code != noggin.CodeNogginError || e.ExitCode != 1 || e.Message != want || len(e.Data) != 0 {
		t.Errorf("error = %+v, want message %q", e, want)
	}
	if names := dirNames(t, dir); !slices.Equal(names, []string{"file"}) {
		t.Errorf("directory holds %v", names)
	}
}

func TestUpdateReplansOnFreshDocument(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.yaml")
	a := mustOpen(t, p, Options{})
	b := mustOpen(t, p, Options{})
	mustAdd(t, a, "k1")
	// b's cache is stale; its plan must see k1 under the lock.
	var seen [][]string
	doc, err := b.Update(context.Background(), planOf(func(d *noggin.Document) ([]noggin.Op, error) {
		seen = append(seen, keysOf(d))
		return []noggin.Op{addOp("k" + strconv.Itoa(len(d.Items)+1))}, nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(keysOf(doc), []string{"k1", "k2"}) {
		t.Errorf("keys = %v (plans saw %v)", keysOf(doc), seen)
	}
}

func TestLongLivedStoreSeesExternalChanges(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.yaml")
	long := mustOpen(t, p, Options{})
	other := mustOpen(t, p, Options{})
	mustAdd(t, other, "k1")
	doc, err := long.Load(context.Background())
	if err != nil || !slices.Equal(keysOf(doc), []string{"k1"}) {
		t.Fatalf("Load = %v, %v", doc, err)
	}
	// Cached while unchanged.
	if again, _ := long.Load(context.Background()); again != doc {
		t.Errorf("unchanged file was re-parsed")
	}
	// Same size, same inode, mtime restored: still noticed.
	b, _ := os.ReadFile(p)
	fi, _ := os.Stat(p)
	b2 := bytes.Replace(b, []byte("title: k1"), []byte("title: k9"), 1)
	if err := os.WriteFile(p, b2, 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	doc, err = long.Load(context.Background())
	if err != nil || doc.Items[0].Title != "k9" {
		t.Fatalf("after same-size edit: %v, %v", doc, err)
	}
	// Deleted file: the empty document.
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if doc, err = long.Load(context.Background()); err != nil || len(doc.Items) != 0 {
		t.Fatalf("after delete: %v, %v", doc, err)
	}
}

func TestStaleTempFilesRemoved(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "x.yaml")
	dead := deadPid(t)
	junk := map[string]bool{ // name → expected to survive
		"x.yaml.tmp-" + strconv.Itoa(dead) + "-1700000000000":      false,
		"x.yaml.tmp-" + strconv.Itoa(os.Getpid()) + "-17":          false,
		"x.yaml.tmp-1-1700000000000":                               true, // pid 1 is alive
		"x.yaml.tmp-notapid-1":                                     true,
		"y.yaml.tmp-" + strconv.Itoa(dead) + "-1":                  true, // another noggin
		"x.yaml.lock.tmp-" + strconv.Itoa(dead) + "-3":             false,
		"x.yaml.lock.tmp-" + strconv.Itoa(os.Getpid()) + "-999999": true, // ours may be in use
	}
	for n := range junk {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("junk"), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	mustAdd(t, mustOpen(t, p, Options{}), "k1")
	for n, keep := range junk {
		_, err := os.Stat(filepath.Join(dir, n))
		if exists := err == nil; exists != keep {
			t.Errorf("%s: exists = %v, want %v", n, exists, keep)
		}
	}
}

func TestConcurrentUpdatesInProcess(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.yaml")
	shared := mustOpen(t, p, Options{})
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := shared
			if g%2 == 1 { // separate handles on the same file, too
				var err error
				if s, err = Open(context.Background(), p, Options{}); err != nil {
					errs <- err
					return
				}
			}
			for i := range 10 {
				if err := addItem(s, "g"+strconv.Itoa(g)+"-"+strconv.Itoa(i)); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if got := fileKeys(t, p); len(got) != 40 {
		t.Errorf("%d items, want 40", len(got))
	}
}

// deadPid returns the pid of a child process that has exited and been
// reaped.
func deadPid(t *testing.T) int {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), childEnv+"=exit")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

// renameFailFS fails every rename over the noggin file with err.
type renameFailFS struct {
	osFS
	err   error
	calls *int
}

func (f renameFailFS) Rename(oldname, newname string) error {
	if strings.Contains(oldname, ".yaml.tmp-") {
		*f.calls++
		return &os.LinkError{Op: "rename", Old: oldname, New: newname, Err: f.err}
	}
	return f.osFS.Rename(oldname, newname)
}

func TestFailedWriteRemovesTempFile(t *testing.T) {
	tests := []struct {
		err   syscall.Errno
		calls int
	}{
		{syscall.EXDEV, 1},
		{syscall.EBUSY, 6}, // retried, 6 attempts in total
	}
	for _, tc := range tests {
		dir := t.TempDir()
		p := filepath.Join(dir, "x.yaml")
		calls := 0
		s := newFileStore(p, p, p, p, "", renameFailFS{err: tc.err, calls: &calls}, Options{})
		e := asError(t, addItem(s, "k1"))
		want := errnoText[tc.err][0] + ": " + errnoText[tc.err][1] + ", rename '"
		if e.Code != noggin.CodeNogginError || e.ExitCode != 1 || !strings.HasPrefix(e.Message, want) {
			t.Errorf("error = %+v", e)
		}
		if calls != tc.calls {
			t.Errorf("%v: %d rename attempts, want %d", tc.err, calls, tc.calls)
		}
		if names := dirNames(t, dir); len(names) != 0 {
			t.Errorf("directory holds %v", names)
		}
		if doc, err := s.Load(context.Background()); err != nil || len(doc.Items) != 0 {
			t.Errorf("cache changed by a failed write: %v, %v", doc, err)
		}
	}
}

// After a write the store keeps the document, not the written bytes; a
// file rewritten with the same bytes must still count as unchanged (no
// re-parse, no re-plan) and any other bytes as changed.
func TestWrittenFileComparedWithItsEncoding(t *testing.T) {
	for _, name := range []string{"x.yaml", "x.json"} {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), name)
			s := mustOpen(t, p, Options{})
			mustAdd(t, s, "k1")
			doc, err := s.Load(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			rewrite := func(data []byte) {
				t.Helper()
				if err := os.WriteFile(p+".new", data, 0o666); err != nil {
					t.Fatal(err)
				}
				if err := os.Rename(p+".new", p); err != nil { // new inode: the stamp changes
					t.Fatal(err)
				}
			}
			rewrite(b)
			if again, err := s.Load(context.Background()); err != nil || again != doc {
				t.Errorf("same bytes: Load = %p, %v; want the cached %p", again, err, doc)
			}
			plans := 0
			if _, err := s.Update(context.Background(), planOf(func(d *noggin.Document) ([]noggin.Op, error) {
				plans++
				if d != doc {
					t.Errorf("plan %d got a re-parsed document", plans)
				}
				return nil, nil
			})); err != nil || plans != 1 {
				t.Errorf("Update: %d plans, %v", plans, err)
			}
			rewrite(bytes.ReplaceAll(b, []byte("k1"), []byte("k9")))
			if doc, err = s.Load(context.Background()); err != nil || !slices.Equal(keysOf(doc), []string{"k9"}) {
				t.Errorf("changed bytes: Load = %v, %v", doc, err)
			}
			mustAdd(t, s, "k2")
			if got := fileKeys(t, p); !slices.Equal(got, []string{"k9", "k2"}) {
				t.Errorf("file keys = %v", got)
			}
		})
	}
}

// With MapFiles, a mapped file rewritten in place (shorter, same inode) is
// noticed and read again.
func TestMappedFileTruncatedInPlace(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.yaml")
	doc := noggin.NewDocument()
	for i := range 300 {
		doc.Items = append(doc.Items, &noggin.Item{Key: "k" + strconv.Itoa(i), Title: strings.Repeat("t", 40), Notes: []noggin.Note{}})
	}
	big := codec.EncodeYAML(doc)
	if err := os.WriteFile(p, big, 0o666); err != nil {
		t.Fatal(err)
	}
	s := mustOpen(t, p, Options{MapFiles: true})
	if d, err := s.Load(context.Background()); err != nil || len(d.Items) != 300 {
		t.Fatalf("Load = %v, %v", d, err)
	}
	smallDoc := noggin.NewDocument()
	smallDoc.Items = doc.Items[:1]
	small := codec.EncodeYAML(smallDoc)
	if err := os.WriteFile(p, small, 0o666); err != nil { // same inode, shorter
		t.Fatal(err)
	}
	if d, err := s.Load(context.Background()); err != nil || len(d.Items) != 1 {
		t.Fatalf("Load after truncation = %v, %v", d, err)
	}
	mustAdd(t, s, "k2")
	if got := fileKeys(t, p); !slices.Equal(got, []string{"k0", "k2"}) {
		t.Errorf("file keys = %v", got)
	}
}

// guard turns a read of a mapping past the end of its truncated file into
// false (the store then reads the file) instead of a crash.
func TestGuardMappedFault(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.yaml")
	if err := os.WriteFile(p, bytes.Repeat([]byte("x"), 3*os.Getpagesize()), 0o666); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, ok := mmap.Map(f, 3*os.Getpagesize())
	if !ok {
		t.Skip("files are not mapped on this platform")
	}
	var last byte
	if !mmap.Guard(func() { last = b[len(b)-1] }) || last != 'x' {
		t.Fatalf("reading the mapping: %q", last)
	}
	if err := os.Truncate(p, 1); err != nil {
		t.Fatal(err)
	}
	if mmap.Guard(func() { last = b[len(b)-1] }) {
		t.Errorf("read past the truncated end did not fault")
	}
	func() {
		defer func() {
			if r := recover(); r != "other" {
				t.Errorf("other panic = %v, want it passed on", r)
			}
		}()
		mmap.Guard(func() { panic("other") })
	}()
}
