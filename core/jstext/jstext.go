// Package jstext writes values in the text forms of JavaScript, which the
// original noggin's files and envelopes use: JSON.stringify's string
// literals, Number#toString and String#trim. It is shared by the envelope
// encoder, the JSON/YAML codec and the surfaces, so that all of them write
// the same text.
package jstext

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

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
// a lone surrogate (WTF-8) is \udxxx; each other invalid UTF-8 byte becomes
// U+FFFD.
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
		r, size := DecodeRune(s[i:])
		if IsSurrogate(r) {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', hexDigits[r>>12], hexDigits[r>>8&0xf], hexDigits[r>>4&0xf], hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
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

// FormatNumber formats f as JavaScript's Number.prototype.toString() does
// (negative zero is "0").
func FormatNumber(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		return "0"
	}
	neg := f < 0
	if neg {
		f = -f
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddddde±XX
	mant, exps, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	exp, _ := strconv.Atoi(exps)
	k := len(digits)
	n := exp + 1
	var out string
	switch {
	case k <= n && n <= 21:
		out = digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		out = digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		out = "0." + strings.Repeat("0", -n) + digits
	default:
		m := digits[:1]
		if k > 1 {
			m += "." + digits[1:]
		}
		sign := "+"
		if n-1 < 0 {
			sign = "-"
		}
		out = m + "e" + sign + strconv.Itoa(abs(n-1))
	}
	if neg {
		return "-" + out
	}
	return out
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}

// TrimSpace is String.prototype.trim: it strips JavaScript white space and
// line terminators (which differ slightly from Go's unicode.IsSpace: U+FEFF
// is white space, U+0085 is not).
func TrimSpace(s string) string { return strings.TrimFunc(s, isSpace) }

// Fields splits s around runs of JavaScript white space (as TrimSpace
// sees it).
func Fields(s string) []string { return strings.FieldsFunc(s, isSpace) }

func isSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', '\u00a0', '\u1680', '\u2028', '\u2029',
		'\u202f', '\u205f', '\u3000', '\ufeff':
		return true
	}
	return r >= '\u2000' && r <= '\u200a'
}

// Valuer is implemented by values that carry their own JavaScript forms,
// such as a number kept as its literal text.
type Valuer interface {
	// JSString is String(v).
	JSString() string
	// JSTruthy is the truthiness of v (Boolean(v)).
	JSTruthy() bool
}

// String is JavaScript's String(v) for a value of the JSON model (nil,
// bool, float64, string, []any, map[string]any) or a Valuer.
func String(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		if x {
			return "true"
		}
		return "false"
	case float64:
		return FormatNumber(x)
	case string:
		return x
	case []any:
		var b strings.Builder
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			if e != nil {
				b.WriteString(String(e))
			}
		}
		return b.String()
	case Valuer:
		return x.JSString()
	}
	return "[object Object]"
}

// Truthy is JavaScript truthiness of a value of the JSON model or a Valuer.
func Truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case float64:
		return x != 0 && !math.IsNaN(x)
	case string:
		return x != ""
	case Valuer:
		return x.JSTruthy()
	}
	return true
}

// JavaScript strings are UTF-16 and may hold lone surrogates (U+D800 to
// U+DFFF without their pair); the original's files spell them as escapes
// ("a\uD800b"). Go strings keep them as WTF-8: the three bytes UTF-8 would
// give the code point, which valid UTF-8 never contains.

// IsSurrogate reports whether r is a UTF-16 surrogate code point.
func IsSurrogate(r rune) bool { return 0xD800 <= r && r <= 0xDFFF }

// DecodeRune is utf8.DecodeRuneInString that also decodes a lone
// surrogate's WTF-8 form.
func DecodeRune(s string) (rune, int) {
	if len(s) >= 3 && s[0] == 0xED && s[1]&0xE0 == 0xA0 && s[2]&0xC0 == 0x80 {
		return 0xD000 | rune(s[1]&0x3F)<<6 | rune(s[2]&0x3F), 3
	}
	return utf8.DecodeRuneInString(s)
}

// AppendRune appends r as UTF-8, or a lone surrogate as WTF-8.
func AppendRune(b []byte, r rune) []byte {
	if IsSurrogate(r) {
		return append(b, 0xED, 0x80|byte(r>>6&0x3F), 0x80|byte(r&0x3F))
	}
	return utf8.AppendRune(b, r)
}

// AppendUnit appends r, a code point or a UTF-16 code unit as an escape
// gives one, the way a JavaScript string grows: a low surrogate right after
// a lone high one makes one character with it.
func AppendUnit(b []byte, r rune) []byte {
	if 0xDC00 <= r && r <= 0xDFFF && len(b) >= 3 {
		if hi, n := DecodeRune(string(b[len(b)-3:])); n == 3 && 0xD800 <= hi && hi <= 0xDBFF {
			return utf8.AppendRune(b[:len(b)-3], 0x10000+(hi-0xD800)<<10+(r-0xDC00))
		}
	}
	return AppendRune(b, r)
}

// ToWTF8 replaces each byte of s that is neither valid UTF-8 nor part of a
// lone surrogate's WTF-8 form with U+FFFD.
func ToWTF8(s string) string {
	b := make([]byte, 0, len(s)+8)
	for len(s) > 0 {
		r, n := DecodeRune(s)
		b = AppendRune(b, r)
		s = s[n:]
	}
	return string(b)
}
