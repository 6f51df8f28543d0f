package codec

import (
	"bytes"
	"testing"

	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/sampledoc"
)

// TestPlainFace: every form the public face writes reads back as written.
func TestPlainFace(t *testing.T) {
	doc := sampledoc.Doc(30, 3)
	title := "renamed"
	entry := noggin.Entry{Seq: 7, Time: "2026-12-07T16:00:00.000Z", Verb: "edit", Before: "a", After: "b", Ops: []noggin.Op{{Type: noggin.OpSet, Key: doc.Items[0].Key, Title: &title}}}
	cases := []struct {
		name   string
		encode func() []byte
		again  func([]byte) ([]byte, error)
	}{
		{"YAML document", func() []byte { return EncodeYAML(doc) }, func(b []byte) ([]byte, error) {
			d, err := DecodeYAML(b)
			return EncodeYAML(d), err
		}},
		{"JSON document", func() []byte { return EncodeJSON(doc) }, func(b []byte) ([]byte, error) {
			d, err := DecodeJSON(b)
			return EncodeJSON(d), err
		}},
		{"JSON document read as YAML", func() []byte { return EncodeJSON(doc) }, func(b []byte) ([]byte, error) {
			d, err := DecodeYAML(b)
			return EncodeJSON(d), err
		}},
		{"journal entry", func() []byte { return EncodeEntry(entry) }, func(b []byte) ([]byte, error) {
			e, err := DecodeEntry(bytes.TrimSuffix(b, []byte("\n")))
			return EncodeEntry(e), err
		}},
		{"item", func() []byte { return EncodeItem(doc.Items[5]) }, func(b []byte) ([]byte, error) {
			it, err := DecodeItem(b)
			return EncodeItem(it), err
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := c.encode()
			got, err := c.again(b)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, b) {
				t.Fatalf("read back differently:\n%s\nwas\n%s", got, b)
			}
		})
	}
}
