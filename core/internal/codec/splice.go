package codec

// Splicing: writing a document that differs from the one a YAML file holds
// by copying the bytes of its unchanged items from the file instead of
// encoding them again.

import (
	"io"
	"math"

	"github.com/noggin-go/noggin/core/noggin"
)

// span is where an item lies in a file: its entry from just after "- " to
// the end of its last line (without the "\n"). Files of 4 GiB or more get
// no Source.
type span struct{ start, end uint32 }

// spanList holds spans in chunks of spanChunk, so that it grows without
// copying (a fresh process pays for every page it touches).
type spanList struct {
	chunks [][]span
	n      int
}

const spanChunk = 1024

// add starts the span of the next item at start.
func (l *spanList) add(start int) {
	if l.n%spanChunk == 0 {
		l.chunks = append(l.chunks, make([]span, 0, spanChunk))
	}
	c := &l.chunks[len(l.chunks)-1]
	*c = append(*c, span{start: uint32(start)}) // files under 4 GiB (see decodeYAMLSource)
	l.n++
}

// end ends the last span at end.
func (l *spanList) end(end int) {
	c := l.chunks[len(l.chunks)-1]
	c[len(c)-1].end = uint32(end)
}

// at is the span of item i.
func (l *spanList) at(i int) span { return l.chunks[i/spanChunk][i%spanChunk] }

// addList appends the spans of o.
func (l *spanList) addList(o *spanList) {
	for i := range o.n {
		sp := o.at(i)
		l.add(int(sp.start))
		l.end(int(sp.end))
	}
}

// Source is a YAML noggin file as decodeYAMLSource read it: its bytes, the
// document they hold and where each of the document's items lies in them.
type Source struct {
	raw    []byte
	items  []*noggin.Item
	spans  *spanList
	index  map[*noggin.Item]int // built once find has missed mapMisses times
	misses int
	next   int // the item expected next, in file order
	// release (may be nil) is told of the stretches of raw the writes
	// have copied from; released is where the next one starts.
	release  func(from, to int)
	released int
}

// decodeYAMLSource is DecodeYAML, also returning the Source of data when
// the fast reader read it (nil otherwise). The Source refers to data, which
// must not change while it is used.
//
// release, when not nil, is told of stretches data[from:to] that the
// reader has read, about a megabyte at a time (the two halves of a large
// items list each in order, from two goroutines at once), and so are the
// Source's writes of what they have copied: a caller whose data maps a
// file can drop those pages from its memory, so that a large noggin is
// not held twice, mapped and decoded. Dropping must keep the bytes (a
// file's pages are mapped in again when touched): the reader does not go
// back over what it released, except when a list it read in two halves
// ends before the second one starts, and a write copies what it needs.
func decodeYAMLSource(data []byte, release func(from, to int)) (*noggin.Document, *Source, error) {
	if isBlank(data) {
		return noggin.NewDocument(), nil, nil
	}
	spans := &spanList{}
	if len(data) >= math.MaxUint32 {
		spans = nil
	}
	if doc, ok := decodeFastReleasing(data, parallelMin, spans, release); ok {
		if spans == nil || spans.n != len(doc.Items) {
			return doc, nil, nil
		}
		return doc, &Source{raw: data, items: doc.Items, spans: spans, release: release}, nil
	}
	doc, err := decodeYAMLSlow(data)
	return doc, nil, err
}

// writeYAMLFrom streams EncodeYAML(doc) to w like writeYAML, copying the
// bytes of every item doc shares with the source document (the same
// *Item: documents are never modified, and Apply keeps unchanged items)
// from the source's file instead of encoding it.
//
// The result is EncodeYAML(doc) only if the source's file is exactly
// EncodeYAML of its document, which the caller must know (for example from
// a digest of what this encoder last wrote): the bytes of a file written
// by hand or by another tool would be copied as they are.
func writeYAMLFrom(w io.Writer, doc *noggin.Document, src *Source) error {
	return stream(w, func(b []byte, flush func([]byte) []byte) []byte {
		return append(appendYAMLDoc(b, doc, flush, src), '\n')
	})
}

// Len is the length of the source's file.
func (s *Source) Len() int { return len(s.raw) }

// appendRun writes the entries of list's first items from b on, after
// b's "\n  - " (see itemSource): as many of them as follow one another in
// the file as they do in list (a run, whose bytes are copied in one
// piece), or else the first item alone, encoded.
func (s *Source) appendRun(b []byte, list []*noggin.Item, flush func([]byte) []byte) ([]byte, int) {
	b, _, n := s.copyRun(b, list, flush)
	return b, n
}

// copyRun is appendRun, also returning the index in the source of the
// run's first item (-1 for an item it encoded).
//
// A run of flushSize bytes or more goes from the file to flush directly,
// a ReleaseStep at a time, instead of through the buffer: the bytes are
// copied once, by the kernel, instead of twice, and the items of a run
// are not looked up one by one (BenchmarkWriteYAMLFrom).
func (s *Source) copyRun(b []byte, list []*noggin.Item, flush func([]byte) []byte) (_ []byte, first, n int) {
	first, ok := s.find(list[0])
	if !ok {
		return appendItem(b, list[0]), -1, 1
	}
	sp := s.spans.at(first)
	start, end := int(sp.start), int(sp.end)
	for n = 1; n < len(list) && first+n < len(s.items) && s.items[first+n] == list[n]; n++ {
		next := s.spans.at(first + n)
		// Entries next to each other in this encoder's file: "\n  - " between
		// them. (Reading those bytes here would fault in the whole file
		// before the copy drops any of it.)
		if int(next.start) != end+len(lazyEntry) {
			break
		}
		end = int(next.end)
	}
	s.next = first + n
	step := ReleaseStep(len(s.raw))
	if flush == nil || end-start < flushSize {
		b = append(b, s.raw[start:end]...)
		s.passed(end, step)
		return b, first, n
	}
	b = flush(b)
	for from := start; from < end; from += step {
		to := min(from+step, end)
		flush(s.raw[from:to]) // hands back s.raw[from:from], not b
		s.passed(to, step)
	}
	return b, first, n
}

// passed tells release that the writes have copied the file up to to,
// once that is step bytes or more past what it was last told.
func (s *Source) passed(to, step int) {
	if s.release != nil && to-s.released >= step {
		s.release(s.released, to)
		s.released = to
	}
}

// find returns the index of it among the source's items. Writes keep the
// items' order, so it is almost always the next one, or the one after (an
// item changed in place). Items not found there are mostly new (encoded
// anyway); only after mapMisses of them, or for an item a lazy read left
// undecoded, is a map of all the source's items built, once, so that moved
// items are found too.
func (s *Source) find(it *noggin.Item) (int, bool) {
	for i := s.next; i < min(s.next+2, len(s.items)); i++ {
		if s.items[i] == it {
			return i, true
		}
	}
	if s.index == nil {
		// An undecoded item is always in the source: look it up at once.
		if s.misses++; s.misses < mapMisses && !it.Undecoded() {
			return 0, false
		}
		s.index = make(map[*noggin.Item]int, len(s.items))
		for i, x := range s.items {
			s.index[x] = i
		}
	}
	i, ok := s.index[it]
	return i, ok
}

// mapMisses is how many items find looks for in order only.
const mapMisses = 32
