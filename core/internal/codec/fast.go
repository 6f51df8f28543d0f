package codec

import (
	"runtime/debug"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/noggin-go/noggin/core/jstext"
	"github.com/noggin-go/noggin/core/noggin"
)

// The fast reader parses the layout EncodeYAML writes (and common
// hand-written variants: other sequence indentations, plain/quoted/block
// scalars in any of the core fields, any field order, legacy fields, blank
// lines and full-line comments between entries, trailing comments after
// plain scalars) and builds the Document directly. It gives up (ok=false)
// on anything else — flow collections other than [], anchors, tags,
// unknown fields, multi-line quoted or plain scalars, tabs, CRLF, unusual
// characters, duplicate or missing required fields — and the general
// parser then decides, errors included. For every input it accepts it
// returns exactly what the general path returns.

func decodeRune(b []byte) (rune, int) { return utf8.DecodeRune(b) }

type fastParser struct {
	// s is the input, viewed without copying for the duration of the call.
	// No substring of s may end up in the Document: every string value is
	// copied into the arena (or built there), so the result never refers
	// to the caller's buffer.
	s   string
	pos int // start of the next unread line
	// bad is set when the input must go to the general parser (see fail).
	bad bool
	// cache of the last peeked line
	cachePos, cacheEnd int
	// arena holds the bytes of all string values; it is only appended to
	// (a full chunk is replaced by a new one), so bytes behind a string
	// already handed out are never written again.
	arena []byte
	chunk int
	// keys is a second arena for keys and parent keys (while inKey is
	// set): packed together, the key index that follows the read hashes
	// them from a few hot cache lines instead of one cold line each.
	keys  []byte
	inKey bool
	// blines is scratch space for block scalars
	blines []bline
	// splitMin is parallelMin (tests lower it).
	splitMin int
	// spans, when non-nil, receives where each item lies in s (see
	// Source), in the order of the items.
	spans *spanList
	// release, when non-nil, is told of the stretches of s this reader
	// has passed (see decodeYAMLSource); released is where the next one
	// starts.
	release  func(from, to int)
	released int
	// step is ReleaseStep of the whole input (the halves of a large
	// items list read less of it each).
	step int
	// lazy, when non-nil, makes the items list a lazy read's (see
	// decodeYAMLLazy); lastKey and lastParent are the keys of its entry
	// before, which the next entry's parent key shares when it can.
	lazy                *lazySource
	lastKey, lastParent string
}

type bline struct {
	content string // "" for an empty line
}

// reserve makes room for n more arena bytes.
func (p *fastParser) reserve(n int) {
	if cap(p.arena)-len(p.arena) < n {
		p.arena = make([]byte, 0, max(p.chunk, n))
	}
}

// since returns the arena bytes written since st as a string.
func (p *fastParser) since(st int) string {
	if len(p.arena) == st {
		return ""
	}
	return unsafe.String(&p.arena[st], len(p.arena)-st) //nolint:gosec // the arena is append-only: bytes once written never change
}

// keep copies v into the arena.
func (p *fastParser) keep(v string) string {
	if v == "" {
		return ""
	}
	if p.inKey {
		if cap(p.keys)-len(p.keys) < len(v) {
			p.keys = make([]byte, 0, max(p.chunk/8, len(v)))
		}
		st := len(p.keys)
		p.keys = append(p.keys, v...)
		return unsafe.String(&p.keys[st], len(v)) //nolint:gosec // append-only, as the arena
	}
	p.reserve(len(v))
	st := len(p.arena)
	p.arena = append(p.arena, v...)
	return p.since(st)
}

// chunk returns the next allocation size of a growing slab.
func chunk(prev int) int { return min(max(16, 2*prev), 4096) }

// fail abandons the fast path: the entry point reports ok false (the
// input goes to the general parser). It moves to the end of the input, so
// that every loop of the reader ends; each function returns at once after
// a failure of its own or of a function it called.
func (p *fastParser) fail() {
	p.bad = true
	p.pos = len(p.s)
}

// peek returns the next line (without its '\n').
func (p *fastParser) peek() (string, bool) {
	if p.pos >= len(p.s) {
		return "", false
	}
	if p.cachePos == p.pos && p.cacheEnd > p.pos {
		return p.s[p.pos:p.cacheEnd], true
	}
	e := strings.IndexByte(p.s[p.pos:], '\n')
	if e < 0 {
		p.fail() // input not ending in a newline
		return "", false
	}
	p.cachePos, p.cacheEnd = p.pos, p.pos+e
	return p.s[p.pos : p.pos+e], true
}

