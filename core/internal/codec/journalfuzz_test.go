package codec

import (
	"bytes"
	"testing"
)

// FuzzDecodeEntry: any journal line decodes or fails without panicking,
// and an entry that decodes encodes to a line that decodes to the same
// encoding again (the journal loader is as robust as the document loader).
func FuzzDecodeEntry(f *testing.F) {
	f.Add([]byte(`{"v":1,"seq":1,"time":"t","verb":"push","before":"sha256:00","after":"sha256:11","changes":[{"kind":"added","key":"k","title":"x"}],"ops":[{"op":"add","item":{"key":"k","parentKey":null,"title":"x","done":false,"createdAt":null,"notes":[],"tag":{"a":[1,"b",null]}},"parentKey":"","position":0,"atEnd":true}],"inverse":[{"op":"remove","keys":["k"]}]}`))
	f.Add([]byte(`{"v":1,"seq":2,"verb":"note","ops":[{"op":"note","key":"k","note":{"timestamp":null,"text":"t"}}],"inverse":[{"op":"unnote","key":"k"}]}`))
	f.Add([]byte(`{"v":1,"seq":3,"ops":[{"op":"move","key":"k","parentKey":"p","position":4,"flat":true}],"inverse":[{"op":"set","key":"k","title":"\u202e","done":true}]}`))
	f.Add([]byte("not json"))
	f.Add([]byte(`{"v":1,"seq":`))
	f.Fuzz(func(t *testing.T, line []byte) {
		e, err := DecodeEntry(line)
		if err != nil {
			return
		}
		enc := EncodeEntry(e)
		if bytes.Count(enc, []byte{'\n'}) != 1 {
			t.Fatalf("an entry encodes to more than one line: %q", enc)
		}
		e2, err := DecodeEntry(bytes.TrimSuffix(enc, []byte{'\n'}))
		if err != nil {
			t.Fatalf("re-decoding %q: %v", enc, err)
		}
		if enc2 := EncodeEntry(e2); !bytes.Equal(enc, enc2) {
			t.Fatalf("not stable:\n%s\n%s", enc, enc2)
		}
	})
}
