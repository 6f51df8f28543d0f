package app

import (
	"bytes"
	"strconv"
	"unicode/utf8"

	"github.com/noggin-go/noggin/core/jstext"
)

// Human output is read by people in terminals, and titles, notes and
// locations are written by agents: nothing they contain may act on the
// terminal or pass for another line. writeSafe writes s with every control
// character (C0 but tab, DEL, C1), invalid byte, bidirectional override or
// isolate (U+202A–U+202E, U+2066–U+2069) and line or paragraph separator
// (U+2028, U+2029) shown as a visible escape (\x1b, \u202e), and a newline
// as a visible ⏎, so one title is always one line. JSON output is never
// neutralised: it is exact.
func writeSafe(b *bytes.Buffer, s string) {
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f || c == '\t' {
			i++
			continue
		}
		r, size := rune(c), 1
		if c >= utf8.RuneSelf {
			r, size = jstext.DecodeRune(s[i:])
		}
		esc := ""
		switch {
		case c == '\n':
			esc = "\u23ce" // ⏎
		case r == utf8.RuneError && size == 1, r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
			esc = `\x` + hex2(c)
			if r >= 0x80 && r <= 0x9f { // a C1 control, written as its code point
				esc = `\u00` + hex2(byte(r))
			}
		case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x2028, r == 0x2029, jstext.IsSurrogate(r):
			esc = `\u` + strconv.FormatInt(int64(r), 16)
		default:
			i += size
			continue
		}
		b.WriteString(s[start:i])
		b.WriteString(esc)
		i += size
		start = i
	}
	b.WriteString(s[start:])
}

func hex2(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&0xf]})
}

// safe is writeSafe as a string.
func safe(s string) string {
	var b bytes.Buffer
	writeSafe(&b, s)
	return b.String()
}
