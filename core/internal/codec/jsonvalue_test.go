package codec

import (
	"reflect"
	"strings"
	"testing"

	"github.com/noggin-go/noggin/core/jstext"
	"github.com/noggin-go/noggin/core/noggin"
)

// FuzzDecodeJSONValue: any input decodes or fails without panicking; what
// decodes writes back (AppendJSONValue) as JSON that decodes to the same
// value, lone surrogates included.
func FuzzDecodeJSONValue(f *testing.F) {
	for _, s := range []string{`{"title":"a\ud800b"}`, `["\udc00\ud83d\ude00", 1e400, -0, null, true]`, `"x"`, `{"a":{"b":[1,2,{"c":"\u0000"}]}}`, `{"a":1,"a":2}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		v, err := DecodeJSONValue([]byte(in))
		if err != nil {
			return
		}
		out, err := AppendJSONValue(nil, v)
		if err != nil {
			if strings.Contains(err.Error(), "unsupported value") { // ±Inf has no JSON form
				return
			}
			t.Fatalf("%q: AppendJSONValue: %v", in, err)
		}
		back, err := DecodeJSONValue(out)
		if err != nil || !reflect.DeepEqual(back, v) {
			t.Fatalf("%q: wrote %s, read back %#v (%v), want %#v", in, out, back, err, v)
		}
	})
}

// FuzzSurrogateText: any text, lone surrogates (WTF-8) included, written
// by the encoder reads back the same through the fast reader and through
// the general parser.
func FuzzSurrogateText(f *testing.F) {
	for _, s := range []string{"a\xed\xa0\x80b", "\xed\xbf\xbf", "\xed\xa0\x80\xed\xb0\x80", "plain", "'\\uD800' \\\\uDC00", "x\xed\xa0\x80" + strings.Repeat("y ", 80)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		s = canonicalText(s)
		doc := &noggin.Document{Items: []*noggin.Item{{Key: "k", Title: s, Notes: []noggin.Note{{Timestamp: "t", Text: s}}}}}
		text := EncodeYAML(doc)
		for name, decode := range map[string]func([]byte) (*noggin.Document, error){"DecodeYAML": DecodeYAML, "general": decodeYAMLSlow} {
			got, err := decode(text)
			if err != nil {
				t.Fatalf("%s of %q: %v\n%s", name, s, err, text)
			}
			if got.Items[0].Title != s || got.Items[0].Notes[0].Text != s {
				t.Fatalf("%s of %q: title %q, note %q\n%s", name, s, got.Items[0].Title, got.Items[0].Notes[0].Text, text)
			}
		}
	})
}

// canonicalText is s as a JavaScript string would hold it: invalid bytes
// as U+FFFD, lone surrogates as WTF-8, a high surrogate followed by a low
// one joined into one character.
func canonicalText(s string) string {
	var b []byte
	for len(s) > 0 {
		r, n := jstext.DecodeRune(s)
		b = jstext.AppendUnit(b, r)
		s = s[n:]
	}
	return string(b)
}
