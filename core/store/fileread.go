package store

// Reading a noggin file: mapped or read, and compared with the bytes the
// store last saw without reading it into fresh memory.

import (
	"bytes"
	"errors"
	"io"
	"runtime/debug"

	"github.com/noggin-go/noggin/core/noggin"
)

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
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		if fi.Size() != int64(len(want)) {
			return false
		}
		// Mapped, the page cache is compared where it is, without copying
		// it (a long-lived store compares a 4 MB noggin before every write).
		if b, ok := mapFile(f, len(want)); ok && !noMap {
			defer unmapFile(b)
			same := false
			return guard(func() { same = bytes.Equal(b, want) }) && same
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
				if errors.Is(err, io.EOF) {
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
