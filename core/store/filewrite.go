package store

// Writing a noggin file: the locked read-plan-write cycle, the atomic
// replacement of the file, and the cleanup of what dead writers left.

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/noggin-go/noggin/core/internal/codec"
	"github.com/noggin-go/noggin/core/internal/mmap"
	"github.com/noggin-go/noggin/core/noggin"
)

// Update plans on the cached document, then under the in-process mutex and
// the cross-process lock re-reads the file, re-plans, applies and writes.
// A write with a receipt (noggin.Receipt) runs on a goroutine of its own
// and records its request id and reply in its journal entry.
func (s *fileStore) Update(ctx context.Context, w noggin.Write) (*noggin.Document, error) {
	if err := noggin.Cancelled(ctx); err != nil {
		return nil, err
	}
	if r := noggin.ReceiptOf(ctx); r != nil {
		return r.Run(func(r *noggin.Receipt) (*noggin.Document, error) { return s.update(ctx, w, r) })
	}
	return s.update(ctx, w, nil)
}

// update is Update; hold is the write's receipt (nil: none). A write with
// a receipt plans only under the lock, once it has looked for its request
// id in the journal: its first attempt may have changed what a plan sees.
func (s *fileStore) update(ctx context.Context, w noggin.Write, hold *noggin.Receipt) (*noggin.Document, error) {
	var doc *noggin.Document
	var h *noggin.History
	var ops []noggin.Op
	if hold == nil {
		var err error
		if doc, h, ops, err = s.planCached(w); err != nil || len(ops) == 0 {
			return doc, err
		}
	}
	if err := s.wmu.take(ctx); err != nil {
		return nil, err
	}
	defer s.wmu.give()
	if err := s.makeParents(doc, ops); err != nil {
		return nil, err
	}
	return s.updateLocked(ctx, w, hold, doc, h, ops)
}

// makeParents creates the missing parent directories of the noggin (our
// divergence), unless the write would fail anyway: then it leaves no
// directory behind (the document of a missing directory is the empty one).
func (s *fileStore) makeParents(doc *noggin.Document, ops []noggin.Op) error {
	dir := path.Dir(filepath.ToSlash(s.name))
	if dir == "." || dir == "/" {
		return nil
	}
	if _, err := s.fsy.Stat(dir); err == nil {
		return nil
	}
	if doc != nil {
		if _, err := noggin.Apply(doc, ops); err != nil {
			return err
		}
	}
	if err := s.fsy.MkdirAll(dir, 0o777); err != nil {
		return s.writeErr(err)
	}
	return nil
}

// planCached plans w on the cached document (refreshed first).
func (s *fileStore) planCached(w noggin.Write) (*noggin.Document, *noggin.History, []noggin.Op, error) {
	s.mu.Lock()
	doc, err := s.refreshLocked(false)
	s.mu.Unlock()
	if err != nil {
		return nil, nil, nil, err
	}
	h := noggin.NewHistory(s.readHistory, func(like string) string {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.doc != doc {
			return "" // changed meanwhile: the locked pass plans again
		}
		if !sameScheme(s.digest, like) || s.digest == "" {
			d := s.mode.digestCached(s, like)
			if !sameScheme(d, "") {
				return d
			}
			s.digest = d
		}
		return s.digest
	})
	ops, err := w.Plan(doc, h)
	return doc, h, ops, err
}