func (p *fastParser) advance(line string) { p.pos += len(line) + 1 }

// skipIgnorable skips blank lines and full-line comments between entries
// (never inside block scalars, which read their lines themselves).
func (p *fastParser) skipIgnorable() {
	for {
		line, ok := p.peek()
		if !ok {
			return
		}
		i := 0
		for i < len(line) && line[i] == ' ' {
			i++
		}
		if i < len(line) && line[i] != '#' {
			if line[i] == '\t' {
				p.fail()
			}
			return
		}
		if i < len(line) && !p.checkText(line[i:], true) {
			return
		}
		p.advance(line)
	}
}

// spaces is the indentation of line; a tab in it fails.
func (p *fastParser) spaces(line string) int {
	i := 0
	for i < len(line) && line[i] == ' ' {
		i++
	}
	if i < len(line) && line[i] == '\t' {
		p.fail()
	}
	return i
}

// decodeFastSplit is the purpose-built reader, reading items lists of
// splitMin bytes or more in two halves at once; ok is false when the
// input must go to the general parser.
func decodeFastSplit(data []byte, splitMin int) (doc *noggin.Document, ok bool) {
	return decodeFastSpans(data, splitMin, nil)
}

// decodeFastSpans is decodeFastSplit, also recording in *spans (when not
// nil) where each item lies in data.
func decodeFastSpans(data []byte, splitMin int, spans *spanList) (doc *noggin.Document, ok bool) {
	return decodeFastReleasing(data, splitMin, spans, nil)
}

// decodeFastReleasing is decodeFastSpans, telling release (when not nil)
// of the stretches of data it has passed.
func decodeFastReleasing(data []byte, splitMin int, spans *spanList, release func(from, to int)) (doc *noggin.Document, ok bool) {
	if len(data) == 0 || data[len(data)-1] != '\n' {
		return nil, false
	}
	p := &fastParser{ //nolint:gosec // data is never modified while the document lives (a read-only mapping or a buffer owned by the store)
		s: unsafe.String(unsafe.SliceData(data), len(data)), chunk: min(len(data)+16, max(len(data)/8, 64<<10), 1<<20), splitMin: splitMin, spans: spans, release: release, step: ReleaseStep(len(data))}
	doc = p.document()
	return doc, !p.bad
}

const (
	seenSchema = 1 << iota
	seenActive
	seenItems
	seenCursors
)

func (p *fastParser) document() *noggin.Document {
	doc := &noggin.Document{}
	var seen int
	var order [4]string
	n := 0
	for {
		p.skipIgnorable()
		line, ok := p.peek()
		if !ok {
			break
		}
		p.advance(line)
		var bit int
		var name string
		switch {
		case strings.HasPrefix(line, "schemaVersion:"):
			if line != "schemaVersion: 1" {
				p.fail()
				return nil
			}
			bit, name = seenSchema, fSchemaVersion
		case strings.HasPrefix(line, "active:"):
			rest := line[len("active:"):]
			if rest != "" && rest[0] != ' ' {
				p.fail()
				return nil
			}
			k, v := p.scalar(rest, 0)
			doc.Active = kindKey(k, v)
			bit, name = seenActive, fActive
		case strings.HasPrefix(line, "items:"):
			switch line[len("items:"):] {
			case " []":
				doc.Items = []*noggin.Item{}
			case "":
				if p.lazy != nil {
					doc.Items = p.lazyItems()
				} else {
					doc.Items = p.items()
				}
			default:
				p.fail()
				return nil
			}
			bit, name = seenItems, fItems
		case line == noggin.CursorsField+":":
			m := p.cursors()
			if m == nil {
				p.fail()
				return nil
			}
			doc.Extra = []noggin.Field{{Name: noggin.CursorsField, Value: m}}
			bit, name = seenCursors, noggin.CursorsField
		default:
			p.fail()
			return nil
		}
		if p.bad || seen&bit != 0 {
			p.fail()
			return nil
		}
		seen |= bit
		order[n] = name
		n++
	}
	if p.bad || seen&^seenCursors != seenSchema|seenActive|seenItems {
		p.fail()
		return nil
	}
	if order != [4]string{fSchemaVersion, fActive, fItems} {
		doc.Order = append([]string(nil), order[:n]...)
	}
	return doc
}

