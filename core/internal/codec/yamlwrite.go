package codec

import (
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/noggin-go/noggin/core/jstext"
	"github.com/noggin-go/noggin/core/noggin"
)

// The writer reproduces js-yaml 4.1 dump(doc, {lineWidth: 100}) for the
// values a noggin document holds. Levels follow js-yaml: the root mapping
// is level 0, a mapping value or sequence element is one level deeper than
// its container, a block at level L is indented 2L spaces, and a scalar at
// level L has block-scalar indentation 2·max(1,L) and line width
// max(40, 100 − 2·max(1,L)).

const lineWidthOption = 100

func nl(b []byte, level int) []byte {
	b = append(b, '\n')
	for i := 0; i < level; i++ {
		b = append(b, ' ', ' ')
	}
	return b
}

// flushSize is the buffer size at which streaming writers hand the text to
// their io.Writer (between items).
const flushSize = 64 << 10

// itemSource gives the bytes of items that may have been encoded before
// (a Source, or an ItemCache's recorder).
type itemSource interface {
	// appendRun appends the entries of list's first items, after b's
	// "\n  - ", and returns the buffer to continue with and how many items
	// it wrote (one at least). flush (may be nil) is as appendYAMLDoc's.
	appendRun(b []byte, list []*noggin.Item, flush func([]byte) []byte) ([]byte, int)
}

// appendYAMLDoc writes doc (without the final newline). A non-nil flush is
// called between items once the buffer holds flushSize bytes and returns
// the buffer to continue with. items (may be nil) supplies items' bytes.
func appendYAMLDoc(b []byte, doc *noggin.Document, flush func([]byte) []byte, items itemSource) []byte {
	for i, name := range docOrder(doc) {
		if i > 0 {
			b = nl(b, 0)
		}
		switch name {
		case fSchemaVersion, fActive, fItems:
			b = append(b, name...)
		}
		switch name {
		case fSchemaVersion:
			b = append(b, ": 1"...)
		case fActive:
			b = append(b, ':', ' ')
			if doc.Active == "" {
				b = append(b, "null"...)
			} else {
				b = appendScalar(b, doc.Active, 1, false)
			}
		case fItems:
			if len(doc.Items) == 0 {
				b = append(b, ": []"...)
				continue
			}
			b = append(b, ':')
			if flush != nil && items == nil && len(doc.Items) >= parallelItems {
				b = appendItemsInParallel(b, doc.Items, flush)
				continue
			}
			for k := 0; k < len(doc.Items); {
				b = append(b, "\n  - "...)
				n := 1
				if items != nil { // unchanged items in runs
					b, n = items.appendRun(b, doc.Items[k:], flush)
				} else {
					b = appendItem(b, doc.Items[k])
				}
				k += n
				if flush != nil && len(b) >= flushSize {
					b = flush(b)
				}
			}
		default:
			v, _ := getField(doc.Extra, name)
			b = appendPair(b, name, v, 0)
		}
	}
	return b
}

// parallelItems is the number of items from which a streaming writer
// encodes them on two goroutines (blockItems at a time, alternately) while
// the caller writes the blocks in order: the encoding of an item depends on
// the item alone, so the bytes are those of one pass, and at most a few
// blocks wait in memory.
const (
	parallelItems = 4096
	blockItems    = 256
)

// appendItemsInParallel writes the items list's entries after b, handing
// full blocks to flush, and returns the buffer to continue with.
func appendItemsInParallel(b []byte, list []*noggin.Item, flush func([]byte) []byte) []byte {
	b = flush(b)
	blocks := (len(list) + blockItems - 1) / blockItems
	const workers = 2
	// The buffers go round: a worker takes one, fills it with a block, the
	// writer writes it and gives it back. Five are enough that neither
	// worker ever waits for one the other holds, and all the memory the
	// list needs beyond them.
	free := make(chan []byte, 2*workers+1)
	for range cap(free) {
		free <- nil
	}
	var out [workers]chan []byte
	stop := make(chan struct{})
	for w := range workers {
		out[w] = make(chan []byte, 2)
		go func() {
			for k := w; k < blocks; k += workers {
				var buf []byte
				select {
				case buf = <-free:
				case <-stop:
					return
				}
				for _, it := range list[k*blockItems : min((k+1)*blockItems, len(list))] {
					buf = append(buf, "\n  - "...)
					buf = appendItem(buf, it)
				}
				select {
				case out[w] <- buf:
				case <-stop:
					return
				}
			}
		}()
	}
	defer close(stop) // a panic below must not leave the workers blocked
	for k := range blocks {
		free <- flush(<-out[k%workers])
	}
	return b
}

