package codec

// The lazy read: a YAML noggin that this encoder wrote, read for its keys
// and parent keys only. The engine decodes an item when it first reads it
// (noggin.Undecoded), so a verb on a large noggin decodes the few items it
// reads, changes or shows instead of all of them, and its write copies the
// others' bytes.

import (
	"math"
	"strings"
	"unsafe"

	"github.com/noggin-go/noggin/core/noggin"
)

// decodeYAMLLazy reads data, a YAML noggin that this encoder wrote, leaving
// every item undecoded but for its key and parent key (see
// noggin.Undecoded), and returning the Source a write copies the items it
// did not change from (see writeYAMLFrom). The caller must know that this
// encoder wrote data (a store knows it from the file's digest): the read
// relies on its layout — entries at column 2 ("  - "), fields at column 4,
// everything else deeper — and checks nothing else (no key is checked for
// duplicates). ok is false for data of another layout, or of 4 GiB or
// more; read it with DecodeYAML.
//
// The items decode from data later, so data must not change while the
// document lives. guard runs each later decode and reports false if it
// faulted on data (a mapped file cut short under the reader); the decode
// then fails with changed, as it does if the bytes no longer hold the item
// (the file rewritten in place).
//
// release, when not nil, is told of stretches of data the read has passed
// (see decodeYAMLSource).
func decodeYAMLLazy(data []byte, release func(from, to int), guard func(func()) bool, changed error) (doc *noggin.Document, src *Source, ok bool) {
	if len(data) >= math.MaxUint32 { // the Source's spans are 32-bit
		return nil, nil, false
	}
	spans := &spanList{}
	if doc, ok = decodeLazySpans(data, parallelMin, spans, release, guard, changed); !ok {
		return nil, nil, false
	}
	return doc, &Source{raw: data, items: doc.Items, spans: spans, release: release}, true
}

// decodeLazy is decodeYAMLLazy without a Source, reading items lists of
// splitMin bytes or more in two halves at once.
func decodeLazy(data []byte, splitMin int, release func(from, to int), guard func(func()) bool, changed error) (doc *noggin.Document, ok bool) {
	return decodeLazySpans(data, splitMin, nil, release, guard, changed)
}

// decodeLazySpans is decodeLazy, also recording in *spans (when not nil)
// where each item lies in data, as decodeYAMLSource does.
func decodeLazySpans(data []byte, splitMin int, spans *spanList, release func(from, to int), guard func(func()) bool, changed error) (doc *noggin.Document, ok bool) {
	if len(data) == 0 || data[len(data)-1] != '\n' {
		return nil, false
	}
	src := &lazySource{data: data, guard: guard, changed: changed}
	p := &fastParser{ //nolint:gosec // data does not change while the document lives (see above)
		s: unsafe.String(unsafe.SliceData(data), len(data)), chunk: 64 << 10, splitMin: splitMin, spans: spans, release: release, step: ReleaseStep(len(data)),
		lazy: src}
	if doc = p.document(); p.bad {
		return nil, false
	}
	doc.SetUndecodable(src.undecodable)
	return doc, true
}

// lazySource is the file a lazy read left its items in.
type lazySource struct {
	data    []byte
	guard   func(func()) bool
	changed error
	// failed is set when an item could not be decoded (the document's
	// Undecodable); items are decoded by one goroutine at a time.
	failed bool
}

// undecodable is the document's Undecodable: changed once an item could
// not be decoded.
func (s *lazySource) undecodable() error {
	if s.failed {
		return s.changed
	}
	return nil
}

// lazyItem is where an undecoded item lies in its source: from the start
// of its entry line to the start of the next entry (or the list's end).
type lazyItem struct {
	src        *lazySource
	start, end int
}

// Decode reads the item whose entry lies at b (noggin.Undecoded).
func (b *lazyItem) Decode(it *noggin.Item) error {
	var got *noggin.Item
	if !b.src.guard(func() { got = decodeEntry(b.src.data[:b.end], b.start) }) || got == nil ||
		got.Key != it.Key || got.ParentKey != it.ParentKey {
		b.src.failed = true
		return b.src.changed
	}
	*it = *got
	return nil
}

