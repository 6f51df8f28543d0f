// Package jsontext writes JSON string literals exactly as JavaScript's
// JSON.stringify does. It is shared by the envelope encoder and the JSON
// document codec so that both escape text the same way.
package jsontext

import "unicode/utf8"

const hexDigits = "0123456789abcdef"

// safe[c] is true for ASCII bytes written as they are inside a string.
var safe = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// plain8 reports whether none of the 8 bytes of x needs attention: each is
// ASCII, at least 0x20, and neither '"' nor '\\'.
func plain8(x uint64) bool {
	hasLess := (x - 0x20*lsb) & ^x & msb
	q := x ^ ('"' * lsb)
	hasQuote := (q - lsb) & ^q & msb
	b := x ^ ('\\' * lsb)
	hasBackslash := (b - lsb) & ^b & msb
	return (hasLess | hasQuote | hasBackslash | x&msb) == 0
}

// load8 reads s[i:i+8] as a little-endian word.
func load8(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// AppendString appends s as the JSON string literal JSON.stringify writes:
// raw UTF-8 (U+2028/U+2029 included), only '"', '\\' and control
// characters escaped (\b \f \n \r \t, others \u00xx), no HTML escaping;
// each invalid UTF-8 byte becomes U+FFFD.
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		// Skip 8 plain ASCII bytes at a time.
		for i+8 <= len(s) && plain8(load8(s, i)) {
			i += 8
		}
		if i >= len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if safe[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"':
				b = append(b, '\\', '"')
			case '\\':
				b = append(b, '\\', '\\')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, "\ufffd"...)
			i++
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
