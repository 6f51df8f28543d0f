package store

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/noggin-go/noggin/core/codec"
	"github.com/noggin-go/noggin/core/noggin"
)

// racyWindow: a stamp taken less than this after the file's mtime cannot
// prove the file unchanged (file times come from a coarse clock, so a later
// in-place write may share the mtime and ctime), so the bytes are compared
// as well. It must exceed the file system's timestamp granularity.
const racyWindow = 100 * time.Millisecond

// stamp identifies one version of the file on disk.
type stamp struct {
	exists bool
	size   int64
	mtime  int64 // ns
	ctime  int64 // ns
	ino    uint64
	dev    uint64
}

func stampOf(fi fs.FileInfo) stamp {
	st := stamp{exists: true, size: fi.Size(), mtime: fi.ModTime().UnixNano()}
	st.ino, st.dev, st.ctime = sysStamp(fi)
	return st
}

// fileStore is the file provider: one noggin file, its parsed document
// cached and re-read when the file changes.
type fileStore struct {
	location string // as supplied (Describe)
	abs      string // absolute file path (watching)
	shown    string // the file as messages and data.path name it
	name     string // the file's name for fsy
	base     string // directory relative names are shown against ("" = none)
	fsy      fsys
	jsonFile bool
	mapFiles bool            // Options.MapFiles
	items    codec.ItemCache // encodings of the items last written (under wmu)
	timeout  time.Duration
	poll     time.Duration

	wmu turn // serialises Update within the process

	mu     sync.Mutex // guards the fields below
	loaded bool
	doc    *noggin.Document
	raw    []byte
	// rawDoc: raw is not kept; the file holds exactly encode(doc) (this
	// store wrote it), which cachedRawLocked rebuilds when it is needed.
	rawDoc   bool
	st       stamp
	checked  time.Time // when st was last confirmed
	failSt   stamp     // stamp of the file that last failed to load
	failErr  error
	failAt   time.Time // when failErr was seen
	hub      hub
	stopPoll chan struct{}
	// scratch (guarded by mu) and wscratch (guarded by wmu) are the small
	// buffers the file is compared with raw through (sameFile).
	scratch, wscratch []byte
}

// newFileStore builds the store of one file: abs is its absolute path,
// name the name fsy knows it by; shown is how messages and data.path name
// it and base the directory OS messages' relative names are joined to.
func newFileStore(location, abs, shown, name, base string, fsy fsys, o Options) *fileStore {
	s := &fileStore{
		location: location, abs: abs, shown: shown, name: name, base: base, fsy: fsy,
		jsonFile: strings.EqualFold(filepath.Ext(abs), ".json"), mapFiles: o.MapFiles,
		timeout: o.LockTimeout, poll: o.PollInterval, wmu: newTurn(),
	}
	if s.timeout <= 0 {
		s.timeout = defaultLockTimeout
	}
	if s.poll <= 0 {
		s.poll = 200 * time.Millisecond
	}
	s.hub.first = s.startPolling
	s.hub.last = s.stopPolling
	return s
}

// Describe returns the location exactly as supplied.
func (s *fileStore) Describe() string { return s.location }

// Load returns the current document, re-reading the file only when it
// changed since the last look.
func (s *fileStore) Load(ctx context.Context) (*noggin.Document, error) {
	if err := noggin.Cancelled(ctx); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.refreshLocked(true)
}

// refreshLocked brings the cache up to date with the file. Failures are
// returned (and published to watchers once per file version); the cached
// document is kept. Unless strict, an unchanged stamp is trusted even in
// the racy window (used where the file is re-read under the lock anyway).
func (s *fileStore) refreshLocked(strict bool) (*noggin.Document, error) {
	now := time.Now()
	st, statErr := s.stat()
	if statErr == nil && s.loaded && st == s.st && (!strict || !s.racy()) {
		return s.doc, nil
	}
	if statErr == nil && s.failErr != nil && st == s.failSt && s.failAt.UnixNano()-st.mtime >= int64(racyWindow) {
		return nil, s.failErr
	}
	if s.loaded && s.sameFile(s.cachedRawLocked(), &s.scratch) {
		s.st, s.checked = st, now
		s.failErr = nil
		return s.doc, nil
	}
	raw, doc, err := s.load()
	if err != nil {
		if statErr == nil {
			fresh := s.failErr == nil || st != s.failSt || err.Error() != s.failErr.Error()
			s.failSt, s.failErr, s.failAt = st, err, now
			if fresh && s.hub.active() {
				s.hub.publish(noggin.Event{Err: err})
			}
		}
		return nil, err
	}
	s.failErr = nil
	s.replaceLocked(doc, raw, st, now)
	return doc, nil
}

