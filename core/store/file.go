package store

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/noggin-go/noggin/core/internal/codec"
	"github.com/noggin-go/noggin/core/internal/mmap"
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
	perm   fs.FileMode // what a write keeps: permission bits, owner, group
	uid    int         // -1 where unknown
	gid    int
}

func stampOf(fi fs.FileInfo) stamp {
	st := stamp{exists: true, size: fi.Size(), mtime: fi.ModTime().UnixNano(), perm: fi.Mode().Perm()}
	st.ino, st.dev, st.ctime = sysStamp(fi)
	st.uid, st.gid = sysOwner(fi)
	return st
}

// filePerm is the mode for files made beside the noggin: no more readable
// than the noggin (st: its stamp), or 0666 less the umask for a new one.
func filePerm(st stamp) fs.FileMode {
	if !st.exists {
		return 0o666
	}
	return st.perm & 0o666
}

// fileStore is the file provider: one noggin file, its parsed document
// cached and re-read when the file changes. What a one-shot store and a
// long-lived one do differently is their fileMode (filemode.go).
type fileStore struct {
	location string // as supplied (Describe)
	abs      string // absolute file path (watching)
	shown    string // the file as messages and data.path name it
	name     string // the file's name for fsy
	base     string // directory relative names are shown against ("" = none)
	fsy      fsys
	jsonFile bool
	mode     fileMode // one-shot or long-lived (Options.MapFiles)
	// live is what only a long-lived store's writes use; shot is what only
	// a one-shot store sets (zero in a long-lived one).
	live     liveState
	journal  journalTail  // the history as this store last appended to it (under wmu)
	requests requestIndex // the request ids of the history (under wmu; see recorded)
	timeout  time.Duration
	observe  func(step string, d time.Duration) // Options.Observe
	poll     time.Duration

	wmu turn // serialises Update within the process

	mu     sync.Mutex // guards the fields below
	loaded bool
	doc    *noggin.Document
	shot   shotState
	st     stamp
	// digest is the history's digest (current scheme) of the file as doc
	// was read from or written as: always known in a long-lived store; ""
	// until worked out in a one-shot one.
	digest   string
	checked  time.Time // when st was last confirmed
	failSt   stamp     // stamp of the file that last failed to load
	failErr  error
	failAt   time.Time // when failErr was seen
	hub      hub
	stopPoll chan struct{}
	// scratch (guarded by mu) and wscratch (guarded by wmu) are the small
	// buffers the file is read through when it is compared with raw
	// (sameFile) or with a digest (fileHolds).
	scratch, wscratch []byte
}

// liveState is what a long-lived store keeps for its next write (under
// wmu).
type liveState struct {
	// items is where the items last written lie in the file.
	items codec.ItemCache
	// itemsDigest is the digest of what items last wrote ("" when that
	// write did not complete): only bytes with this digest are copied from.
	itemsDigest string
}

// shotState is what a one-shot store keeps of the version it read (under
// mu).
type shotState struct {
	// raw is the file's bytes as doc was read from them. (A long-lived
	// store keeps their digest, and maps the file when it needs them — see
	// fileHolds — so that a large noggin is not held in memory twice.)
	raw []byte
	// src places doc's items in raw, for a write that copies the
	// unchanged ones (nil when unknown).
	src *codec.Source
	// mapped: raw maps the file whose stamp is st.
	mapped bool
	// rawDoc: raw is not kept; the file holds exactly encode(doc) (this
	// store wrote it), which cachedRawLocked rebuilds when it is needed.
	rawDoc bool
	// lazy: doc comes from a lazy read (LoadLazy), or a write on one; it
	// is not indexed whole (its verb looks up a few items).
	lazy bool
}