// appendItem writes an item mapping at level 2 in compact form (the first
// field follows "- ").
func appendItem(b []byte, it *noggin.Item) []byte {
	if it.Undecoded() {
		panic("codec: an item a lazy read left undecoded reached the encoder") //nolint:forbidigo // a broken invariant: writes copy undecoded items' bytes
	}
	if !it.HasForeignFields() {
		return appendDefaultItem(b, it)
	}
	order := itemOrder(it)
	if len(order) == 0 {
		return append(b, "{}"...)
	}
	for i, name := range order {
		if i > 0 {
			b = append(b, "\n    "...)
		}
		switch name {
		case fKey:
			b = append(b, "key: "...)
			b = appendScalar(b, it.Key, 3, false)
		case fParentKey:
			b = append(b, "parentKey: "...)
			if it.ParentKey == "" {
				b = append(b, "null"...)
			} else {
				b = appendScalar(b, it.ParentKey, 3, false)
			}
		case fTitle:
			b = append(b, "title: "...)
			b = appendScalar(b, it.Title, 3, false)
		case fDone:
			if it.Done {
				b = append(b, "done: true"...)
			} else {
				b = append(b, "done: false"...)
			}
		case fCreatedAt:
			b = append(b, "createdAt: "...)
			if it.CreatedAt == nil {
				b = append(b, "null"...)
			} else {
				b = appendScalar(b, *it.CreatedAt, 3, false)
			}
		case fNotes:
			if len(it.Notes) == 0 {
				b = append(b, "notes: []"...)
				continue
			}
			b = append(b, "notes:"...)
			for _, n := range it.Notes {
				b = append(b, "\n      - timestamp: "...)
				if n.Timestamp == "" {
					b = append(b, "null"...)
				} else {
					b = appendScalar(b, n.Timestamp, 5, false)
				}
				b = append(b, "\n        text: "...)
				b = appendScalar(b, n.Text, 5, false)
			}
		default:
			v, _ := getField(it.ExtraFields(), name)
			b = appendPair(b, name, v, 2)
		}
	}
	return b
}

// appendDefaultItem is appendItem for the creation layout (no loaded
// order, no unknown fields).
func appendDefaultItem(b []byte, it *noggin.Item) []byte {
	b = append(b, "key: "...)
	b = appendScalar(b, it.Key, 3, false)
	if it.ParentKey == "" {
		b = append(b, "\n    parentKey: null\n    title: "...)
	} else {
		b = append(b, "\n    parentKey: "...)
		b = appendScalar(b, it.ParentKey, 3, false)
		b = append(b, "\n    title: "...)
	}
	b = appendScalar(b, it.Title, 3, false)
	if it.Done {
		b = append(b, "\n    done: true"...)
	} else {
		b = append(b, "\n    done: false"...)
	}
	if it.CreatedAt != nil {
		b = append(b, "\n    createdAt: "...)
		b = appendScalar(b, *it.CreatedAt, 3, false)
	}
	if len(it.Notes) == 0 {
		return append(b, "\n    notes: []"...)
	}
	b = append(b, "\n    notes:"...)
	for _, n := range it.Notes {
		b = append(b, "\n      - timestamp: "...)
		if n.Timestamp == "" {
			b = append(b, "null"...)
		} else {
			b = appendScalar(b, n.Timestamp, 5, false)
		}
		b = append(b, "\n        text: "...)
		b = appendScalar(b, n.Text, 5, false)
	}
	return b
}

// appendMapValue writes ": value" (or ":" + block) for a mapping value at
// value level L (the mapping itself is at level L-1).
func appendMapValue(b []byte, v any, level int) []byte {
	switch x := v.(type) {
	case []any:
		if len(x) > 0 {
			b = append(b, ':')
			return appendSeq(b, x, level, false)
		}
	case noggin.Map:
		if len(x) > 0 {
			b = append(b, ':')
			return appendMap(b, x, level, false)
		}
	}
	b = append(b, ':', ' ')
	return appendInline(b, v, level)
}