// racy reports whether the cached stamp is too close to the file's mtime
// to prove that the file is unchanged.
func (s *fileStore) racy() bool {
	return s.st.exists && s.checked.UnixNano()-s.st.mtime < int64(racyWindow)
}

// replaceLocked installs a new cached document and tells watchers what
// changed (only a non-empty diff is an event).
func (s *fileStore) replaceLocked(doc *noggin.Document, raw []byte, st stamp, now time.Time) {
	prev, had := s.doc, s.loaded
	s.doc, s.raw, s.rawDoc, s.st, s.checked, s.loaded = doc, raw, false, st, now, true
	if !had || !s.hub.active() {
		return
	}
	if ch := noggin.Diff(prev, doc); len(ch) > 0 {
		s.hub.publish(noggin.Event{Changes: ch, Doc: doc})
	}
}

// cachedRawLocked returns the bytes of the file the cached document was
// read from (or written as), rebuilding them if only the document was kept.
func (s *fileStore) cachedRawLocked() []byte {
	if s.rawDoc {
		s.raw, s.rawDoc = s.encode(s.doc), false
	}
	return s.raw
}

// sameFile reports whether the file holds exactly want (a missing file
// counts as empty, as bytes.Equal(nil, empty) does). It reads the file
// through the small buffer *scratch (allocated on first use) instead of a
// document-sized one: a fresh process pays for every page it touches. Any
// failure is false; the caller then reads the file and sees the failure.
func (s *fileStore) sameFile(want []byte, scratch *[]byte) (same bool) {
	if !s.mapFiles {
		return s.compareFile(want, scratch)
	}
	// want may map a file that shrank since: a fault means "differs".
	guard(func() { same = s.compareFile(want, scratch) })
	return same
}

// compareFile is sameFile without the fault guard.
func (s *fileStore) compareFile(want []byte, scratch *[]byte) bool {
	f, err := s.fsy.Open(s.name)
	if err != nil {
		return notExist(err) && len(want) == 0
	}
	defer f.Close()
	if *scratch == nil {
		*scratch = make([]byte, 32<<10)
	}
	buf := *scratch
	off := 0
	for {
		n, err := f.Read(buf)
		if n > 0 {
			if n > len(want)-off || !bytes.Equal(buf[:n], want[off:off+n]) {
				return false
			}
			off += n
		}
		if err != nil {
			return err == io.EOF && off == len(want)
		}
	}
}

// stat returns the file's stamp; a missing file is the zero stamp.
func (s *fileStore) stat() (stamp, error) {
	fi, err := s.fsy.Stat(s.name)
	if err != nil {
		if notExist(err) {
			return stamp{}, nil
		}
		return stamp{}, err
	}
	return stampOf(fi), nil
}

// load reads and decodes the file (raw is nil for a missing file).
func (s *fileStore) load() (raw []byte, doc *noggin.Document, err error) {
	raw, mapped, err := s.read(s.mapFiles)
	if err != nil {
		return nil, nil, err
	}
	if mapped {
		if guard(func() { doc, err = s.decode(raw) }) {
			return raw, doc, err
		}
		// The file shrank while mapped (rewritten in place): read it.
		if raw, _, err = s.read(false); err != nil {
			return nil, nil, err
		}
	}
	doc, err = s.decode(raw)
	return raw, doc, err
}