// cursors reads the entries of the agents' cursors mapping (after its
// "cursors:" line): "  NAME: KEY" or "  NAME: null", NAME an agent name
// that YAML reads as a string. Anything else is nil: the full reader
// reads it.
func (p *fastParser) cursors() noggin.Map {
	var m noggin.Map
	for {
		line, ok := p.peek()
		if !ok || !strings.HasPrefix(line, "  ") || len(line) > 2 && line[2] == ' ' {
			return m
		}
		name, rest, found := strings.Cut(line[2:], ":")
		if k, _ := classifyPlain(name); !found || !noggin.ValidAgent(name) || k != kString {
			return nil
		}
		p.advance(line)
		k, v := p.scalar(rest, 2)
		switch {
		case p.bad:
			return nil
		case k == kString: // copies: the document outlives the file's bytes
			m = append(m, noggin.Field{Name: strings.Clone(name), Value: strings.Clone(v)})
		case k == kNull && rest != "":
			m = append(m, noggin.Field{Name: strings.Clone(name), Value: nil})
		default:
			return nil
		}
	}
}

// Item field identifiers (bit positions for duplicate detection).
const (
	iKey = iota
	iParentKey
	iTitle
	iDone
	iCreatedAt
	iNotes
	iClosedAt
	iPushedAt
)

var itemFieldNames = [...]string{fKey, fParentKey, fTitle, fDone, fCreatedAt, fNotes, fClosedAt, fPushedAt}

// fieldID is the identifier of an item field's name; another name fails.
func (p *fastParser) fieldID(name string) int {
	switch name {
	case fKey:
		return iKey
	case fParentKey:
		return iParentKey
	case fTitle:
		return iTitle
	case fDone:
		return iDone
	case fCreatedAt:
		return iCreatedAt
	case fNotes:
		return iNotes
	case fClosedAt:
		return iClosedAt
	case fPushedAt:
		return iPushedAt
	}
	p.fail()
	return 0
}

// splitField splits "name: rest" / "name:" at column col of line.
func (p *fastParser) splitField(line string, col int) (name, rest string) {
	t := line[col:]
	c := strings.IndexByte(t, ':')
	if c <= 0 {
		p.fail()
		return "", ""
	}
	name, rest = t[:c], t[c+1:]
	if rest != "" && rest[0] != ' ' {
		p.fail()
		return "", ""
	}
	return name, rest
}

type itemState struct {
	it    *noggin.Item
	seen  int
	order [8]int8
	n     int
}

func (p *fastParser) items() []*noggin.Item {
	p.skipIgnorable()
	line, ok := p.peek()
	if !ok {
		p.fail()
		return nil
	}
	si := p.spaces(line)
	if p.bad || !strings.HasPrefix(line[si:], "- ") {
		p.fail()
		return nil
	}
	fi := si + 2
	if items, ok := p.itemsInTwo(si, fi); ok {
		return items
	}
	return p.itemsFrom(si, fi)
}

// parallelMin is the size of the rest of the input from which the items
// are read in two halves at once (the second on another goroutine).
const parallelMin = 1 << 20

// itemsInTwo reads a large items list in two halves at once: it splits the
// input at an entry line ("- " at the entries' indentation) past the
// middle, reads the first half here and the second on another goroutine.
// Such a line can only start an item (block scalars and notes are indented
// deeper, and this reader takes no multi-line quoted scalars), so both
// halves read exactly what one pass reads. ok is false when the input is
// small or has no such line; when the items end before the split, the
// first half is the whole list.
func (p *fastParser) itemsInTwo(si, fi int) (items []*noggin.Item, ok bool) {
	split := p.splitPoint("\n" + strings.Repeat(" ", si) + "- ")
	if split < 0 {
		return nil, false
	}
	q := &fastParser{s: p.s, pos: split, chunk: p.chunk, splitMin: p.splitMin, release: p.release, released: split, step: p.step}
	full := p.s
	return p.inTwo(q, func() ([]*noggin.Item, bool) {
		p.s, p.cachePos, p.cacheEnd = full[:split], 0, 0
		first := p.itemsFrom(si, fi)
		p.s, p.cachePos, p.cacheEnd = full, 0, 0
		return first, p.pos != split // the list ended before the split
	}, func() []*noggin.Item { return q.itemsFrom(si, fi) }), true
}

