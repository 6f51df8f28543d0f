package store

// The history of a file noggin: <file>.history beside it, JSON lines, one
// entry per write, appended under the noggin's lock just before the rename
// and kept to the last noggin.MaxHistory entries. The journal is advisory
// for local writes: it is not fsynced, and any failure to read or write it
// leaves the write alone. A write with a request id (noggin.Receipt) is
// made only once its entry is on disk. A lost or damaged entry can only
// make undo refuse (undo-conflict or nothing-to-undo), never apply to the
// wrong state, because undo checks the digest of the noggin against the
// entry's.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/noggin-go/noggin/core/internal/codec"
	"github.com/noggin-go/noggin/core/noggin"
)

// historySuffix names the journal beside a noggin file.
const historySuffix = ".history"

// compactSlack is how far past noggin.MaxHistory lines a journal grows
// before it is rewritten to the last MaxHistory entries, so that most
// writes append instead of rewriting the journal.
const compactSlack = 100

// A digest fingerprints a noggin file's bytes, so that undo can tell
// whether the file is still what a write left: "crc:<length>:<crc32c><crc32>"
// — two checksums the processor computes (SSE4.2, PCLMULQDQ), far faster
// than sha256 (BenchmarkDigest), and 64 bits that an edit would have to
// match along with the length. It guards
// against mistakes, not against an adversary who can write the file
// anyway. Journals of earlier builds hold "sha256:<hex>" digests; they are
// compared in their own scheme (digestLike).

// castagnoli is built on first use: a process that writes nothing (show)
// does not pay for the table at start-up.
var castagnoli = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

// digester computes a digest while bytes stream through it.
type digester struct {
	c, i uint32
	n    int64
}

func (d *digester) Write(b []byte) (int, error) {
	d.c = crc32.Update(d.c, castagnoli(), b)
	d.i = crc32.Update(d.i, crc32.IEEETable, b)
	d.n += int64(len(b))
	return len(b), nil
}

// String is the digest of the bytes written so far.
func (d *digester) String() string {
	return fmt.Sprintf("crc:%d:%08x%08x", d.n, d.c, d.i)
}

// lengthAndCRC32 returns the length and the CRC-32 (IEEE) of the bytes
// whose current-scheme digest is d; ok is false for another scheme.
func lengthAndCRC32(d string) (n int64, sum uint32, ok bool) {
	rest, found := strings.CutPrefix(d, "crc:")
	lenText, sums, found2 := strings.Cut(rest, ":")
	if !found || !found2 || len(sums) != 16 {
		return 0, 0, false
	}
	n, err := strconv.ParseInt(lenText, 10, 64)
	v, err2 := strconv.ParseUint(sums[8:], 16, 32)
	if err != nil || err2 != nil || n < 0 {
		return 0, 0, false
	}
	return n, uint32(v), true
}

// digestOf is the digest of a noggin's bytes in the current scheme.
func digestOf(b []byte) string {
	var d digester
	_, _ = d.Write(b)
	return d.String()
}

// digestLike is the digest of b in the scheme of like ("" or a crc digest:
// the current scheme; a sha256 digest: sha256). done, when not nil, is
// given each step of b once it is hashed (see inSteps).
func digestLike(b []byte, like string, done func([]byte)) string {
	var d digester
	var w io.Writer = &d
	var sha hash.Hash
	if strings.HasPrefix(like, "sha256:") {
		sha = sha256.New()
		w = sha
	}
	inSteps(w, b, done)
	if sha != nil {
		return "sha256:" + hex.EncodeToString(sha.Sum(nil))
	}
	return d.String()
}

// inSteps writes b to w codec.ReleaseStep bytes at a time, and gives each
// step to done (when not nil) once it is written (see mmap.Drop).
func inSteps(w io.Writer, b []byte, done func([]byte)) {
	step := codec.ReleaseStep(len(b))
	for len(b) > 0 {
		n := min(len(b), step)
		_, _ = w.Write(b[:n])
		if done != nil {
			done(b[:n])
		}
		b = b[n:]
	}
}

// sameScheme reports whether digest d answers a request for like's scheme.
func sameScheme(d, like string) bool {
	return strings.HasPrefix(d, "sha256:") == strings.HasPrefix(like, "sha256:")
}

// readJournal reads and decodes a journal; a missing one is Missing.
func readJournal(fsy fsys, name string) (noggin.Journal, error) {
	data, err := fsy.ReadFile(name)
	if err != nil {
		if notExist(err) {
			return noggin.Journal{Missing: true}, nil
		}
		return noggin.Journal{}, err
	}
	return parseJournal(data), nil
}

