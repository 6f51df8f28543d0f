package noggin

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSafe(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain title", "plain title"},
		{"tab\there", "tab\there"},
		{"evil\x1b[2J\x1b[31mred", `evil\x1b[2J\x1b[31mred`},
		{"\x1b]52;c;aGk=\x07", `\x1b]52;c;aGk=\x07`},
		{"two\n/1/2 ✅ fake item", "two⏎/1/2 ✅ fake item"},
		{"cr\rreturn", `cr\x0dreturn`},
		{"del\x7f", `del\x7f`},
		{"nel\u0085csi\u009b", `nel\u0085csi\u009b`},
		{"\u202eevil\u202c", `\u202eevil\u202c`},
		{"\u2066iso\u2069", `\u2066iso\u2069`},
		{"ls\u2028ps\u2029", `ls\u2028ps\u2029`},
		{"bad\xffbyte", `bad\xffbyte`},
		{"lone \xed\xa0\x80 \xed\xbf\xbf surrogates", `lone \ud800 \udfff surrogates`},
		{"café 🧠 שלום e\u0301 \ufffd", "café 🧠 שלום e\u0301 \ufffd"},
		{"\u200bzw\u00a0nb\ufeff", "\u200bzw\u00a0nb\ufeff"},
	} {
		if got := Safe(c.in); got != c.want {
			t.Errorf("Safe(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// FuzzWriteSafe: the output never holds a control character but tab, a
// bidirectional control, a line separator or an invalid byte.
func FuzzWriteSafe(f *testing.F) {
	for _, s := range []string{"x", "\x1b[31m", "a\nb", "\u202e", "\xff", "\u0085"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Safe(s)
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 out of %q: %q", s, out)
		}
		for _, r := range out {
			if r < 0x20 && r != '\t' || r == 0x7f || r >= 0x80 && r <= 0x9f ||
				r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x2028 || r == 0x2029 {
				t.Fatalf("Safe(%q) = %q keeps %U", s, out, r)
			}
		}
		if !strings.Contains(s, "\\") && !strings.ContainsAny(s, "\n") && strings.IndexFunc(s, func(r rune) bool {
			return r < 0x20 && r != '\t' || r == 0x7f || r >= 0x80 && r <= 0x9f || r >= 0x202a && r <= 0x202e ||
				r >= 0x2066 && r <= 0x2069 || r == 0x2028 || r == 0x2029 || r == utf8.RuneError
		}) < 0 && out != s {
			t.Fatalf("Safe(%q) = %q changed harmless text", s, out)
		}
	})
}