// appendInline writes a scalar or an empty collection.
func appendInline(b []byte, v any, level int) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		if x {
			return append(b, "true"...)
		}
		return append(b, "false"...)
	case noggin.Number:
		return appendYAMLNumber(b, x)
	case string:
		return appendScalar(b, x, level, false)
	case []any:
		return append(b, "[]"...)
	case noggin.Map:
		return append(b, "{}"...)
	}
	return append(b, "null"...)
}

func appendSeq(b []byte, s []any, level int, compact bool) []byte {
	for i, e := range s {
		if !compact || i > 0 {
			b = nl(b, level)
		}
		b = append(b, '-', ' ')
		switch x := e.(type) {
		case []any:
			if len(x) > 0 {
				b = appendSeq(b, x, level+1, true)
				continue
			}
		case noggin.Map:
			if len(x) > 0 {
				b = appendMap(b, x, level+1, true)
				continue
			}
		}
		b = appendInline(b, e, level+1)
	}
	return b
}

func appendMap(b []byte, m noggin.Map, level int, compact bool) []byte {
	for i, f := range m {
		if !compact || i > 0 {
			b = nl(b, level)
		}
		b = appendPair(b, f.Name, f.Value, level)
	}
	return b
}

// appendPair writes "key: value" of a block mapping at level (the key is
// a scalar at level+1, as js-yaml writes it).
func appendPair(b []byte, name string, v any, level int) []byte {
	st := len(b)
	b = appendScalar(b, name, level+1, true)
	key := b[st:]
	if level == 0 && len(key) >= 3 && string(key[:3]) == "..." && (len(key) == 3 || key[3] == ' ' || key[3] == '\t') {
		// A plain key here would be a document end marker (js-yaml
		// writes it anyway); single-quote it instead.
		b = append(b[:st], '\'')
		b = append(b, strings.ReplaceAll(name, "'", "''")...)
		b = append(b, '\'')
		key = b[st:]
	}
	if len(key) <= 1024 {
		return appendMapValue(b, v, level+1)
	}
	// explicit pair, as js-yaml writes very long keys
	b = append(b[:st], '?', ' ')
	b = appendScalar(b, name, level+1, true)
	b = nl(b, level)
	b = append(b, ':', ' ')
	switch x := v.(type) {
	case []any:
		if len(x) > 0 {
			return appendSeq(b, x, level+1, true)
		}
	case noggin.Map:
		if len(x) > 0 {
			return appendMap(b, x, level+1, true)
		}
	}
	return appendInline(b, v, level+1)
}

// appendYAMLNumber writes a number as js-yaml represents the JS number.
func appendYAMLNumber(b []byte, n noggin.Number) []byte {
	switch n {
	case "NaN":
		return append(b, ".nan"...)
	case "Infinity":
		return append(b, ".inf"...)
	case "-Infinity":
		return append(b, "-.inf"...)
	case "-0":
		return append(b, "-0.0"...)
	}
	s := string(n)
	if strings.ContainsAny(s, ".") || strings.Contains(s, "e-") {
		// a non-integer: js-yaml adds a dot to exponent forms without one
		if !strings.Contains(s, ".") {
			s = strings.Replace(s, "e", ".e", 1)
		}
	}
	return append(b, s...)
}

// ---- scalars ----

const (
	stylePlain = iota
	styleSingle
	styleLiteral
	styleFolded
	styleDouble
)

func isPrintable(c rune) bool {
	return (0x20 <= c && c <= 0x7E) ||
		(0xA1 <= c && c <= 0xD7FF && c != 0x2028 && c != 0x2029) ||
		(0xE000 <= c && c <= 0xFFFD && c != 0xFEFF) ||
		(0x10000 <= c && c <= 0x10FFFF)
}

func isWS(c rune) bool { return c == ' ' || c == '\t' }

func isNsCharOrWS(c rune) bool {
	return isPrintable(c) && c != 0xFEFF && c != '\r' && c != '\n'
}

func isPlainSafe(c, prev rune) bool {
	cNsOrWS := isNsCharOrWS(c)
	cNs := cNsOrWS && !isWS(c)
	return (cNsOrWS && c != '#' && !(prev == ':' && !cNs)) ||
		(isNsCharOrWS(prev) && !isWS(prev) && c == '#') ||
		(prev == ':' && cNs)
}