// parseJournal decodes journal lines, skipping (and counting) those that do
// not decode; only the last MaxHistory entries are kept.
func parseJournal(data []byte) noggin.Journal {
	var j noggin.Journal
	for len(data) > 0 {
		line, rest, _ := bytes.Cut(data, []byte{'\n'})
		data = rest
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		e, err := codec.DecodeEntry(line)
		if err != nil {
			j.Unreadable++
			continue
		}
		j.Entries = append(j.Entries, e)
	}
	if n := len(j.Entries); n > noggin.MaxHistory {
		j.Entries = j.Entries[n-noggin.MaxHistory:]
	}
	return j
}

// lastSeq is the Seq of the last line of a journal that has one.
func lastSeq(data []byte) int {
	for len(data) > 0 {
		i := bytes.LastIndexByte(bytes.TrimRight(data, "\n"), '\n')
		line := bytes.TrimSpace(data[i+1:])
		data = data[:max(i, 0)]
		var head struct {
			Seq int `json:"seq"`
		}
		if json.Unmarshal(line, &head) == nil && head.Seq > 0 {
			return head.Seq
		}
		if i < 0 {
			break
		}
	}
	return 0
}

// lastAfter is the After digest of a journal's last entry ("" if none).
func lastAfter(data []byte) string {
	_, after := lastDigests(data)
	return after
}

// lastDigests are the Before and After digests of a journal's last line
// ("" if it is not an entry).
func lastDigests(data []byte) (before, after string) {
	data = bytes.TrimRight(data, "\n")
	line := data[bytes.LastIndexByte(data, '\n')+1:]
	var last struct {
		Before string `json:"before"`
		After  string `json:"after"`
	}
	if json.Unmarshal(line, &last) != nil {
		return "", ""
	}
	return last.Before, last.After
}

// dropLastEntry removes the journal's last line if it is the entry of a
// write from before to after (a write that failed after its entry was
// appended), and the journal if nothing is left.
func dropLastEntry(fsy fsys, name, before, after string) {
	ends, err := readJournalEnds(fsy, name)
	if err != nil || ends.torn {
		return
	}
	if b, a := lastDigests(ends.tail); b != before || a != after {
		return
	}
	body := bytes.TrimRight(ends.tail, "\n")
	cut := int64(len(ends.tail) - bytes.LastIndexByte(body, '\n') - 1)
	fi, err := fsy.Stat(name)
	if err != nil {
		return
	}
	if fi.Size() == cut {
		_ = fsy.Remove(name)
		return
	}
	if f, err := fsy.OpenFile(name, os.O_WRONLY, 0); err == nil {
		_ = f.Truncate(fi.Size() - cut)
		_ = f.Close()
	}
}

// requestIndex is the set of request ids a journal holds, as of the
// journal's stamp st: a server looks an id up without reading the journal
// while no other process wrote it (a full journal is megabytes).
type requestIndex struct {
	st  stamp
	ids map[string]bool
}

// requestKey starts a request id in a journal line (ids are plain,
// request.ValidID: no escapes).
var requestKey = []byte(`"request":"`)

// recorded is the answer of the journal's entry for r's request id (nil:
// none; see noggin.Recorded). digest is the noggin's digest.
func (s *fileStore) recorded(r *noggin.Receipt, digest func(like string) string) error {
	name := s.name + historySuffix
	fi, err := s.fsy.Stat(name)
	if err != nil {
		return nil
	}
	if st := stampOf(fi); s.requests.ids == nil || st != s.requests.st {
		data, err := s.fsy.ReadFile(name)
		if err != nil {
			return nil
		}
		s.requests = requestIndex{st: st, ids: map[string]bool{}}
		for rest := data; ; {
			i := bytes.Index(rest, requestKey)
			if i < 0 {
				break
			}
			rest = rest[i+len(requestKey):]
			if j := bytes.IndexByte(rest, '"'); j >= 0 {
				s.requests.ids[string(rest[:j])] = true
			}
		}
	}
	if !s.requests.ids[r.ID] {
		return nil
	}
	data, err := s.fsy.ReadFile(name)
	if err != nil {
		return nil
	}
	return noggin.Recorded(parseJournal(data).Entries, r, digest)
}