// splitPoint is where a large items list (the rest of the input from p.pos,
// splitMin bytes or more) is split in two: the first entry line past its
// middle (entry is "\n" and the line's start); -1 for no split.
func (p *fastParser) splitPoint(entry string) int {
	rest := len(p.s) - p.pos
	if rest < p.splitMin {
		return -1
	}
	i := strings.Index(p.s[p.pos+rest/2:], entry)
	if i < 0 {
		return -1
	}
	return p.pos + rest/2 + i + 1
}

// inTwo reads the two halves of an items list at once: first here, on p,
// returning its items and whether the list ended before the split; second
// on another goroutine, on q (which starts at the split). It returns the
// whole list: first's items, then second's unless first ended the list.
//
// The input may map a file (see decodeYAMLSource) that another process
// truncates: the second half faults as the caller chose for its own
// goroutine (a panic it may recover, or a crash), and its panic is
// rethrown here. inTwo never returns, or bails, while the second half is
// still reading.
func (p *fastParser) inTwo(q *fastParser, first func() (items []*noggin.Item, ended bool), second func() []*noggin.Item) []*noggin.Item {
	if p.spans != nil {
		q.spans = &spanList{}
	}
	type half struct {
		items []*noggin.Item
		fault any // a panic of the second half (a fault), rethrown here
	}
	done := make(chan half, 1)
	onFault := debug.SetPanicOnFault(true)
	debug.SetPanicOnFault(onFault)
	go func() {
		var h half
		defer func() {
			h.fault = recover()
			done <- h
		}()
		debug.SetPanicOnFault(onFault)
		h.items = second()
	}()
	var h half
	waited := false
	wait := func() {
		if !waited {
			h, waited = <-done, true
		}
	}
	defer wait() // never leave the second half reading
	items, ended := first()
	if ended || p.bad {
		return items
	}
	wait()
	if h.fault != nil {
		panic(h.fault) //nolint:forbidigo // a fault on the mapping in the second half, raised in the first's goroutine (see guard)
	}
	if q.bad {
		p.fail()
		return nil
	}
	p.pos = q.pos
	if p.spans != nil {
		p.spans.addList(q.spans)
	}
	return append(items[:len(items):len(items)], h.items...)
}

// itemsFrom reads the entries of an items list whose entries are at
// column si and their fields at column fi.
func (p *fastParser) itemsFrom(si, fi int) []*noggin.Item {
	// Items, createdAt strings and notes are allocated in growing chunks.
	var slab []noggin.Item
	var full [][]noggin.Item // the slabs before slab
	var created []string
	var notesSlab []noggin.Note
	var st itemState
	finish := func() {
		if st.it == nil {
			return
		}
		if st.seen&(1<<iNotes) == 0 {
			p.fail()
			return
		}
		if !isDefaultItemOrder(&st) {
			order := make([]string, 0, st.n)
			for _, f := range st.order[:st.n] {
				order = append(order, itemFieldNames[f])
			}
			st.it.Foreign = &noggin.Foreign{Order: order}
		}
	}
	// Every slab entry is an item, in order: the result is built once, at
	// its exact size (a fresh process pays for every page it touches).
	collect := func() []*noggin.Item {
		finish()
		return pointers(full, slab)
	}
	for {
		p.skipIgnorable()
		line, ok := p.peek()
		if !ok {
			break
		}
		sp := p.spaces(line)
		if p.bad {
			return nil
		}
		isEntry := strings.HasPrefix(line[sp:], "- ")
		switch {
		case sp == si && isEntry:
			if finish(); p.bad {
				return nil
			}
			p.releaseBehind()
			if len(slab) == cap(slab) {
				if slab != nil {
					full = append(full, slab)
				}
				slab = make([]noggin.Item, 0, chunk(cap(slab)))
			}
			slab = append(slab, noggin.Item{})
			st = itemState{it: &slab[len(slab)-1]}
			if p.spans != nil {
				p.spans.add(p.pos + fi)
			}
			p.advance(line)
			p.itemField(&st, line, fi, &notesSlab, &created)
			p.spanEnd()
		case sp == fi && !isEntry && st.it != nil:
			p.advance(line)
			p.itemField(&st, line, fi, &notesSlab, &created)
			p.spanEnd()
		case sp < si || (sp == 0 && !isEntry):
			return collect()
		default:
			p.fail()
		}
		if p.bad {
			return nil
		}
	}
	return collect()
}