func isPlainSafeFirst(c rune) bool {
	if !isPrintable(c) || c == 0xFEFF || isWS(c) {
		return false
	}
	switch c {
	case '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '=', '>', '\'', '"', '%', '@', '`':
		return false
	}
	return true
}

func utf16Len(r rune) int {
	if r >= 0x10000 {
		return 2
	}
	return 1
}

// Byte classes for the ASCII fast paths.
const (
	clPlain   = iota // printable ASCII, no special role
	clSpecial        // ' ', '#', ':'
	clNewline        // '\n'
	clOther          // control characters and non-ASCII bytes
)

var byteClass = func() (t [256]uint8) {
	for i := range t {
		switch {
		case i == ' ' || i == '#' || i == ':':
			t[i] = clSpecial
		case i == '\n':
			t[i] = clNewline
		case i < 0x20 || i > 0x7E:
			t[i] = clOther
		}
	}
	return
}()

// asciiPlainFast handles the common case: a printable-ASCII single-line
// string that fits the width. It returns the style and true, or false
// when the general algorithm must run.
func asciiPlainFast(s string, lineWidth int) (int, bool) {
	if len(s) > lineWidth {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i]-0x20 > 0x7E-0x20 { // not printable ASCII
			return 0, false
		}
	}
	// Plain unless ": " or " #" occurs (js-yaml's isPlainSafe for ASCII),
	// the first character is an indicator or the last a space or colon.
	plain := isPlainSafeFirst(rune(s[0])) && s[len(s)-1] != ' ' && s[len(s)-1] != ':'
	if plain {
		if i := strings.IndexByte(s, ':'); i >= 0 && strings.Contains(s[i:], ": ") {
			plain = false
		} else if i := strings.IndexByte(s, '#'); i > 0 && strings.Contains(s[i-1:], " #") {
			plain = false
		}
	}
	if plain && !isAmbiguous(s) {
		return stylePlain, true
	}
	return styleSingle, true
}

// chooseStyleASCII is chooseStyle for values (not keys) made of printable
// ASCII and newlines; ok is false for any other byte.
func chooseStyleASCII(s string, lineWidth int) (style int, ok bool) {
	plain := true
	hasLineBreak, hasFoldable := false, false
	lineStart := 0
	for i := 0; i < len(s); i++ {
		switch byteClass[s[i]] {
		case clPlain:
			continue
		case clSpecial:
			if plain {
				switch s[i] {
				case '#':
					plain = i > 0 && s[i-1] != ' ' && s[i-1] != '\n'
				case ' ':
					plain = i == 0 || s[i-1] != ':'
				}
			}
		case clNewline:
			hasLineBreak, plain = true, false
			if !hasFoldable && i-lineStart > lineWidth && s[lineStart] != ' ' {
				hasFoldable = true
			}
			lineStart = i + 1
		default:
			return 0, false
		}
	}
	if !hasFoldable && len(s)-lineStart > lineWidth && (lineStart >= len(s) || s[lineStart] != ' ') {
		hasFoldable = true
	}
	if !hasLineBreak && !hasFoldable {
		if plain && isPlainSafeFirst(rune(s[0])) && s[len(s)-1] != ' ' && s[len(s)-1] != ':' && !isAmbiguous(s) {
			return stylePlain, true
		}
		return styleSingle, true
	}
	if hasFoldable {
		return styleFolded, true
	}
	return styleLiteral, true
}

func chooseStyle(s string, singleLine bool, lineWidth int) int {
	first, _ := utf8.DecodeRuneInString(s)
	last, _ := utf8.DecodeLastRuneInString(s)
	plain := isPlainSafeFirst(first) && !isWS(last) && last != ':'
	if !utf8.ValidString(s) { // a lone surrogate (WTF-8): not printable
		return styleDouble
	}
	prev := rune(-1)
	hasLineBreak, hasFoldable := false, false
	i, prevLB := 0, -1 // UTF-16 indexes
	lineStart := 0     // byte index of the current line
	for bi, c := range s {
		if c == '\n' && !singleLine {
			hasLineBreak = true
			if !hasFoldable && i-prevLB-1 > lineWidth && s[lineStart] != ' ' {
				hasFoldable = true
			}
			prevLB = i
			lineStart = bi + 1
		} else if !isPrintable(c) {
			return styleDouble
		}
		if plain {
			plain = isPlainSafe(c, prev)
		}
		prev = c
		i += utf16Len(c)
	}
	if !singleLine && !hasFoldable && i-prevLB-1 > lineWidth && (lineStart >= len(s) || s[lineStart] != ' ') {
		hasFoldable = true
	}
	if !hasLineBreak && !hasFoldable {
		if plain && !isAmbiguous(s) {
			return stylePlain
		}
		return styleSingle
	}
	if hasFoldable {
		return styleFolded
	}
	return styleLiteral
}

