package store

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/noggin-go/noggin/core/noggin"
)

// fsys is the file I/O the file provider needs. *os.Root implements it
// (names relative to the root, escapes refused); osFS implements it with
// the os package (absolute names).
type fsys interface {
	Stat(name string) (fs.FileInfo, error)
	ReadFile(name string) ([]byte, error)
	WriteFile(name string, data []byte, perm fs.FileMode) error
	Open(name string) (*os.File, error)
	OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error)
	Mkdir(name string, perm fs.FileMode) error
	MkdirAll(name string, perm fs.FileMode) error
	Remove(name string) error
	RemoveAll(name string) error
	Rename(oldname, newname string) error
	Link(oldname, newname string) error
}

// osFS is the unconfined file system.
type osFS struct{}

func (osFS) Stat(name string) (fs.FileInfo, error) { return os.Stat(name) }
func (osFS) ReadFile(name string) ([]byte, error)  { return os.ReadFile(name) }
func (osFS) WriteFile(name string, data []byte, perm fs.FileMode) error {
	return os.WriteFile(name, data, perm)
}
func (osFS) Open(name string) (*os.File, error) { return os.Open(name) }
func (osFS) OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	return os.OpenFile(name, flag, perm)
}
func (osFS) Mkdir(name string, perm fs.FileMode) error    { return os.Mkdir(name, perm) }
func (osFS) MkdirAll(name string, perm fs.FileMode) error { return os.MkdirAll(name, perm) }
func (osFS) Remove(name string) error                     { return os.Remove(name) }
func (osFS) RemoveAll(name string) error                  { return os.RemoveAll(name) }
func (osFS) Rename(oldname, newname string) error         { return os.Rename(oldname, newname) }
func (osFS) Link(oldname, newname string) error           { return os.Link(oldname, newname) }

var _ fsys = rootFS{}

// hostPath is name as the operating system knows it.
func hostPath(fsy fsys, name string) string {
	if r, ok := fsy.(rootFS); ok {
		return filepath.Join(r.dir, name)
	}
	return name
}

// isEscape reports whether err is os.Root refusing a path that leaves the
// root ("..", absolute symlinks, symlinks pointing outside).
func isEscape(err error) bool {
	return err != nil && strings.Contains(err.Error(), "path escapes from parent")
}

// errnoText is the libuv wording of the errors a noggin file meets, so that
// OS messages read like the original tool's ("EISDIR: illegal operation on
// a directory, read").
var errnoText = map[syscall.Errno][2]string{
	syscall.ENOENT:       {"ENOENT", "no such file or directory"},
	syscall.EACCES:       {"EACCES", "permission denied"},
	syscall.EISDIR:       {"EISDIR", "illegal operation on a directory"},
	syscall.ENOTDIR:      {"ENOTDIR", "not a directory"},
	syscall.EPERM:        {"EPERM", "operation not permitted"},
	syscall.EEXIST:       {"EEXIST", "file already exists"},
	syscall.ELOOP:        {"ELOOP", "too many symbolic links encountered"},
	syscall.ENAMETOOLONG: {"ENAMETOOLONG", "name too long"},
	syscall.EROFS:        {"EROFS", "read-only file system"},
	syscall.ENOSPC:       {"ENOSPC", "no space left on device"},
	syscall.EBUSY:        {"EBUSY", "resource busy or locked"},
	syscall.EMFILE:       {"EMFILE", "too many open files"},
	syscall.ENFILE:       {"ENFILE", "file table overflow"},
	syscall.EIO:          {"EIO", "i/o error"},
	syscall.EINVAL:       {"EINVAL", "invalid argument"},
	syscall.EXDEV:        {"EXDEV", "cross-device link not permitted"},
	syscall.ENOTEMPTY:    {"ENOTEMPTY", "directory not empty"},
	syscall.ENXIO:        {"ENXIO", "no such device or address"},
}

// osMessage renders an OS error the way Node does
// ("<CODE>: <description>, <syscall> '<path>'"); base, when non-empty, is
// joined to relative paths (names inside an os.Root). Errors it does not
// know keep Go's wording.
func osMessage(err error, base string) string {
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return err.Error()
	}
	t, ok := errnoText[errno]
	if !ok {
		return err.Error()
	}
	abs := func(p string) string {
		if base != "" && !filepath.IsAbs(p) {
			return filepath.Join(base, p)
		}
		return p
	}
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		op := syscallName(pe.Op)
		if op == "read" || op == "write" || op == "fsync" || op == "sync" {
			return t[0] + ": " + t[1] + ", " + op
		}
		return t[0] + ": " + t[1] + ", " + op + " '" + abs(pe.Path) + "'"
	case errors.As(err, &le):
		op := syscallName(le.Op)
		return t[0] + ": " + t[1] + ", " + op + " '" + abs(le.Old) + "' -> '" + abs(le.New) + "'"
	}
	return t[0] + ": " + t[1]
}