// pointers lists the items of the slabs full, then slab, in order, in a
// slice of its exact size.
func pointers(full [][]noggin.Item, slab []noggin.Item) []*noggin.Item {
	n := len(slab)
	for _, sl := range full {
		n += len(sl)
	}
	items := make([]*noggin.Item, 0, n)
	for _, sl := range append(full, slab) {
		for i := range sl {
			items = append(items, &sl[i])
		}
	}
	return items
}

// ReleaseStep is how far a pass over a mapped file of n bytes (a reader, a
// write copying from a Source, a store's digest) gets past the last
// stretch it released before it releases the next one: a sixteenth of the
// file, between 64 kB and 1 MB, so that at most that much of a file it
// passed stays in memory.
func ReleaseStep(n int) int { return min(max(n/16, 64<<10), 1<<20) }

// releaseBehind releases what the reader has passed, once that is
// ReleaseStep or more.
func (p *fastParser) releaseBehind() {
	if p.release != nil && p.pos-p.released >= p.step {
		p.release(p.released, p.pos)
		p.released = p.pos
	}
}

// spanEnd ends the current item's span after the lines read so far.
func (p *fastParser) spanEnd() {
	if p.spans != nil {
		p.spans.end(p.pos - 1)
	}
}

func isDefaultItemOrder(st *itemState) bool {
	if st.it.CreatedAt != nil {
		return st.n == 6 && st.order == [8]int8{iKey, iParentKey, iTitle, iDone, iCreatedAt, iNotes}
	}
	return st.n == 5 && st.order == [8]int8{iKey, iParentKey, iTitle, iDone, iNotes}
}

func (p *fastParser) itemField(st *itemState, line string, fi int, notesSlab *[]noggin.Note, created *[]string) {
	name, rest := p.splitField(line, fi)
	if p.bad {
		return
	}
	f := p.fieldID(name)
	if p.bad || st.seen&(1<<f) != 0 {
		p.fail()
		return
	}
	st.seen |= 1 << f
	if f != iClosedAt && f != iPushedAt {
		st.order[st.n] = int8(f)
		st.n++
	}
	it := st.it
	if f == iNotes {
		switch rest {
		case " []":
			it.Notes = make([]noggin.Note, 0) // zero-size: no allocation
		case "":
			it.Notes = p.notes(fi, notesSlab)
		default:
			p.fail()
		}
		return
	}
	p.inKey = f == iKey || f == iParentKey
	k, v := p.scalar(rest, fi)
	p.inKey = false
	if p.bad {
		return
	}
	switch f {
	case iKey:
		it.Key = kindKey(k, v)
	case iParentKey:
		it.ParentKey = kindKey(k, v)
	case iTitle:
		it.Title = kindKey(k, v)
	case iDone:
		it.Done = kindTruthy(k, v)
	case iCreatedAt:
		if k == kNull {
			it.CreatedAt = nil
		} else {
			if len(*created) == cap(*created) {
				*created = make([]string, 0, chunk(cap(*created)))
			}
			*created = append(*created, kindString(k, v))
			it.CreatedAt = &(*created)[len(*created)-1]
		}
	}
}