func isDeprecatedOrBase60(s string) bool {
	switch s {
	case "y", "Y", "yes", "Yes", "YES", "on", "On", "ON", "n", "N", "no", "No", "NO", "off", "Off", "OFF":
		return true
	}
	return len(s) > 0 && (isDec(s[0]) || s[0] == '-' || s[0] == '+' || s[0] == '_') && isBase60(s)
}

// appendScalar is js-yaml's writeScalar for a string at a level.
func appendScalar(b []byte, s string, level int, isKey bool) []byte {
	if s == "" {
		return append(b, '\'', '\'')
	}
	indent := 2 * max(1, level)
	lineWidth := max(40, lineWidthOption-indent)
	style, ok := asciiPlainFast(s, lineWidth)
	if !ok && !isKey {
		style, ok = chooseStyleASCII(s, lineWidth)
	}
	if !ok {
		if !utf8.ValidString(s) {
			s = jstext.ToWTF8(s)
		}
		style = chooseStyle(s, isKey, lineWidth)
	}
	if style != styleDouble && isDeprecatedOrBase60(s) {
		b = append(b, '\'')
		b = append(b, s...)
		return append(b, '\'')
	}
	switch style {
	case stylePlain:
		return append(b, s...)
	case styleSingle:
		b = append(b, '\'')
		for {
			i := strings.IndexByte(s, '\'')
			if i < 0 {
				break
			}
			b = append(b, s[:i+1]...)
			b = append(b, '\'')
			s = s[i+1:]
		}
		b = append(b, s...)
		return append(b, '\'')
	case styleLiteral:
		b = append(b, '|')
		b = appendBlockHeader(b, s)
		return appendIndented(b, s, indent)
	case styleFolded:
		b = append(b, '>')
		b = appendBlockHeader(b, s)
		return appendFolded(b, s, lineWidth, indent)
	}
	b = append(b, '"')
	b = appendEscaped(b, s)
	return append(b, '"')
}

func appendBlockHeader(b []byte, s string) []byte {
	t := strings.TrimLeft(s, "\n")
	if len(t) > 0 && t[0] == ' ' {
		b = append(b, '2')
	}
	clip := s[len(s)-1] == '\n'
	keep := clip && (s == "\n" || (len(s) >= 2 && s[len(s)-2] == '\n'))
	switch {
	case keep:
		b = append(b, '+')
	case !clip:
		b = append(b, '-')
	}
	return append(b, '\n')
}

// appendIndented is dropEndingNewline(indentString(s, spaces)).
func appendIndented(b []byte, s string, spaces int) []byte {
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		var line string
		if i < 0 {
			line, s = s, ""
		} else {
			line, s = s[:i+1], s[i+1:]
		}
		if line != "\n" {
			for k := 0; k < spaces; k++ {
				b = append(b, ' ')
			}
		}
		if s == "" && line[len(line)-1] == '\n' {
			line = line[:len(line)-1]
		}
		b = append(b, line...)
	}
	return b
}

var escapes = map[rune]string{
	0x00: `\0`, 0x07: `\a`, 0x08: `\b`, 0x09: `\t`, 0x0A: `\n`, 0x0B: `\v`, 0x0C: `\f`,
	0x0D: `\r`, 0x1B: `\e`, 0x22: `\"`, 0x5C: `\\`, 0x85: `\N`, 0xA0: `\_`,
	0x2028: `\L`, 0x2029: `\P`,
}

const upperHex = "0123456789ABCDEF"

func appendEscaped(b []byte, s string) []byte {
	for len(s) > 0 {
		c, n := jstext.DecodeRune(s) // a lone surrogate is \uXXXX
		s = s[n:]
		if e, ok := escapes[c]; ok {
			b = append(b, e...)
			continue
		}
		if isPrintable(c) {
			b = utf8.AppendRune(b, c)
			continue
		}
		switch {
		case c <= 0xFF:
			b, n = append(b, '\\', 'x'), 2
		case c <= 0xFFFF:
			b, n = append(b, '\\', 'u'), 4
		default:
			b, n = append(b, '\\', 'U'), 8
		}
		for k := n - 1; k >= 0; k-- {
			b = append(b, upperHex[(c>>(4*k))&0xF])
		}
	}
	return b
}