// updateLocked is the write under the cross-process lock: re-read, re-plan
// if the file changed since doc was planned on (into h and ops), apply,
// write.
func (s *fileStore) updateLocked(ctx context.Context, w noggin.Write, hold *noggin.Receipt, doc *noggin.Document, h *noggin.History, ops []noggin.Op) (*noggin.Document, error) {
	start := time.Now()
	lk, err := acquireLock(ctx, s.fsy, s.name, s.shown, s.timeout)
	if err != nil {
		return nil, s.writeErr(err)
	}
	defer lk.release()
	if s.observe != nil {
		s.observe("lock-wait", time.Since(start))
		defer func() { s.observe("write", time.Since(start)) }()
	}
	st, statErr, err := s.lockedStat()
	if err != nil {
		return nil, err
	}
	c, err := s.current(st, statErr)
	defer func() {
		if c.lastMapped {
			mmap.Unmap(c.last)
		}
	}()
	if err != nil {
		return nil, err
	}
	if c.doc != doc { // the file changed since the first plan: plan again
		if h, ops, err = s.replan(w, hold, c); err != nil {
			return nil, err
		}
	}
	if len(ops) == 0 {
		s.mu.Lock()
		s.shot.lazy = c.lazy
		s.replaceLocked(c.doc, c.raw, c.digest, st, time.Now())
		s.mu.Unlock()
		return c.doc, nil
	}
	// The file's digest, the journal entry's before.
	before := s.mode.before(h)
	defer before() // on every return: a one-shot store's digest reads the mapping
	next, err := noggin.Apply(c.doc, ops)
	if err != nil {
		return nil, err
	}
	// The last moment to give up: from here the write completes.
	if err := noggin.Cancelled(ctx); err != nil {
		return nil, err
	}
	s.removeStaleTemps()
	entry, jerr := noggin.NewEntry(w, h, c.doc, ops)
	src, trusted, journal := s.copySource(c.src, jerr == nil, before)
	s.live.itemsDigest = ""
	// The journal entry is appended just before the rename, so that a
	// write that happened always has its entry (a request id recorded
	// with it answers a retry); an entry whose write died before its
	// rename is recognised as such (noggin.Phantom).
	commit := func(after string) error {
		if hold != nil {
			s.setRevision(next, after) // the answer, made now, names the file about to be in place
			reply, ok := hold.Await(next)
			if !ok {
				return noggin.NewError(noggin.CodeCancelled, noggin.F("reason", "canceled"))
			}
			entry.Request, entry.RequestDigest, entry.Reply = hold.ID, hold.Digest, string(reply)
		}
		if jerr != nil {
			return nil
		}
		entry.Before, entry.After = before(), after
		// The history never fails a write: one that cannot be appended to
		// (a directory, no permission) leaves a retry without its answer.
		prev := s.journal.st
		if appendJournal(s.fsy, s.name+historySuffix, entry, &s.journal, journal, filePerm(st), hold != nil) == nil {
			s.requests.appended(prev, s.journal.st, entry.Request)
		}
		return nil
	}
	after, err := s.writeAtomic(next, src, trusted, c.last, c.lastMapped, st, lk, commit)
	c.lastMapped = false // writeAtomic unmapped it
	if err != nil {
		if entry.After != "" { // appended: take the entry back
			dropLastEntry(s.fsy, s.name+historySuffix, entry.Before, entry.After)
			s.journal = journalTail{}
		}
		return nil, s.writeErr(err)
	}
	st, _ = s.stat()
	s.mu.Lock()
	s.failErr = nil
	s.shot.lazy = c.lazy
	s.replaceLocked(next, nil, after, st, time.Now())
	s.mode.written(s, after)
	s.mu.Unlock()
	return next, nil
}

// lockedStat stats the file under the lock (statErr: it could not be
// stat'ed) and refuses a noggin its user may not write, even where the
// directory would let a rename replace it.
func (s *fileStore) lockedStat() (st stamp, statErr, err error) {
	st, statErr = s.stat()
	if statErr != nil {
		if e := s.refused(statErr); e != nil {
			return st, statErr, e
		}
	}
	if st.exists {
		if werr := writable(hostPath(s.fsy, s.name)); werr != nil && !notExist(werr) {
			return st, statErr, noggin.NewError(noggin.CodeReadOnly, noggin.F("path", s.shown), noggin.F("detail", osMessage(&os.PathError{Op: "access", Path: s.shown, Err: werr}, "")))
		}
	}
	return st, statErr, nil
}

// current is the noggin as a write finds it under the lock.
type current struct {
	doc       *noggin.Document
	raw       []byte // the file's bytes in a one-shot store
	rawMapped bool   // raw maps the file (changes if the file is read again)
	digest    string
	lazy      bool // doc is a lazy read's
	src       *codec.Source
	// last: a long-lived store's file as it last wrote it, for the write
	// to copy the unchanged items from (mapped: unmap it when done).
	last       []byte
	lastMapped bool
}

// current re-reads the file under the lock, unless the cached document is
// still the file's (its stamp st, or its bytes, say so): the ops apply to
// the file as it is now.
func (s *fileStore) current(st stamp, statErr error) (current, error) {
	s.mu.Lock()
	c := current{doc: s.doc, src: s.shot.src, digest: s.digest, lazy: s.shot.lazy}
	loaded := s.loaded
	if loaded {
		s.mode.current(s, &c)
	}
	// A mapping shows the file's current bytes, not those the document was
	// read from: comparing it with the file proves nothing. The stamp
	// decides: the same file (inode, size, times) is unchanged.
	same := loaded && s.shot.mapped && statErr == nil && st == s.st
	s.mu.Unlock()
	if loaded && !same {
		same = s.mode.holds(s, &c)
	}
	if same {
		return c, nil
	}
	f, err := s.mode.load(s)
	if err != nil {
		return c, err
	}
	c.lazy = false
	c.raw, c.rawMapped, c.doc, c.src = f.raw, f.mapped, f.doc, f.src
	c.digest = f.digest // of raw in a one-shot store: worked out by replaceLocked
	return c, nil
}

