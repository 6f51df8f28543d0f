package store

// Reading a noggin file: mapped or read, and compared with the bytes the
// store last saw (or with their digest) without reading it into fresh
// memory.

import (
	"bytes"
	"errors"
	"hash/crc32"
	"io"

	"github.com/noggin-go/noggin/core/internal/mmap"
	"github.com/noggin-go/noggin/core/noggin"
)

// sameFile reports whether the file holds exactly want (a missing file
// counts as empty, as bytes.Equal(nil, empty) does), for a one-shot store,
// which has the bytes. It reads the file through the small buffer
// *scratch (allocated on first use) instead of a document-sized one: a
// fresh process pays for every page it touches. Any failure is false; the
// caller then reads the file and sees the failure.
func (s *fileStore) sameFile(want []byte, scratch *[]byte) (same bool) {
	// want may map a file that shrank since: a fault means "differs".
	mmap.Guard(func() { same = s.compareFile(want, scratch) })
	return same
}

// fileHolds reports whether the file's bytes are those whose digest is
// want (the current scheme; a missing file counts as empty). With keep, it
// also returns them when they are: mapped (mapped reports it; the caller
// unmaps them) or else read. It reads through the small buffer *scratch
// when it cannot map the file and need not keep it. Any failure, and a
// file that shrinks while it is read, is false.
//
// It compares the length and the CRC-32 half of the digest, the cheaper
// one to work out (a third of CRC-32C's time on this project's machine):
// this runs under the lock before every write of a long-lived store, to
// catch what a stamp cannot (a rewrite in place within the same clock
// tick), and misses such a change with odds of one in 2^32.
func (s *fileStore) fileHolds(want string, keep bool, scratch *[]byte) (b []byte, mapped, same bool) {
	size, sum, ok := lengthAndCRC32(want)
	if !ok {
		return nil, false, false
	}
	f, err := s.fsy.Open(s.name)
	if err != nil {
		return nil, false, notExist(err) && size == 0
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() != size {
		return nil, false, false
	}
	if m, ok := mmap.Map(f, int(size)); ok && !noMap {
		same := false
		if !mmap.Guard(func() { same = crc32Dropping(m) == sum }) || !same || !keep {
			mmap.Unmap(m)
			return nil, false, same
		}
		return m, true, true
	}
	h := crc32.NewIEEE()
	if keep {
		if b, err = io.ReadAll(f); err != nil {
			return nil, false, false
		}
		_, _ = h.Write(b)
		return b, false, int64(len(b)) == size && h.Sum32() == sum
	}
	if *scratch == nil {
		*scratch = make([]byte, 32<<10)
	}
	n, err := io.CopyBuffer(h, f, *scratch)
	return nil, false, err == nil && n == size && h.Sum32() == sum
}

// crc32Dropping is the CRC-32 (IEEE) of m, a mapping of the file, worked
// out a step at a time, each dropped from memory once read (see inSteps
// and mmap.Drop): a long-lived store checks a large noggin before every
// write without holding all of it. The caller runs it under guard (a file
// cut short under the mapping faults). (A one-shot process's lazy read
// checks the file as it scans it instead: see codec.Options.CRC32.)
func crc32Dropping(m []byte) uint32 {
	h := crc32.NewIEEE()
	inSteps(h, m, mmap.Drop)
	return h.Sum32()
}

// digestFile is the digest, in the scheme of like, of the bytes whose
// current-scheme digest is d: d itself, or worked out from the file while
// it still holds those bytes ("" once it does not). It reads the file
// through *scratch when it cannot map it.
func (s *fileStore) digestFile(d, like string, scratch *[]byte) string {
	if sameScheme(d, like) {
		return d
	}
	b, mapped, same := s.fileHolds(d, true, scratch)
	if mapped {
		defer mmap.Unmap(b)
	}
	out := "" // stays "" if the file shrinks under the mapping
	if same {
		var done func([]byte) // never drop pages of the heap
		if mapped {
			done = mmap.Drop
		}
		mmap.Guard(func() { out = digestLike(b, like, done) })
	}
	return out
}

// compareFile is sameFile without the fault guard.
func (s *fileStore) compareFile(want []byte, scratch *[]byte) bool {
	f, err := s.fsy.Open(s.name)
	if err != nil {
		return notExist(err) && len(want) == 0
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		if fi.Size() != int64(len(want)) {
			return false
		}
		// Mapped, the page cache is compared where it is, without copying
		// it (a long-lived store compares a 4 MB noggin before every write).
		if b, ok := mmap.Map(f, len(want)); ok && !noMap {
			defer mmap.Unmap(b)
			same := false
			return mmap.Guard(func() { same = bytes.Equal(b, want) }) && same
		}
	}
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

// noMap makes compareFile read (BenchmarkSameFile).
var noMap bool

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
			if b, ok := mmap.Map(f, size); ok {
				return b, true, nil
			}
		}
		if buf, err = readAll(f, size); err == nil {
			return buf, false, nil
		}
	}
	if notExist(err) {
		return nil, false, nil
	}
	if e := s.refused(err); e != nil {
		return nil, false, e
	}
	return nil, false, s.readError(osMessage(err, s.base))
}

// readAll reads r to its end into a buffer sized for a file of size bytes
// (a little more, in case it grew).
func readAll(r io.Reader, size int) ([]byte, error) {
	buf := make([]byte, 0, size+size/8+512)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if errors.Is(err, io.EOF) {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

// readError is the io error of a file that cannot be read (exit 2, data
// {path, detail}).
func (s *fileStore) readError(detail string) error {
	return noggin.Errorf(noggin.CodeIO, "failed to read file: %s", detail).
		With(noggin.F("path", s.shown), noggin.F("detail", detail))
}
