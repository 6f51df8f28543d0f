package jstext

import (
	"math"
	"testing"
)

func TestFormatNumber(t *testing.T) {
	for _, c := range []struct {
		f    float64
		want string
	}{
		{0, "0"}, {math.Copysign(0, -1), "0"}, {5, "5"}, {-12, "-12"}, {1.5, "1.5"},
		{0.1, "0.1"}, {1e-6, "0.000001"}, {1e-7, "1e-7"}, {1.5e-7, "1.5e-7"},
		{1e20, "100000000000000000000"}, {1e21, "1e+21"}, {1.25e22, "1.25e+22"},
		{math.NaN(), "NaN"}, {math.Inf(1), "Infinity"}, {math.Inf(-1), "-Infinity"},
	} {
		if got := FormatNumber(c.f); got != c.want {
			t.Errorf("FormatNumber(%v) = %q, want %q", c.f, got, c.want)
		}
	}
}

func TestTrimSpace(t *testing.T) {
	for in, want := range map[string]string{
		"  x  ": "x", "\ufeff\u00a0 x y\u2028\t": "x y", "\u0085x\u0085": "\u0085x\u0085",
		"\u3000\u2000x\u200a": "x", "": "",
	} {
		if got := TrimSpace(in); got != want {
			t.Errorf("TrimSpace(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestAppendString(t *testing.T) {
	in := "<>&\u2028\u2029\x00\x1f\"\\é😀\t\n\r\b\f\x7fa\xffb"
	want := `"<>&` + "\u2028\u2029" + `\u0000\u001f\"\\é😀\t\n\r\b\f` + "\x7f" + "a\ufffdb" + `"`
	if got := string(AppendString(nil, in)); got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}

func TestSurrogates(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    rune
		want string // AppendString of "a" r "b"
	}{
		{"first high surrogate", 0xD800, `"a\ud800b"`},
		{"last high surrogate", 0xDBFF, `"a\udbffb"`},
		{"first low surrogate", 0xDC00, `"a\udc00b"`},
		{"last low surrogate", 0xDFFF, `"a\udfffb"`},
		{"not a surrogate", 0xD7FF, "\"a\ud7ffb\""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := string(AppendRune([]byte("a"), tc.r)) + "b"
			if r, n := DecodeRune(s[1:]); r != tc.r || n != len(s)-2 {
				t.Errorf("DecodeRune = %U, %d", r, n)
			}
			if got := string(AppendString(nil, s)); got != tc.want {
				t.Errorf("AppendString = %s, want %s", got, tc.want)
			}
			if ToWTF8(s) != s {
				t.Errorf("ToWTF8 changed %q", s)
			}
		})
	}
	if got := ToWTF8("a\xed\xa0b\xffc"); got != "a\ufffd\ufffdb\ufffdc" {
		t.Errorf("ToWTF8 of invalid bytes = %q", got)
	}
}