// replan plans w again on the file as the write found it (c), with its
// history; a request already recorded answers instead (hold).
func (s *fileStore) replan(w noggin.Write, hold *noggin.Receipt, c current) (*noggin.History, []noggin.Op, error) {
	h := noggin.NewHistory(s.readHistory, func(like string) string { return s.mode.digest(s, c, like) })
	if hold != nil {
		if err := s.recorded(hold, h.DigestLike); err != nil {
			return nil, nil, err
		}
	}
	ops, err := w.Plan(c.doc, h)
	return h, ops, err
}

// copySource decides whether the write may copy the unchanged items'
// bytes from src, the file read: only if the file is what the last
// journalled write left (its digest is that write's after), which this
// encoder wrote, are those bytes their encoding. A file of another length
// than that write's is never copied from; otherwise the copy is made while
// the digest (before) is worked out, and kept only if they match
// (trusted). The journal's ends, read for it, serve the append (journaled:
// the write has an entry).
func (s *fileStore) copySource(src *codec.Source, journaled bool, before func() string) (*codec.Source, func() bool, *journalEnds) {
	if src == nil || !journaled {
		return nil, nil, nil
	}
	ends, rerr := readJournalEnds(s.fsy, s.name+historySuffix)
	var journal *journalEnds
	if rerr == nil {
		journal = &ends
	}
	want := lastAfter(ends.tail)
	if n, _, ok := lengthAndCRC32(want); rerr == nil && ok && n == int64(src.Len()) {
		return src, func() bool { return before() == want }, journal
	}
	return nil, nil, journal
}

func (s *fileStore) writeErr(err error) error {
	if e := s.refused(err); e != nil {
		return e
	}
	return writeError(err, s.base)
}

// writeAtomic streams doc encoded as the file's format (no document-sized
// buffer) to <file>.tmp-<pid>-<epoch-ms>, fsyncs it, renames it over the
// file and fsyncs the directory, and returns the digest of what it wrote
// (read back from the temp file during its fsync). The temp file is
// removed on failure. Unchanged items are copied instead
// of encoded: in a one-shot process from src (see codec.WriteYAMLFrom), in
// a long-lived store from last, the file as the store's item cache last
// wrote it (see codec.ItemCache).
//
// trusted says, once the copy from src is made, whether the file was what
// this build last wrote (see Update); if not, the copy is discarded.
//
// src and last map the file, whose stamp was st under the lock. A tool
// that ignores the lock and rewrites the file in place while the bytes are
// copied makes the mapping fault (caught) or read other bytes, even zeros
// past a shortened end; the file's stamp then differs from st after the
// copy. Either way the items are encoded instead. A mapped last is
// unmapped once copied from, before the rename.
//
// commit runs just before the rename, with the digest of the new file
// (the journal entry); an error from it stops the write. lk is the lock,
// checked to be still ours just before the rename.
func (s *fileStore) writeAtomic(doc *noggin.Document, src *codec.Source, trusted func() bool, last []byte, lastMapped bool, st stamp, lk *lock, commit func(digest string) error) (digest string, err error) {
	tmp := s.name + ".tmp-" + strconv.Itoa(os.Getpid()) + "-" + strconv.FormatInt(time.Now().UnixMilli(), 10)
	f, err := s.fsy.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, filePerm(st))
	if err != nil {
		return "", err
	}
	defer func() {
		if err != nil {
			_ = s.fsy.Remove(tmp)
		}
	}()
	w := &summed{f: f}
	if err = keepMode(f, st); err == nil {
		err = s.encodeInto(w, doc, src, trusted, last, lastMapped, st)
	}
	if lastMapped {
		mmap.Unmap(last)
	}
	if err == nil {
		err = f.Sync()
	}
	digest = w.d.String()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", err
	}
	if err = s.replaceWith(tmp, digest, lk, commit); err != nil {
		return "", err
	}
	return digest, nil
}

// encodeInto writes doc into w, the new file: copying the unchanged items
// from src or last when that copy is sound (see writeAtomic), else
// encoding every item.
func (s *fileStore) encodeInto(w *summed, doc *noggin.Document, src *codec.Source, trusted func() bool, last []byte, lastMapped bool, st stamp) error {
	if s.jsonFile {
		return codec.Write(w, doc, codec.WriteOptions{JSON: true})
	}
	return s.mode.encode(s, w, doc, src, trusted, last, lastMapped, st)
}