// guard runs f and reports false if it faulted on a mapped file (read
// past the end of a file truncated by someone else); other panics go on.
func guard(f func()) (ok bool) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if _, fault := r.(interface{ Addr() uintptr }); !fault {
				panic(r)
			}
			ok = false
		}
	}()
	f()
	return true
}

// read returns the file's bytes, mapped if allowed and possible (mapped
// reports it); a missing file is nil (an empty one is non-nil). Other
// failures are io (exit 2, data {path, detail}), or location-refused
// inside a root.
func (s *fileStore) read(allowMap bool) (buf []byte, mapped bool, err error) {
	f, err := s.fsy.Open(s.name)
	if err == nil {
		defer f.Close()
		var size int
		if fi, serr := f.Stat(); serr == nil {
			size = int(fi.Size())
		}
		if allowMap {
			if b, ok := mapFile(f, size); ok {
				return b, true, nil
			}
		}
		buf = make([]byte, 0, size+size/8+512)
		for {
			if len(buf) == cap(buf) {
				buf = append(buf, 0)[:len(buf)]
			}
			var n int
			n, err = f.Read(buf[len(buf):cap(buf)])
			buf = buf[:len(buf)+n]
			if err != nil {
				if err == io.EOF {
					return buf, false, nil
				}
				break
			}
		}
	}
	if notExist(err) {
		return nil, false, nil
	}
	if e := s.refused(err); e != nil {
		return nil, false, e
	}
	detail := osMessage(err, s.base)
	return nil, false, noggin.Errorf(noggin.CodeIO, "failed to read file: %s", detail).
		With(noggin.F("path", s.shown), noggin.F("detail", detail))
}

// refused maps an os.Root escape to location-refused.
func (s *fileStore) refused(err error) error {
	if !isEscape(err) {
		return nil
	}
	return refusedError(s.location, "path escapes the root directory")
}

// decode parses the file's bytes: JSON for .json files, else YAML. Load
// errors of the document get data.path.
func (s *fileStore) decode(raw []byte) (*noggin.Document, error) {
	if raw == nil { // missing file
		return noggin.NewDocument(), nil
	}
	var doc *noggin.Document
	var err error
	if s.jsonFile {
		doc, err = codec.DecodeJSON(raw)
	} else {
		doc, err = codec.DecodeYAML(raw)
	}
	if err == nil {
		err = noggin.CheckKeys(doc)
	}
	if err != nil {
		var e *noggin.Error
		if errors.As(err, &e) && (e.Code == noggin.CodeInvalidDocument || e.Code == noggin.CodeUnsupportedSchema) {
			return nil, e.With(noggin.F("path", s.shown))
		}
		return nil, err
	}
	return doc, nil
}

func (s *fileStore) encode(doc *noggin.Document) []byte {
	if s.jsonFile {
		return codec.EncodeJSON(doc)
	}
	return codec.EncodeYAML(doc)
}