// notes parses a notes sequence below an item field at column fi. The
// notes of all items share one backing array (each item's slice is capped,
// so appending to it copies).
func (p *fastParser) notes(fi int, slab *[]noggin.Note) []noggin.Note {
	p.skipIgnorable()
	line, ok := p.peek()
	if !ok {
		p.fail()
		return nil
	}
	ni := p.spaces(line)
	if p.bad || ni < fi || !strings.HasPrefix(line[ni:], "- ") {
		p.fail()
		return nil
	}
	nf := ni + 2
	start := len(*slab)
	seen := -1 // -1: no note open; else bit set of fields seen
	for {
		p.skipIgnorable()
		line, ok := p.peek()
		if !ok {
			break
		}
		sp := p.spaces(line)
		if p.bad {
			return nil
		}
		isEntry := strings.HasPrefix(line[sp:], "- ")
		var fieldLine bool
		switch {
		case sp == ni && isEntry:
			if seen >= 0 && seen&2 == 0 {
				p.fail() // previous note without text
				return nil
			}
			if len(*slab) == cap(*slab) {
				// chunk full: move this item's notes to a fresh chunk
				cur := (*slab)[start:]
				*slab = make([]noggin.Note, len(cur), max(chunk(cap(*slab)), 2*len(cur)))
				copy(*slab, cur)
				start = 0
			}
			*slab = append(*slab, noggin.Note{})
			seen = 0
			fieldLine = true
		case sp == nf && !isEntry && seen >= 0:
			fieldLine = true
		case sp < ni || (sp == fi && !isEntry):
			// end of the notes
		default:
			p.fail()
			return nil
		}
		if !fieldLine {
			break
		}
		p.advance(line)
		name, rest := p.splitField(line, nf)
		var bit int
		switch name {
		case fTimestamp:
			bit = 1
		case fText:
			bit = 2
		}
		if bit == 0 || seen&bit != 0 {
			p.fail()
			return nil
		}
		seen |= bit
		k, v := p.scalar(rest, nf)
		if p.bad {
			return nil
		}
		n := &(*slab)[len(*slab)-1]
		if bit == 1 {
			if kindTruthy(k, v) {
				n.Timestamp = kindString(k, v)
			}
		} else {
			n.Text = kindString(k, v)
		}
	}
	if seen < 0 || seen&2 == 0 {
		p.fail()
		return nil
	}
	return (*slab)[start:len(*slab):len(*slab)]
}

func kindString(k int, v string) string {
	switch k {
	case kNull:
		return "null"
	case kTrue:
		return "true"
	case kFalse:
		return "false"
	case kNumber:
		if v == "-0" {
			return "0"
		}
	}
	return v
}

func kindKey(k int, v string) string {
	if k == kNull {
		return ""
	}
	return kindString(k, v)
}

func kindTruthy(k int, v string) bool {
	switch k {
	case kString:
		return v != ""
	case kTrue:
		return true
	case kNumber:
		return v != "0" && v != "-0" && v != "NaN"
	}
	return false
}

// ---- scalars ----