// appended keeps the index current over an append of this store that
// took the journal from stamp prev to now, adding the entry's request id
// (if any); an index that was not current before stays stale.
func (x *requestIndex) appended(prev, now stamp, id string) {
	if x.ids == nil || !prev.exists || !now.exists || x.st != prev {
		return
	}
	if id != "" {
		x.ids[id] = true
	}
	x.st = now
}

// journalTail is what a store remembers of the journal it last appended
// to: while the journal's stamp is the one seen after that append (no other
// process wrote it since), the next append needs no read of it.
type journalTail struct {
	st    stamp
	seq   int // the last entry's Seq
	lines int
}

// journalEnds is what a write needs of a journal, read without bringing
// the whole of it into memory (fresh memory costs a one-shot process
// time): its line count,
// whether its last line is torn (no final newline), and its tail, whole
// lines holding at least its last two.
type journalEnds struct {
	lines int
	torn  bool
	tail  []byte
	whole bool // tail is the whole journal
}

// journalChunk is the buffer readJournalEnds counts lines through, and the
// first size of tail it tries.
const journalChunk = 32 << 10

// readJournalEnds reads the ends of the journal name (a missing journal
// has none: zero lines).
func readJournalEnds(fsy fsys, name string) (journalEnds, error) {
	var e journalEnds
	f, err := fsy.Open(name)
	if err != nil {
		if notExist(err) {
			e.whole = true
			return e, nil
		}
		return e, err
	}
	defer f.Close()
	buf := make([]byte, journalChunk)
	var size int64
	for {
		n, err := f.Read(buf)
		if n > 0 {
			e.lines += bytes.Count(buf[:n], []byte{'\n'})
			e.torn = !bytes.HasSuffix(buf[:n], []byte{'\n'})
			size += int64(n)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return e, err
		}
	}
	e.tail, e.whole, err = readTail(f, size, buf)
	return e, err
}

// readTail reads the end of a journal of size bytes through buf: the
// whole journal (whole), or its last complete lines, two at least, from
// chunks of journalChunk bytes and then four times more.
func readTail(f io.ReaderAt, size int64, buf []byte) (tail []byte, whole bool, err error) {
	for chunk := int64(journalChunk); ; chunk *= 4 {
		off := max(0, size-chunk)
		if int64(len(buf)) < size-off {
			buf = make([]byte, size-off)
		}
		n, err := f.ReadAt(buf[:size-off], off)
		if err != nil && err != io.EOF {
			return nil, false, err
		}
		t := buf[:n]
		if off == 0 {
			return t, true, nil
		}
		// Drop the line the chunk starts inside; keep it if two lines remain.
		if i := bytes.IndexByte(t, '\n'); i >= 0 {
			body := t[i+1:]
			if bytes.IndexByte(bytes.TrimRight(body, "\n"), '\n') >= 0 {
				return body, false, nil
			}
		}
	}
}

// appendJournal numbers e after the journal's last entry and appends it;
// a journal past MaxHistory+compactSlack lines is rewritten (atomically) to
// its last MaxHistory entries. tail (may be nil) saves reading a journal
// that only this store wrote since; ends (may be nil) are the journal's
// ends, read under the same lock. Called under the noggin's lock.
//
// A last entry that is a phantom of e (its write died before it replaced
// the noggin, which is still as it was before: e.Before) is replaced by e.
// sync flushes the journal to disk before returning.
func appendJournal(fsy fsys, name string, e noggin.Entry, tail *journalTail, ends *journalEnds, perm fs.FileMode, sync bool) error {
	known := false
	if ends == nil && tail != nil && tail.st.exists {
		if fi, err := fsy.Stat(name); err == nil && stampOf(fi) == tail.st {
			known = true
		}
	}
	var seq, lines int
	torn, drop := false, false
	switch {
	case known:
		seq, lines = tail.seq, tail.lines
	default:
		if ends == nil {
			read, err := readJournalEnds(fsy, name)
			if err != nil {
				return err
			}
			ends = &read
		}
		seq, lines, torn = lastSeq(ends.tail), ends.lines, ends.torn
		if b, a := lastDigests(ends.tail); !torn && e.Before != "" && b == e.Before && a != e.Before {
			drop, seq = true, seq-1
		}
		if seq == 0 && !ends.whole { // no entry at the end: look further back
			data, err := fsy.ReadFile(name)
			if err != nil {
				return err
			}
			seq = lastSeq(data)
		}
	}
	e.Seq = seq + 1
	line := codec.EncodeEntry(e)
	err := writeJournal(fsy, name, torn, drop, lines, line, perm, sync)
	if tail != nil {
		*tail = journalTail{}
		if fi, serr := fsy.Stat(name); err == nil && serr == nil {
			*tail = journalTail{st: stampOf(fi), seq: e.Seq, lines: min(lines+1, noggin.MaxHistory+compactSlack)}
			if lines+1 > noggin.MaxHistory+compactSlack {
				tail.lines = noggin.MaxHistory
			}
		}
	}
	return err
}