// decodeEntry decodes the one item whose entry starts at start and ends
// data: with the fast reader, or else the general parser (nil if neither
// reads it).
func decodeEntry(data []byte, start int) *noggin.Item {
	if it, ok := decodeEntryFast(data, start); ok {
		return it
	}
	text := append([]byte("schemaVersion: 1\nactive: null\nitems:\n"), data[start:]...)
	doc, err := decodeYAMLSlow(text)
	if err != nil || len(doc.Items) != 1 {
		return nil
	}
	return doc.Items[0]
}

// decodeEntryFast is decodeEntry with the fast reader only.
func decodeEntryFast(data []byte, start int) (it *noggin.Item, ok bool) {
	p := &fastParser{ //nolint:gosec // read here only
		s: unsafe.String(unsafe.SliceData(data), len(data)), pos: start, chunk: len(data) - start + 16}
	items := p.itemsFrom(2, 4)
	if p.bad || len(items) != 1 || p.pos < len(data) {
		return nil, false
	}
	return items[0], true
}

// entryKeysAsWritten sets the key and parent key of it, the entry at
// start (s[start:stop] holds it), if the entry is as this encoder writes a
// noggin's own keys: "  - key: K" and "    parentKey: P" (or null) on its
// first two lines, K and P plain words (see simpleKey). It returns the end
// of the parentKey line (its '\n'), or start and false for another entry,
// for entryKeys.
func (p *fastParser) entryKeysAsWritten(it *noggin.Item, start, stop int) (after int, ok bool) {
	const keyLine, parentLine = "  - key: ", "\n    parentKey: "
	s := p.s[start:stop]
	if !strings.HasPrefix(s, keyLine) {
		return start, false
	}
	nl := strings.IndexByte(s, '\n')
	if nl < 0 || !strings.HasPrefix(s[nl:], parentLine) {
		return start, false
	}
	key := s[len(keyLine):nl]
	rest := s[nl+len(parentLine):]
	nl2 := strings.IndexByte(rest, '\n')
	if nl2 < 0 || !simpleKey(key) {
		return start, false
	}
	parent := rest[:nl2]
	if parent != "null" && !simpleKey(parent) {
		return start, false
	}
	p.inKey = true
	it.Key = p.keep(key)
	switch {
	case parent == "null":
	case parent == p.lastParent: // a sibling of the entry before
		it.ParentKey = p.lastParent
	case parent == p.lastKey: // a child of the entry before
		it.ParentKey = p.lastKey
	default:
		it.ParentKey = p.keep(parent)
	}
	p.inKey = false
	p.lastKey, p.lastParent = it.Key, it.ParentKey
	return start + nl + len(parentLine) + nl2, true
}

// simpleKey reports whether the plain scalar v reads as the string v: more
// than five letters, digits, '-' and '_' (so no null or boolean word),
// starting with a letter (so no number).
func simpleKey(v string) bool {
	if len(v) <= 5 || keyBytes[v[0]] != keyLetter {
		return false
	}
	for i := 1; i < len(v); i++ {
		if keyBytes[v[i]] == 0 {
			return false
		}
	}
	return true
}

// keyBytes classes the bytes of a simpleKey: keyLetter, keyOther (digits,
// '-', '_'), or 0.
var keyBytes = func() (t [256]byte) {
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = keyLetter, keyLetter
	}
	for _, c := range "0123456789-_" {
		t[c] = keyOther
	}
	return t
}()

const (
	keyLetter = 1 + iota
	keyOther
)

// lazyEntry is the entry line of this encoder's items lists.
const lazyEntry = "\n  - "

// lazyItems reads the items list that starts at p.pos, an entry line,
// leaving each item undecoded but for its key and parent key. A large
// list is read in two halves at once, split at an entry line past the
// middle (see itemsInTwo).
func (p *fastParser) lazyItems() []*noggin.Item {
	s := p.s
	if !strings.HasPrefix(s[p.pos:], lazyEntry[1:]) {
		p.fail()
		return nil
	}
	split := p.splitPoint(lazyEntry)
	if split < 0 {
		items, _ := p.lazyItemsTo(len(s))
		return items
	}
	q := &fastParser{s: s, pos: split, chunk: p.chunk, release: p.release, released: split, step: p.step, lazy: p.lazy}
	return p.inTwo(q, func() ([]*noggin.Item, bool) { return p.lazyItemsTo(split) },
		func() []*noggin.Item { items, _ := q.lazyItemsTo(len(s)); return items })
}