// writeError turns an unexpected OS error of a write into noggin-error
// (exit 1, no data), worded like the original's raw errors.
func writeError(err error, base string) error {
	var e *noggin.Error
	if errors.As(err, &e) {
		return e
	}
	return noggin.Wrap(errors.New(osMessage(err, base)))
}

// syscallName maps Go's operation names (including os.Root's *at calls)
// to Node's syscall names.
func syscallName(op string) string {
	switch op {
	case "openat", "openat2":
		return "open"
	case "mkdirat":
		return "mkdir"
	case "renameat":
		return "rename"
	case "unlinkat", "removeat", "remove":
		return "unlink"
	case "fstatat", "statat", "lstat":
		return "stat"
	}
	return op
}

// rootFS confines I/O to a root directory with an os.Root, and also follows
// the absolute symlinks os.Root refuses on principle when they resolve to a
// place inside the root: a link is judged by where it leads, not by how it
// is spelled. Reads follow the whole path; writes resolve the directories
// and keep the last name (a noggin that is a link was resolved to its
// target when opened). os.Root still checks every resolved name, so a link
// changed in between cannot lead outside.
type rootFS struct {
	*os.Root
	dir string // the root's absolute directory
}

// resolve returns name with its symlinks resolved inside the root (all of
// them when follow and name exists, else those of its directories), or ok
// false when that fails or leads outside.
func (r rootFS) resolve(name string, follow bool) (string, bool) {
	realDir, err := filepath.EvalSymlinks(r.dir)
	if err != nil {
		return "", false
	}
	target, last := filepath.Join(r.dir, name), ""
	real, err := "", errors.ErrUnsupported
	if follow {
		real, err = filepath.EvalSymlinks(target)
	}
	if err != nil { // not following, or nothing there yet: the directories
		dir, base := filepath.Split(target)
		if real, err = filepath.EvalSymlinks(dir); err != nil {
			return "", false
		}
		last = base
	}
	rel, err := relInside(realDir, filepath.Join(real, last))
	return rel, err == nil
}

// retry runs op on name, and once more on its resolved form when os.Root
// refused name as an escape.
func retry[T any](r rootFS, name string, follow bool, op func(string) (T, error)) (T, error) {
	v, err := op(name)
	if isEscape(err) {
		if rel, ok := r.resolve(name, follow); ok {
			return op(rel)
		}
	}
	return v, err
}

func (r rootFS) Stat(name string) (fs.FileInfo, error) {
	return retry(r, name, true, r.Root.Stat)
}

func (r rootFS) ReadFile(name string) ([]byte, error) {
	return retry(r, name, true, r.Root.ReadFile)
}

func (r rootFS) Open(name string) (*os.File, error) {
	return retry(r, name, true, r.Root.Open)
}

func (r rootFS) OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	follow := flag&(os.O_WRONLY|os.O_RDWR|os.O_CREATE) == 0
	return retry(r, name, follow, func(n string) (*os.File, error) { return r.Root.OpenFile(n, flag, perm) })
}

func (r rootFS) WriteFile(name string, data []byte, perm fs.FileMode) error {
	return r.do(name, func(n string) error { return r.Root.WriteFile(n, data, perm) })
}

func (r rootFS) Mkdir(name string, perm fs.FileMode) error {
	return r.do(name, func(n string) error { return r.Root.Mkdir(n, perm) })
}

func (r rootFS) MkdirAll(name string, perm fs.FileMode) error {
	return r.do(name, func(n string) error { return r.Root.MkdirAll(n, perm) })
}

func (r rootFS) Remove(name string) error    { return r.do(name, r.Root.Remove) }
func (r rootFS) RemoveAll(name string) error { return r.do(name, r.Root.RemoveAll) }

func (r rootFS) Rename(oldname, newname string) error { return r.both(oldname, newname, r.Root.Rename) }
func (r rootFS) Link(oldname, newname string) error   { return r.both(oldname, newname, r.Root.Link) }

// both is retry for operations on two names (not following them).
func (r rootFS) both(oldname, newname string, op func(o, n string) error) error {
	err := op(oldname, newname)
	if isEscape(err) {
		o, ok1 := r.resolve(oldname, false)
		n, ok2 := r.resolve(newname, false)
		if ok1 && ok2 {
			return op(o, n)
		}
	}
	return err
}

// do is retry for operations on the name itself (not following it).
func (r rootFS) do(name string, op func(string) error) error {
	_, err := retry(r, name, false, func(n string) (struct{}, error) { return struct{}{}, op(n) })
	return err
}

// maxLinks bounds a chain of symlinks (Linux's own limit).
const maxLinks = 40

// linkTarget is the file a chain of symlinks at path leads to (path itself
// when it is no link); a link to a file not there yet leads to that name,
// so the first write creates the target and keeps the link.
func linkTarget(path string) (string, error) {
	for range maxLinks {
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		t, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(t) {
			dir, err := filepath.EvalSymlinks(filepath.Dir(path))
			if err != nil {
				return "", err
			}
			t = filepath.Join(dir, t)
		}
		path = t
	}
	return "", &fs.PathError{Op: "stat", Path: path, Err: syscall.ELOOP}
}