// writeJournal appends line (after a newline when the journal ends in a
// torn line, which stays one bad line), or rewrites the journal to its
// last entries and line when it has grown past the bound.
// perm is the noggin's: the journal holds every note, and is made (or
// narrowed to) no more readable than it.
func writeJournal(fsy fsys, name string, torn, drop bool, lines int, line []byte, perm fs.FileMode, sync bool) error {
	if drop || lines+1 > noggin.MaxHistory+compactSlack {
		data, err := fsy.ReadFile(name)
		if err != nil {
			return err
		}
		keep := data
		if drop { // the last line
			keep = keep[:bytes.LastIndexByte(bytes.TrimRight(keep, "\n"), '\n')+1]
		}
		for n := bytes.Count(keep, []byte{'\n'}); n > noggin.MaxHistory-1; n-- {
			_, keep, _ = bytes.Cut(keep, []byte{'\n'})
		}
		if fi, err := fsy.Stat(name); err == nil {
			perm &= fi.Mode().Perm() // a history made narrower than the noggin stays so
		}
		tmp := name + ".tmp-" + strconv.Itoa(os.Getpid()) + "-" + strconv.FormatInt(time.Now().UnixMilli(), 10)
		f, err := fsy.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
		if err == nil {
			err = writeAndClose(f, append(append([]byte(nil), keep...), line...), sync)
		}
		if err != nil {
			_ = fsy.Remove(tmp)
			return err
		}
		return fsy.Rename(tmp, name)
	}
	f, err := fsy.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_APPEND, perm)
	if err != nil {
		return err
	}
	if fi, err := f.Stat(); err == nil && fi.Mode().Perm()&^perm != 0 {
		_ = f.Chmod(fi.Mode().Perm() & perm)
	}
	if torn {
		line = append([]byte{'\n'}, line...)
	}
	return writeAndClose(f, line, sync)
}

// writeAndClose writes b to f, flushes it to disk when sync, and closes it.
func writeAndClose(f *os.File, b []byte, sync bool) error {
	_, err := f.Write(b)
	if sync && err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// replayTail is how much of a journal's end a re-read looks at for the
// writes that led from the cached version to the file's (see replay).
const replayTail = 256 << 10

// replay is the cached document brought to the file's version digest by
// the ops of the journal's entries that lead there from the cached
// version — the writes of other noggin processes — instead of decoding the
// whole file; ok is false when the journal's last replayTail bytes do not
// hold that chain or its ops do not apply (the file is decoded then).
// Called with s.mu held.
func (s *fileStore) replay(digest string) (doc *noggin.Document, ok bool) {
	if !s.loaded || s.doc == nil || s.digest == "" || digest == s.digest || !sameScheme(s.digest, digest) {
		return nil, false
	}
	f, err := s.fsy.Open(s.name + historySuffix)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, false
	}
	off := max(0, fi.Size()-replayTail)
	tail := make([]byte, fi.Size()-off)
	if n, err := f.ReadAt(tail, off); err != nil && err != io.EOF || n != len(tail) {
		return nil, false
	}
	if off > 0 { // the first line is cut
		_, tail, _ = bytes.Cut(tail, []byte{'\n'})
	}
	var chain []noggin.Entry // newest first
	want := digest
	for len(tail) > 0 && want != s.digest {
		i := bytes.LastIndexByte(bytes.TrimRight(tail, "\n"), '\n')
		line := bytes.TrimSpace(tail[i+1:])
		tail = tail[:max(i, 0)]
		if len(line) == 0 {
			continue
		}
		e, err := codec.DecodeEntry(line)
		if err != nil || e.After != want {
			continue // a damaged line, or an entry of a write that died before its rename
		}
		if len(e.Ops) == 0 && e.Before != e.After {
			return nil, false // a line without its ops (written by hand)
		}
		chain = append(chain, e)
		want = e.Before
	}
	if want != s.digest || len(chain) == 0 {
		return nil, false
	}
	doc = s.doc
	for i := len(chain) - 1; i >= 0; i-- {
		if doc, err = noggin.Apply(doc, chain[i].Ops); err != nil {
			return nil, false
		}
	}
	return doc, true
}