// lazyItemsTo reads entries from p.pos up to stop (an entry line, or the
// end of s); ended reports that the list ended first.
func (p *fastParser) lazyItemsTo(stop int) (items []*noggin.Item, ended bool) {
	s := p.s
	// Items and their bodies in growing chunks: a fresh process pays for
	// every page it touches. The list is built once, at its exact size.
	var slab []noggin.Item
	var bodies []lazyItem
	var full [][]noggin.Item // the slabs before slab
	collect := func() []*noggin.Item { return pointers(full, slab) }
	for start := p.pos; start < stop; {
		if len(slab) == cap(slab) {
			if slab != nil {
				full = append(full, slab)
			}
			slab = make([]noggin.Item, 0, chunk(cap(slab)))
			bodies = make([]lazyItem, 0, cap(slab))
		}
		slab = append(slab, noggin.Item{})
		it := &slab[len(slab)-1]
		// The entry's key lines, read first as this encoder writes them,
		// are not searched again for the next entry.
		from, written := p.entryKeysAsWritten(it, start, stop)
		end := entryEnd(s, from, stop)
		if !written {
			if p.entryKeys(it, start, end); p.bad {
				return nil, true
			}
		}
		bodies = append(bodies, lazyItem{src: p.lazy, start: start, end: end})
		if p.spans != nil { // the entry after "  - ", without its last '\n'
			p.spans.add(start + len(lazyEntry) - 1)
			p.spans.end(end - 1)
		}
		it.LeaveUndecoded(&bodies[len(bodies)-1])
		p.pos = end
		p.releaseBehind()
		if end == len(s) || !strings.HasPrefix(s[end:], lazyEntry[1:]) {
			p.releaseAll()
			return collect(), true
		}
		start = end
	}
	p.releaseAll()
	return collect(), false
}

// releaseAll releases all the reader has passed: a lazy read leaves
// nothing it needs in memory (its later decodes read the file again).
func (p *fastParser) releaseAll() {
	if p.release != nil && p.pos > p.released {
		p.release(p.released, p.pos)
		p.released = p.pos
	}
}

// entryEnd is where the entry that holds s[from] ends: at the next line
// in s[from:stop] that is an entry line or starts at column 0 (a top-level
// field after the list, whose value may hold "  - " lines too), else at
// stop.
func entryEnd(s string, from, stop int) int {
	for i := from; ; {
		nl := strings.IndexByte(s[i:stop], '\n')
		if nl < 0 {
			return stop
		}
		i += nl + 1
		if i == stop || s[i] != ' ' && s[i] != '\n' || strings.HasPrefix(s[i:stop], lazyEntry[1:]) {
			return i
		}
	}
}

// entryKeys sets the key and parent key of it from the fields of the
// entry s[start:end] at column 4 (the first on the entry line).
func (p *fastParser) entryKeys(it *noggin.Item, start, end int) {
	const fi = 4
	seen := 0
	for pos := start; pos < end && seen != 1<<iKey|1<<iParentKey; {
		nl := strings.IndexByte(p.s[pos:end], '\n')
		if nl < 0 {
			p.fail()
			return
		}
		line := p.s[pos : pos+nl]
		p.pos = pos + nl + 1
		pos = p.pos
		if pos-nl-1 != start && (len(line) <= fi || p.spaces(line) != fi || line[fi] == '-') {
			if p.bad {
				return
			}
			continue // deeper: a field's value
		}
		name, rest := p.splitField(line, fi)
		if p.bad {
			return
		}
		var f int
		switch name {
		case fKey:
			f = iKey
		case fParentKey:
			f = iParentKey
		default:
			continue
		}
		if seen&(1<<f) != 0 {
			p.fail()
			return
		}
		seen |= 1 << f
		p.inKey = true
		k, v := p.scalar(rest, fi)
		p.inKey = false
		if p.bad {
			return
		}
		pos = p.pos // past a value over several lines
		if f == iKey {
			it.Key = kindKey(k, v)
		} else {
			it.ParentKey = kindKey(k, v)
		}
	}
}