// scalar parses the value after "name:" (rest is "" or starts with a
// space) of a mapping whose keys are at column n.
func (p *fastParser) scalar(rest string, n int) (int, string) {
	if rest == "" {
		// null, unless a more-indented block follows: the caller's
		// structure check rejects any such line.
		return kNull, ""
	}
	v := rest[1:]
	if v == "" {
		p.fail()
		return kNull, ""
	}
	switch v[0] {
	case '\'':
		return kString, p.singleQuoted(v)
	case '"':
		return kString, p.doubleQuoted(v)
	case '|', '>':
		return kString, p.block(v, n)
	case ' ', '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '%', '@', '`':
		p.fail()
		return kNull, ""
	}
	v, ok := p.plain(v)
	if !ok {
		return kNull, ""
	}
	k, t := classifyPlain(v)
	if k == kString {
		t = p.keep(t)
	}
	return k, t
}

// plainClass: 0 ordinary, 1 needs a look ('#', ':'), 2 give up (or a
// non-ASCII character to check).
var plainClass = func() (t [256]uint8) {
	for i := range t {
		switch {
		case i == '#' || i == ':':
			t[i] = 1
		case i < 0x20 || i == 0x7F || i >= 0x80:
			t[i] = 2
		}
	}
	return
}()

// plain validates a one-line plain scalar and strips trailing spaces and a
// trailing comment.
func (p *fastParser) plain(v string) (string, bool) {
	i := 0
	for i+8 <= len(v) && !plainSpecial(load64(v, i)) {
		i += 8
	}
	for ; i < len(v); i++ {
		switch plainClass[v[i]] {
		case 0:
			continue
		case 1:
			switch v[i] {
			case ':':
				if i+1 == len(v) || v[i+1] == ' ' {
					p.fail()
					return "", false
				}
			case '#':
				if v[i-1] == ' ' {
					// comment
					t := strings.TrimRight(v[:i], " ")
					if !p.checkText(v[i:], true) || t == "" {
						p.fail()
						return "", false
					}
					return t, true
				}
			}
		default:
			size := 0
			if v[i] >= 0x80 {
				size = p.checkRune(v[i:])
			}
			if size == 0 {
				p.fail()
				return "", false
			}
			i += size - 1
		}
	}
	t := strings.TrimRight(v, " ")
	if t == "" {
		p.fail()
		return "", false
	}
	return t, true
}

// The fast paths of plain and checkText look at eight bytes at once (SWAR):
// a word with no byte that needs a look is skipped whole.
const (
	lows  = 0x0101010101010101
	highs = 0x8080808080808080
)

// load64 reads s[i:i+8] as a little-endian word.
func load64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// hasZero reports whether a byte of x is zero; hasLess whether a byte is
// below n (n <= 0x80) among bytes below 0x80.
func hasZero(x uint64) bool     { return (x-lows)&^x&highs != 0 }
func hasLess(x, n uint64) bool  { return (x-lows*n)&^x&highs != 0 }
func textSpecial(x uint64) bool { return x&highs != 0 || hasLess(x, 0x20) || hasZero(x^(lows*0x7F)) }
func plainSpecial(x uint64) bool {
	return textSpecial(x) || hasZero(x^(lows*':')) || hasZero(x^(lows*'#'))
}

// checkRune validates the non-ASCII UTF-8 sequence at the start of s and
// returns its length, or fails and returns 0. Characters that YAML parsers
// disagree on (line separators, NEL, BOM, C1 controls, non-characters)
// make the fast path give up.
func (p *fastParser) checkRune(s string) int {
	r, size := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError && size <= 1 ||
		r <= 0x9F || r == 0x2028 || r == 0x2029 || r == 0xFEFF || r == 0xFFFE || r == 0xFFFF {
		p.fail()
		return 0
	}
	return size
}

// checkText validates quoted or block scalar text (tabs allowed when
// tabs is set); false: it failed.
func (p *fastParser) checkText(s string, tabs bool) bool {
	i := 0
	for i+8 <= len(s) && !textSpecial(load64(s, i)) {
		i += 8
	}
	for ; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c < 0x7F {
			continue
		}
		if c == '\t' && tabs {
			continue
		}
		size := 0
		if c >= 0x80 {
			size = p.checkRune(s[i:])
		}
		if size == 0 {
			p.fail()
			return false
		}
		i += size - 1
	}
	return true
}

func (p *fastParser) singleQuoted(v string) string {
	i := 1
	escaped := false
	for {
		j := strings.IndexByte(v[i:], '\'')
		if j < 0 {
			p.fail() // multi-line
			return ""
		}
		i += j
		if i+1 < len(v) && v[i+1] == '\'' {
			escaped = true
			i += 2
			continue
		}
		break
	}
	body := v[1:i]
	if i != len(v)-1 || !p.checkText(body, false) {
		p.fail()
		return ""
	}
	if !escaped {
		return p.keep(body)
	}
	p.reserve(len(body))
	st := len(p.arena)
	for k := 0; k < len(body); k++ {
		p.arena = append(p.arena, body[k])
		if body[k] == '\'' {
			k++ // skip the doubling quote
		}
	}
	return p.since(st)
}

func hexVal(s string) (rune, bool) {
	var r rune
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

func (p *fastParser) doubleQuoted(v string) string { //nolint:gocyclo // one scanner over the escapes of js-yaml's double-quoted scalar
	// fast case: no escapes
	j := strings.IndexAny(v[1:], "\"\\")
	if j < 0 {
		p.fail()
		return ""
	}
	if v[1+j] == '"' {
		body := v[1 : 1+j]
		if 1+j != len(v)-1 || !p.checkText(body, false) {
			p.fail()
			return ""
		}
		return p.keep(body)
	}
	p.reserve(len(v) + len(v)/2) // \L and \P grow by one byte
	st := len(p.arena)
	b := p.arena
	i := 1
	for {
		if i >= len(v) {
			p.fail()
			return ""
		}
		c := v[i]
		if c == '"' {
			if i != len(v)-1 {
				p.fail()
				return ""
			}
			break
		}
		if c != '\\' {
			st := i
			for i < len(v) && v[i] != '"' && v[i] != '\\' {
				i++
			}
			if !p.checkText(v[st:i], false) {
				return ""
			}
			b = append(b, v[st:i]...)
			continue
		}
		if i+1 >= len(v) {
			p.fail()
			return ""
		}
		e := v[i+1]
		i += 2
		var r rune
		switch e {
		case '0':
			r = 0
		case 'a':
			r = 7
		case 'b':
			r = 8
		case 't', '\t':
			r = 9
		case 'n':
			r = 10
		case 'v':
			r = 11
		case 'f':
			r = 12
		case 'r':
			r = 13
		case 'e':
			r = 0x1B
		case ' ':
			r = ' '
		case '"':
			r = '"'
		case '\\':
			r = '\\'
		case 'N':
			r = 0x85
		case '_':
			r = 0xA0
		case 'L':
			r = 0x2028
		case 'P':
			r = 0x2029
		case 'x', 'u', 'U':
			n := 2
			if e == 'u' {
				n = 4
			} else if e == 'U' {
				n = 8
			}
			var ok bool
			if i+n <= len(v) {
				r, ok = hexVal(v[i : i+n])
			}
			if !ok || r > 0x10FFFF {
				p.fail()
				return ""
			}
			i += n
		default:
			p.fail()
			return ""
		}
		if len(b)-st >= 3 { // a pair of escapes joins, within this scalar
			b = jstext.AppendUnit(b, r)
		} else {
			b = jstext.AppendRune(b, r) // a lone surrogate is kept (WTF-8)
		}
	}
	p.arena = b
	return p.since(st)
}

// block parses a literal (|) or folded (>) block scalar whose header is h,
// for a mapping with keys at column n, following js-yaml's readBlockScalar.
// The first pass finds and validates the lines, the second writes the value
// into the arena.
func (p *fastParser) block(h string, n int) string { //nolint:gocyclo // js-yaml's readBlockScalar, step for step
	folding := h[0] == '>'
	const (
		clip = iota
		strip
		keep
	)
	chomp := clip
	indicator := 0
	for _, c := range []byte(h[1:]) {
		switch {
		case c == '-' && chomp == clip:
			chomp = strip
		case c == '+' && chomp == clip:
			chomp = keep
		case c >= '1' && c <= '9' && indicator == 0:
			indicator = int(c - '0')
		default:
			p.fail()
			return ""
		}
	}
	ci := -1
	maxLead := 0
	if indicator > 0 {
		ci = n + indicator
	}
	lines := p.blines[:0]
	size, content := 1, 0
	for {
		line, ok := p.peek()
		if !ok {
			break
		}
		sp := 0
		for sp < len(line) && line[sp] == ' ' {
			sp++
		}
		if sp == len(line) { // spaces only
			if ci < 0 {
				maxLead = max(maxLead, sp)
				lines = append(lines, bline{})
				size++
				p.advance(line)
				continue
			}
			if sp <= ci {
				lines = append(lines, bline{})
				size++
				p.advance(line)
				continue
			}
		}
		if ci < 0 {
			if sp <= n || maxLead > sp { // an empty block scalar; a leading blank line too long
				p.fail()
				return ""
			}
			ci = sp
		}
		if sp < ci {
			break // end of the scalar
		}
		p.advance(line)
		c := line[ci:]
		if !p.checkText(c, !folding) {
			return ""
		}
		lines = append(lines, bline{content: c})
		size += len(c) + 1
		content++
	}
	p.blines = lines
	if p.bad || content == 0 {
		p.fail()
		return ""
	}
	p.reserve(size)
	st := len(p.arena)
	b := p.arena
	emptyLines := 0
	didRead := false
	atMoreIndented := false
	for _, l := range lines {
		if l.content == "" {
			emptyLines++
			continue
		}
		c := l.content
		if folding {
			switch {
			case c[0] == ' ' || c[0] == '\t':
				atMoreIndented = true
				k := emptyLines
				if didRead {
					k++
				}
				b = appendNL(b, k)
			case atMoreIndented:
				atMoreIndented = false
				b = appendNL(b, emptyLines+1)
			case emptyLines == 0:
				if didRead {
					b = append(b, ' ')
				}
			default:
				b = appendNL(b, emptyLines)
			}
		} else {
			k := emptyLines
			if didRead {
				k++
			}
			b = appendNL(b, k)
		}
		b = append(b, c...)
		didRead = true
		emptyLines = 0
	}
	switch chomp {
	case keep:
		b = appendNL(b, emptyLines+1)
	case clip:
		b = append(b, '\n')
	}
	p.arena = b
	return p.since(st)
}

func appendNL(b []byte, k int) []byte {
	for ; k > 0; k-- {
		b = append(b, '\n')
	}
	return b
}