// Update plans on the cached document, then under the in-process mutex and
// the cross-process lock re-reads the file, re-plans, applies and writes.
func (s *fileStore) Update(ctx context.Context, plan func(doc *noggin.Document) ([]noggin.Op, error)) (*noggin.Document, error) {
	if err := noggin.Cancelled(ctx); err != nil {
		return nil, err
	}
	s.mu.Lock()
	doc, err := s.refreshLocked(false)
	s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	ops, err := plan(doc)
	if err != nil {
		return nil, err
	}
	if len(ops) == 0 {
		return doc, nil
	}

	if err := s.wmu.take(ctx); err != nil {
		return nil, err
	}
	defer s.wmu.give()
	// Our divergence: missing parent directories are created first.
	if dir := path.Dir(filepath.ToSlash(s.name)); dir != "." && dir != "/" {
		if _, err := s.fsy.Stat(dir); err != nil {
			// Do not leave directories behind for a write that would fail
			// anyway (the document of a missing directory is the empty one).
			if _, err := noggin.Apply(doc, ops); err != nil {
				return nil, err
			}
			if err := s.fsy.MkdirAll(dir, 0o777); err != nil {
				return nil, s.writeErr(err)
			}
		}
	}
	release, err := acquireLock(ctx, s.fsy, s.name, s.shown, s.timeout)
	if err != nil {
		return nil, s.writeErr(err)
	}
	defer release()

	// Re-read under the lock: the ops apply to the file as it is now.
	st, err := s.stat()
	if err != nil {
		if e := s.refused(err); e != nil {
			return nil, e
		}
	}
	s.mu.Lock()
	fresh, loaded := s.doc, s.loaded
	var raw []byte
	if loaded {
		raw = s.cachedRawLocked()
	}
	s.mu.Unlock()
	if !loaded || !s.sameFile(raw, &s.wscratch) {
		if raw, fresh, err = s.load(); err != nil {
			return nil, err
		}
	}
	if fresh != doc { // the file changed since the first plan: plan again
		if ops, err = plan(fresh); err != nil {
			return nil, err
		}
	}
	if len(ops) == 0 {
		s.mu.Lock()
		s.replaceLocked(fresh, raw, st, time.Now())
		s.mu.Unlock()
		return fresh, nil
	}
	next, err := noggin.Apply(fresh, ops)
	if err != nil {
		return nil, err
	}
	// The last moment to give up: from here the write completes.
	if err := noggin.Cancelled(ctx); err != nil {
		return nil, err
	}
	s.removeStaleTemps()
	// A one-shot process (MapFiles) streams the encoding and never needs
	// the bytes again; a long-lived store keeps them, because the next
	// write compares the file with them under the lock (encoding the
	// document a second time would double the cost of every write).
	var out []byte
	switch {
	case s.mapFiles:
	case s.jsonFile:
		out = codec.EncodeJSON(next)
	default:
		out = s.items.EncodeYAML(next) // re-encodes only changed items
	}
	if err := s.writeAtomic(next, out); err != nil {
		return nil, s.writeErr(err)
	}
	st, _ = s.stat()
	s.mu.Lock()
	s.failErr = nil
	s.replaceLocked(next, out, st, time.Now())
	s.rawDoc = out == nil // else the file is encode(next), rebuilt on demand
	s.mu.Unlock()
	return next, nil
}

func (s *fileStore) writeErr(err error) error {
	if e := s.refused(err); e != nil {
		return e
	}
	return writeError(err, s.base)
}

// writeAtomic writes data, or if it is nil doc encoded as the file's
// format and streamed (no document-sized buffer), to
// <file>.tmp-<pid>-<epoch-ms>, fsyncs it,
// renames it over the file and fsyncs the directory. The temp file is
// removed on failure.
func (s *fileStore) writeAtomic(doc *noggin.Document, data []byte) (err error) {
	tmp := s.name + ".tmp-" + strconv.Itoa(os.Getpid()) + "-" + strconv.FormatInt(time.Now().UnixMilli(), 10)
	f, err := s.fsy.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = s.fsy.Remove(tmp)
		}
	}()
	switch {
	case data != nil:
		_, err = f.Write(data)
	case s.jsonFile:
		err = codec.WriteJSON(f, doc)
	default:
		err = codec.WriteYAML(f, doc)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	for attempt := 1; ; attempt++ {
		err = s.fsy.Rename(tmp, s.name)
		if err == nil || attempt == 6 || !(errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EBUSY) || errors.Is(err, syscall.EACCES)) {
			break
		}
		time.Sleep(time.Duration(5+rand.IntN(15)) * time.Millisecond)
	}
	if err != nil {
		return err
	}
	if d, derr := s.fsy.Open(s.dir()); derr == nil {
		_ = d.Sync()
		_ = d.Close()
	}
	return nil
}

// dir is the directory holding the file, as an fsys name.
func (s *fileStore) dir() string {
	return filepath.FromSlash(path.Dir(filepath.ToSlash(s.name)))
}