// newFileStore builds the store of one file: abs is its absolute path,
// name the name fsy knows it by; shown is how messages and data.path name
// it and base the directory OS messages' relative names are joined to.
func newFileStore(location, abs, shown, name, base string, fsy fsys, o Options) *fileStore {
	s := &fileStore{
		location: location, abs: abs, shown: shown, name: name, base: base, fsy: fsy,
		jsonFile: strings.EqualFold(filepath.Ext(abs), ".json"), mode: longLived{},
		timeout: o.LockTimeout, poll: o.PollInterval, wmu: newTurn(), observe: o.Observe,
	}
	if o.MapFiles {
		s.mode = oneShot{}
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
	// A mapping shows the file's bytes as they are now, not as the document
	// was read from them: comparing it with the file proves nothing, so
	// the stamp alone decides, racy or not.
	if statErr == nil && s.loaded && st == s.st && (!strict || !s.racy() || s.shot.mapped) {
		return s.doc, nil
	}
	if statErr == nil && s.failErr != nil && st == s.failSt && s.failAt.UnixNano()-st.mtime >= int64(racyWindow) {
		return nil, s.failErr
	}
	if s.loaded && !s.shot.mapped && s.mode.unchanged(s) {
		s.st, s.checked = st, now
		s.failErr = nil
		return s.doc, nil
	}
	f, err := s.mode.load(s)
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
	s.shot.lazy = false
	s.replaceLocked(f.doc, f.raw, f.digest, st, now)
	s.shot.src, s.shot.mapped = f.src, f.mapped
	return f.doc, nil
}

// racy reports whether the cached stamp is too close to the file's mtime
// to prove that the file is unchanged.
func (s *fileStore) racy() bool {
	return s.st.exists && s.checked.UnixNano()-s.st.mtime < int64(racyWindow)
}

// replaceLocked installs a new cached document, read from raw (nil: a
// missing file) or written as bytes whose digest is digest ("": not known),
// and tells watchers what changed (only a non-empty diff is an event).
func (s *fileStore) replaceLocked(doc *noggin.Document, raw []byte, digest string, st stamp, now time.Time) {
	prev, had := s.doc, s.loaded
	raw, digest = s.mode.keep(raw, digest)
	s.doc, s.shot.raw, s.shot.rawDoc, s.st, s.checked, s.loaded = doc, raw, false, st, now, true
	s.digest, s.shot.src, s.shot.mapped = digest, nil, false
	s.setRevision(doc, digest)
	// Index the document now (reusing the key map CheckKeys built): verbs
	// find items and paths in O(1), and a write derives its result's
	// index from this one (see noggin.Index). A lazy read's document is
	// not indexed: its one verb looks up a few items (linear scans).
	if !s.shot.lazy {
		noggin.Index(doc)
	}
	if !had || !s.hub.active() {
		return
	}
	if ev, ok := noggin.WatchEvent(prev, doc); ok {
		s.hub.publish(ev)
	}
}

// cachedRawLocked returns the bytes of the file the cached document was
// read from (or written as), rebuilding them if only the document was kept
// (one-shot stores only; a long-lived one keeps their digest).
func (s *fileStore) cachedRawLocked() []byte {
	if s.shot.rawDoc {
		if decodeAll(s.doc) != nil { // a lazy read's items: the file is read again
			return nil
		}
		s.shot.raw, s.shot.rawDoc = s.encode(s.doc), false
	}
	return s.shot.raw
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

// loadedFile is the file as load read it.
type loadedFile struct {
	raw    []byte // nil for a missing file, and in a long-lived store
	doc    *noggin.Document
	src    *codec.Source // where doc's items lie in raw (one-shot processes; may be nil)
	mapped bool          // raw maps the file
	// digest is the digest of the file's bytes as read (long-lived stores
	// only; "" in one-shot ones, which keep raw).
	digest string
}

// loadDropping is load in a long-lived store: it maps the file, works out
// its digest, reads its document, dropping each page once read (see
// mmap.Drop), and unmaps it. The file's bytes never enter the heap: read
// there, a large noggin's first load would hold it twice, and the
// collector would let the heap grow to twice that before it ran. The
// digest comes first: a tool that rewrites the file in place while it is
// read leaves a file whose digest differs from this one, so the next look
// reads it again. ok is false when the file is missing, empty, not a
// regular file, cannot be mapped or shrinks while mapped: load then reads
// it.
func (s *fileStore) loadDropping() (f loadedFile, ok bool, err error) {
	file, oerr := s.fsy.Open(s.name)
	if oerr != nil {
		return f, false, nil
	}
	defer file.Close()
	fi, serr := file.Stat()
	if serr != nil || !fi.Mode().IsRegular() {
		return f, false, nil
	}
	m, mapped := mmap.Map(file, int(fi.Size()))
	if !mapped {
		return f, false, nil
	}
	defer mmap.Unmap(m)
	if afterMap != nil {
		afterMap()
	}
	if !mmap.Guard(func() { f.digest = digestLike(m, "", mmap.Drop) }) {
		return loadedFile{}, false, nil
	}
	if doc, ok := s.replay(f.digest); ok {
		f.doc = doc
		return f, true, nil
	}
	if f.doc, _, err = s.decode(m, true, false); errors.Is(err, codec.ErrCutShort) {
		return loadedFile{}, false, nil
	}
	return f, true, err
}

// afterMap, when set (by tests), runs in loadDropping once the file is
// mapped.
var afterMap func()

// refused maps an os.Root escape to location-refused.
func (s *fileStore) refused(err error) error {
	if !isEscape(err) {
		return nil
	}
	return refusedError(s.location, "path escapes the root directory")
}

// decode parses the file's bytes (see codec.Options: mapped, withSource).
// Load errors of the document get data.path; a mapped file cut short
// while it was read is codec.ErrCutShort.
func (s *fileStore) decode(raw []byte, mapped, withSource bool) (*noggin.Document, *codec.Source, error) {
	if raw == nil { // missing file
		return noggin.NewDocument(), nil, nil
	}
	doc, src, err := codec.Decode(raw, codec.Options{JSON: s.jsonFile, Mapped: mapped, Source: withSource})
	if err == nil {
		err = noggin.CheckKeys(doc)
	}
	if err != nil {
		var e *noggin.Error
		if errors.As(err, &e) && (e.Code == noggin.CodeInvalidDocument || e.Code == noggin.CodeUnsupportedSchema) {
			return nil, nil, e.With(noggin.F("path", s.shown))
		}
		return nil, nil, err
	}
	return doc, src, nil
}

func (s *fileStore) encode(doc *noggin.Document) []byte {
	if s.jsonFile {
		return codec.EncodeJSON(doc)
	}
	return codec.EncodeYAML(doc)
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

// setRevision names the revision of doc, which the store installs: digest
// when it is known (in the current scheme), else worked out when asked.
func (s *fileStore) setRevision(doc *noggin.Document, digest string) {
	doc.SetRevision(func() string {
		if digest != "" && sameScheme(digest, "") {
			return digest
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.doc != doc {
			return "" // the bytes it was read from are gone
		}
		return s.revisionLocked()
	})
}

// revisionLocked is the digest of the file as the cached document was read
// from or written as, in the history's current scheme ("": unknown).
func (s *fileStore) revisionLocked() string {
	if s.digest == "" || !sameScheme(s.digest, "") {
		d := s.mode.digestCached(s, "")
		if d == "" || !sameScheme(d, "") {
			return ""
		}
		s.digest = d
	}
	return s.digest
}