// replaceWith commits the write (its journal entry) and renames tmp over
// the file, unless the lock was taken from us meanwhile (the fence: the
// original takes one older than 30 s), then syncs the directory.
func (s *fileStore) replaceWith(tmp, digest string, lk *lock, commit func(digest string) error) error {
	if beforeRename != nil {
		beforeRename()
	}
	if err := commit(digest); err != nil {
		return err
	}
	if lk.ours() != nil {
		return noggin.NewError(noggin.CodeLockLost, noggin.F("path", s.shown))
	}
	var err error
	for attempt := 1; ; attempt++ {
		err = s.fsy.Rename(tmp, s.name)
		if err == nil || attempt == 6 || !(errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EBUSY) || errors.Is(err, syscall.EACCES)) {
			break
		}
		time.Sleep(time.Duration(5+rand.IntN(15)) * time.Millisecond) //nolint:gosec // retry jitter, not a secret
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

// previousSuffix names the file an earlier build kept beside the noggin
// (the version its last write replaced); writes remove it.
const previousSuffix = ".previous"

// summed is the new file as it is written, with the digest of the bytes
// written so far.
type summed struct {
	f *os.File
	d digester
}

// Write writes b and digests it; a large b is digested on another
// goroutine while the kernel copies it (b does not change meanwhile). b
// may map a file that another tool cuts short: that goroutine's fault is
// codec.ErrCutShort, as the writer's own is (the kernel's copy fails).
func (w *summed) Write(b []byte) (int, error) {
	if len(b) < 256<<10 {
		_, _ = w.d.Write(b)
		return w.f.Write(b)
	}
	done := make(chan bool)
	go func() { done <- mmap.Guard(func() { _, _ = w.d.Write(b) }) }()
	n, err := w.f.Write(b)
	if !<-done {
		return n, codec.ErrCutShort
	}
	return n, err
}

// restart empties the file and the digest.
func (w *summed) restart() error {
	w.d = digester{}
	if _, err := w.f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	return w.f.Truncate(0)
}

// keepMode gives f, the new version of a file whose stamp is st, the old
// one's permission bits, and its owner and group where we may set them.
func keepMode(f *os.File, st stamp) error {
	if !st.exists {
		return nil
	}
	if err := f.Chmod(st.perm); err != nil {
		return err
	}
	if st.uid >= 0 && (st.uid != os.Geteuid() || st.gid != os.Getegid()) {
		if f.Chown(st.uid, st.gid) != nil {
			_ = f.Chown(-1, st.gid) // a group of ours; else the group stays ours
		}
	}
	return nil
}

// unchanged reports whether the file's stamp is still st.
func (s *fileStore) unchanged(st stamp) bool {
	now, err := s.stat()
	return err == nil && now == st
}

// beforeRename, when set (by the fault tests), runs just before a write's
// fence and rename.
var beforeRename func()

// beforeSplice, when set (by tests), runs just before a write copies
// items from the mapped file.
var beforeSplice func()

// dir is the directory holding the file, as an fsys name.
func (s *fileStore) dir() string {
	return filepath.FromSlash(path.Dir(filepath.ToSlash(s.name)))
}

// removeStaleTemps deletes what writers that died left behind: temporary
// files of this noggin (<file>.tmp-<pid>-<ms>, of dead pids or of this
// process, which is not writing one now) and temporary lock directories
// (<file>.lock.tmp-<pid>-<n>, of dead pids), and the <file>.previous an
// earlier build kept. Called under the lock.
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
		} else if rest, ok := strings.CutPrefix(n, base+historySuffix+".tmp-"); ok {
			pid = tempPid(rest)
		} else if rest, ok := strings.CutPrefix(n, base+".lock.tmp-"); ok {
			pid, isLock = tempPid(rest), true
		}
		if n == base+previousSuffix {
			p := filepath.Join(s.dir(), n)
			if fi, err := s.fsy.Stat(p); err == nil && fi.Mode().IsRegular() {
				_ = s.fsy.Remove(p)
			}
			continue
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

// History reads the noggin's journal (<file>.history).
func (s *fileStore) History(ctx context.Context) (noggin.Journal, error) {
	if err := noggin.Cancelled(ctx); err != nil {
		return noggin.Journal{}, err
	}
	return s.readHistory()
}

func (s *fileStore) readHistory() (noggin.Journal, error) {
	j, err := readJournal(s.fsy, s.name+historySuffix)
	if err != nil {
		return j, noggin.NewError(noggin.CodeHistoryUnavailable, noggin.F("detail", noggin.Wrap(s.writeErr(err)).Message))
	}
	return j, nil
}

// digestRaw is the digest of the file's bytes raw (nil: a missing file) in
// the scheme of like (see digestLike). When mapped, raw maps the file: a
// file that shrank under the mapping has no digest, and the pages hashed
// are dropped as it goes (see mmap.Drop).
func (s *fileStore) digestRaw(raw []byte, mapped bool, like string) (d string) {
	if !mapped {
		return digestLike(raw, like, nil)
	}
	mmap.Guard(func() { d = digestLike(raw, like, mmap.Drop) })
	return d
}