// removeStaleTemps deletes what writers that died left behind: temporary
// files of this noggin (<file>.tmp-<pid>-<ms>, of dead pids or of this
// process, which is not writing one now) and temporary lock directories
// (<file>.lock.tmp-<pid>-<n>, of dead pids). Called under the lock.
func (s *fileStore) removeStaleTemps() {
	d, err := s.fsy.Open(s.dir())
	if err != nil {
		return
	}
	names, _ := d.Readdirnames(-1)
	_ = d.Close()
	base := path.Base(filepath.ToSlash(s.name))
	for _, n := range names {
		var pid int
		var isLock bool
		if rest, ok := strings.CutPrefix(n, base+".tmp-"); ok {
			pid = tempPid(rest)
		} else if rest, ok := strings.CutPrefix(n, base+".lock.tmp-"); ok {
			pid, isLock = tempPid(rest), true
		}
		if pid <= 0 {
			continue
		}
		own := pid == os.Getpid()
		if (own && !isLock) || (!own && !pidAlive(float64(pid))) {
			_ = s.fsy.RemoveAll(filepath.Join(s.dir(), n))
		}
	}
}

// tempPid parses "<pid>-<digits>" (0 if it does not match).
func tempPid(rest string) int {
	pidText, num, ok := strings.Cut(rest, "-")
	if !ok {
		return 0
	}
	pid, err1 := strconv.Atoi(pidText)
	_, err2 := strconv.ParseUint(num, 10, 64)
	if err1 != nil || err2 != nil {
		return 0
	}
	return pid
}

// Watch streams change events until ctx is done. While anyone watches, the
// file is polled every PollInterval for external changes.
func (s *fileStore) Watch(ctx context.Context) <-chan noggin.Event {
	// Make sure there is a baseline to diff external changes against.
	_, _ = s.Load(ctx)
	return s.hub.watch(ctx)
}

// startPolling and stopPolling run under the hub's lock. While anyone
// watches, the store re-reads the file when the kernel reports a change to
// it (inotify, kqueue or ReadDirectoryChangesW through fsnotify, on the
// file's directory, since an atomic write replaces the file) and, as a
// safety net for file systems that report nothing (network mounts), every
// poll interval times ten. Without notifications it polls every interval.
//
// A re-read publishes one event for everything that changed since the last
// look: writes of this process are one event each (they publish
// themselves), while several writes of another process that land before
// the re-read arrive coalesced, as one event whose document is the latest.
// settle is how long a watched file must be quiet after a change
// notification before it is re-read.
const settle = 20 * time.Millisecond

func (s *fileStore) startPolling() {
	stop := make(chan struct{})
	s.stopPoll = stop
	interval := s.poll
	var events <-chan fsnotify.Event
	var errs <-chan error
	w, err := fsnotify.NewWatcher()
	if err == nil {
		if err = w.Add(filepath.Dir(s.abs)); err != nil {
			_ = w.Close()
			w = nil
		}
	}
	if w != nil {
		events, errs = w.Events, w.Errors
		interval *= 10
	}
	base := filepath.Base(s.abs)
	go func() {
		t := time.NewTicker(interval)
		defer t.Stop()
		if w != nil {
			defer w.Close()
		}
		// A notification is acted on once the file has been quiet for
		// settle: a writer that truncates and then writes in place (an
		// editor, a shell redirect) is read when it is done, not half-way.
		settled := time.NewTimer(time.Hour)
		settled.Stop()
		defer settled.Stop()
		for {
			select {
			case <-stop:
				return
			case ev, ok := <-events:
				if !ok {
					events = nil
					continue
				}
				if filepath.Base(ev.Name) == base {
					settled.Reset(settle)
				}
			case <-settled.C:
				_, _ = s.Load(context.Background())
			case _, ok := <-errs:
				if !ok {
					errs = nil
				}
				// A dropped notification (queue overflow): look now.
				_, _ = s.Load(context.Background())
			case <-t.C:
				_, _ = s.Load(context.Background())
			}
		}
	}()
}

func (s *fileStore) stopPolling() {
	if s.stopPoll != nil {
		close(s.stopPoll)
		s.stopPoll = nil
	}
}

func refusedError(location, detail string) error {
	return noggin.NewError(noggin.CodeLocationRefused,
		noggin.F("location", location), noggin.F("detail", detail))
}

// notExist: the file is missing (ENOENT, or ENOTDIR for a path below a
// regular file — the original's existence check says "missing" to both).
func notExist(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}
