//go:build unix

package store

import (
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/noggin-go/noggin/core/noggin"
)

func modeOf(t *testing.T, p string) fs.FileMode {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

// TestWriteKeepsMode: a write gives the new file the old one's mode, and
// the history beside it is no more readable than the noggin.
func TestWriteKeepsMode(t *testing.T) {
	for _, tc := range []struct {
		name        string
		mode        fs.FileMode
		historyMode fs.FileMode // 0: no history yet
		wantHistory fs.FileMode
	}{
		{"private noggin, new history", 0o600, 0, 0o600},
		{"private noggin, world-readable history narrowed", 0o600, 0o644, 0o600},
		{"group-readable noggin", 0o640, 0, 0o640},
		{"executable bits kept on the noggin, not given to the history", 0o755, 0, 0o644},
		{"read-only for others, history wider than that", 0o604, 0o666, 0o604},
	} {
		t.Run(tc.name, func(t *testing.T) {
			old := syscall.Umask(0o022)
			defer syscall.Umask(old)
			p := filepath.Join(t.TempDir(), "n.yaml")
			mustAdd(t, mustOpen(t, p, Options{}), "k0")
			if err := os.Chmod(p, tc.mode); err != nil {
				t.Fatal(err)
			}
			if tc.historyMode == 0 {
				_ = os.Remove(p + historySuffix)
			} else if err := os.Chmod(p+historySuffix, tc.historyMode); err != nil {
				t.Fatal(err)
			}
			for i, o := range []Options{{MapFiles: true}, {}} { // one-shot, long-lived
				mustAdd(t, mustOpen(t, p, o), "k"+string(rune('1'+i)))
				if got := modeOf(t, p); got != tc.mode {
					t.Errorf("noggin mode %v, want %v", got, tc.mode)
				}
				if got := modeOf(t, p+historySuffix); got != tc.wantHistory&^0o022 {
					t.Errorf("history mode %v, want %v", got, tc.wantHistory)
				}
			}
		})
	}
}

// TestWriteKeepsOwner: run as root, a write keeps the file's owner and group.
func TestWriteKeepsOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give the file another owner")
	}
	p := filepath.Join(t.TempDir(), "n.yaml")
	mustAdd(t, mustOpen(t, p, Options{}), "k0")
	if err := os.Chown(p, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	mustAdd(t, mustOpen(t, p, Options{}), "k1")
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if st := fi.Sys().(*syscall.Stat_t); st.Uid != 65534 || st.Gid != 65534 {
		t.Errorf("owner %d:%d, want 65534:65534", st.Uid, st.Gid)
	}
}

// TestReadOnlyNogginRefused: a noggin its user may not write is refused
// with read-only (exit 2) and left as it was, though its directory would
// let a rename replace it. As root the writer runs as nobody.
func TestReadOnlyNogginRefused(t *testing.T) {
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "n.yaml")
	mustAdd(t, mustOpen(t, p, Options{}), "k0")
	if err := os.Chmod(p, 0o444); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(p)
	var got string
	if os.Geteuid() == 0 {
		for d := dir; d != "/"; d = filepath.Dir(d) { // nobody must reach it
			fi, err := os.Stat(d)
			if err != nil || fi.Mode().Perm()&0o001 == 0 {
				if err := os.Chmod(d, fi.Mode().Perm()|0o001); err != nil {
					t.Skipf("cannot open %s to nobody: %v", d, err)
				}
				t.Cleanup(func() { _ = os.Chmod(d, fi.Mode().Perm()) })
			}
		}
		if err := os.Chown(p, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		cmd := startWriter(p, "k1", 0, "onewrite")
		// The test binary may lie in a directory nobody cannot enter.
		bin, err := os.ReadFile(os.Args[0])
		if err != nil {
			t.Fatal(err)
		}
		cmd.Path = filepath.Join(dir, "writer.test")
		if err := os.WriteFile(cmd.Path, bin, 0o755); err != nil {
			t.Fatal(err)
		}
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		out, _ := cmd.Output()
		got = strings.TrimSpace(string(out))
	} else {
		got = errCode(addItem(mustOpen(t, p, Options{}), "k1"))
	}
	if got != noggin.CodeReadOnly {
		t.Fatalf("write to a read-only noggin: %q, want %s", got, noggin.CodeReadOnly)
	}
	if after, _ := os.ReadFile(p); string(after) != string(before) {
		t.Errorf("file changed")
	}
	if got := modeOf(t, p); got != 0o444 {
		t.Errorf("mode %v", got)
	}
}

// TestHistoryRewriteKeepsNarrowMode: a history its user made narrower than
// the noggin stays so when a write rewrites it (cutting it back).
func TestHistoryRewriteKeepsNarrowMode(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	p := filepath.Join(t.TempDir(), "n.yaml")
	s := mustOpen(t, p, Options{})
	mustAdd(t, s, "k0")
	if err := os.Chmod(p+historySuffix, 0o600); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= noggin.MaxHistory+compactSlack+2; i++ { // past the bound: rewritten
		mustAdd(t, s, "k"+strconv.Itoa(i))
	}
	if got := modeOf(t, p+historySuffix); got != 0o600 {
		t.Errorf("history mode %v after its rewrite, want 0600", got)
	}
}
