package server

import "testing"

func TestValidJSONText(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"no escapes", `{"title":"plain"}`, `{"title":"plain"}`},
		{"a lone high surrogate", `{"title":"a\ud800b"}`, `{"title":"a\ufffdb"}`},
		{"a lone low surrogate", `{"title":"a\uDC00"}`, `{"title":"a\ufffd"}`},
		{"a pair stays", `{"title":"\ud83d\ude00"}`, `{"title":"\ud83d\ude00"}`},
		{"a high surrogate before a non-surrogate escape", `{"t":"\ud800\u0041"}`, `{"t":"\ufffd\u0041"}`},
		{"two highs", `{"t":"\ud800\ud800\udc00"}`, `{"t":"\ufffd\ud800\udc00"}`},
		{"an escaped backslash is no escape", `{"t":"\\ud800"}`, `{"t":"\\ud800"}`},
		{"an escaped quote keeps the string open", `{"t":"\"\ud800"}`, `{"t":"\"\ufffd"}`},
		{"at the end, cut short", `{"t":"\ud8`, `{"t":"\ud8`},
		{"a key too", `{"\udfff":1}`, `{"\ufffd":1}`},
		{"bytes that are not UTF-8", "{\"t\":\"a\xffb\"}", "{\"t\":\"a\uFFFDb\"}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(validJSONText([]byte(tc.in))); got != tc.want {
				t.Errorf("validJSONText(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func FuzzValidJSONText(f *testing.F) {
	for _, s := range []string{`{"title":"a\ud800b"}`, `"\\u"`, `"\ud83d\ude00"`, "\xff", `"\u`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := validJSONText([]byte(s))
		if again := validJSONText(out); string(again) != string(out) {
			t.Fatalf("not stable: %q -> %q -> %q", s, out, again)
		}
	})
}