// appendFoldString appends js-yaml's foldString(s, width) to dst.
func appendFoldString(dst []byte, s string, width int) []byte {
	nextLF := strings.IndexByte(s, '\n')
	if nextLF < 0 {
		nextLF = len(s)
	}
	dst = appendFoldLine(dst, s[:nextLF], width)
	prevMoreIndented := s[0] == '\n' || s[0] == ' '
	rest := s[nextLF:]
	for len(rest) > 0 {
		// rest starts with one or more '\n'
		k := 0
		for k < len(rest) && rest[k] == '\n' {
			k++
		}
		dst = append(dst, rest[:k]...)
		rest = rest[k:]
		e := strings.IndexByte(rest, '\n')
		if e < 0 {
			e = len(rest)
		}
		line := rest[:e]
		rest = rest[e:]
		moreIndented := len(line) > 0 && line[0] == ' '
		if !prevMoreIndented && !moreIndented && line != "" {
			dst = append(dst, '\n')
		}
		dst = appendFoldLine(dst, line, width)
		prevMoreIndented = moreIndented
	}
	return dst
}

func appendFoldLine(dst []byte, line string, width int) []byte {
	if line == "" || line[0] == ' ' || len(line) <= width {
		// (a line of at most width bytes has at most width UTF-16 units)
		return append(dst, line...)
	}
	if isASCII(line) {
		return appendFoldLineASCII(dst, line, width)
	}
	return append(dst, foldLine(line, width)...)
}

// foldScratch holds buffers for folded text before indentation.
var foldScratch = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// appendFolded appends dropEndingNewline(indentString(foldString(s,
// width), indent)).
func appendFolded(b []byte, s string, width, indent int) []byte {
	sc := foldScratch.Get().(*[]byte)
	f := appendFoldString((*sc)[:0], s, width)
	b = appendIndented(b, unsafe.String(unsafe.SliceData(f), len(f)), indent) //nolint:gosec // f is read, not kept, while unchanged
	*sc = f[:0]
	foldScratch.Put(sc)
	return b
}

// foldLine is js-yaml's greedy foldLine; positions are UTF-16 indexes.
func foldLine(line string, width int) string {
	if line == "" || line[0] == ' ' {
		return line
	}
	u := utf16.Encode([]rune(line))
	if len(u) <= width {
		return line
	}
	str := func(a, b int) string { return string(utf16.Decode(u[a:b])) }
	var result strings.Builder
	start, curr, next := 0, 0, 0
	// matches of / [^ ]/g
	for p := 0; p+1 < len(u); {
		if u[p] != ' ' || u[p+1] == ' ' {
			p++
			continue
		}
		next = p
		if next-start > width {
			end := next
			if curr > start {
				end = curr
			}
			result.WriteByte('\n')
			result.WriteString(str(start, end))
			start = end + 1
		}
		curr = next
		p += 2
	}
	result.WriteByte('\n')
	if len(u)-start > width && curr > start {
		result.WriteString(str(start, curr))
		result.WriteByte('\n')
		result.WriteString(str(curr+1, len(u)))
	} else {
		result.WriteString(str(start, len(u)))
	}
	return result.String()[1:]
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// appendFoldLineASCII appends foldLine(line, width) for ASCII text (byte
// and UTF-16 indexes agree).
func appendFoldLineASCII(dst []byte, line string, width int) []byte {
	start, curr, next := 0, 0, 0
	first := true
	piece := func(p string) {
		if !first {
			dst = append(dst, '\n')
		}
		first = false
		dst = append(dst, p...)
	}
	for p := 0; p+1 < len(line); {
		if line[p] != ' ' || line[p+1] == ' ' {
			p++
			continue
		}
		next = p
		if next-start > width {
			end := next
			if curr > start {
				end = curr
			}
			piece(line[start:end])
			start = end + 1
		}
		curr = next
		p += 2
	}
	if len(line)-start > width && curr > start {
		piece(line[start:curr])
		piece(line[curr+1:])
	} else {
		piece(line[start:])
	}
	return dst
}
