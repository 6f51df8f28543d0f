package codec

import (
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"unicode/utf8"

	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/sampledoc"
)

// FuzzLoad: loading never panics; whatever loads saves and loads back to
// the same document (YAML and JSON); the fast reader agrees with the
// general parser on every input it accepts. Seed corpus:
// testdata/fuzz/FuzzLoad plus the documents added here.
func FuzzLoad(f *testing.F) {
	for _, c := range loadCases {
		f.Add([]byte(c))
	}
	for _, c := range fastVariants {
		f.Add([]byte(c))
	}
	for _, name := range []string{"spec-example.yaml", "spec-empty.yaml", "spec-example.json"} {
		if b, err := os.ReadFile(filepath.Join("testdata", name)); err == nil {
			f.Add(b)
		}
	}
	small := sampledoc.Doc(12, 4)
	f.Add(EncodeYAML(small))
	f.Add(EncodeJSON(small))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFastAgrees(t, data)
		if doc, err := DecodeYAML(data); err == nil {
			text := EncodeYAML(doc)
			back, err := DecodeYAML(text)
			if err != nil {
				t.Fatalf("saved YAML does not load: %v\n%s", err, text)
			}
			if !reflect.DeepEqual(doc, back) {
				t.Fatalf("YAML load→save→load differs: %s\n%s", deepDiff("doc", reflect.ValueOf(doc), reflect.ValueOf(back)), text)
			}
			checkFastAgrees(t, text)
			if again := EncodeYAML(back); string(again) != string(text) {
				t.Fatalf("second YAML save differs")
			}
			checkFastPaths(t, text)
		}
		if doc, err := DecodeJSON(data); err == nil {
			text := EncodeJSON(doc)
			back, err := DecodeJSON(text)
			if err != nil {
				t.Fatalf("saved JSON does not load: %v\n%s", err, text)
			}
			// Non-finite numbers (1e400) are written as null, as
			// JSON.stringify does.
			want := jsonView(doc)
			if !reflect.DeepEqual(want, back) {
				t.Fatalf("JSON load→save→load differs: %s\n%s", deepDiff("doc", reflect.ValueOf(want), reflect.ValueOf(back)), text)
			}
		}
	})
}

// checkFastPaths checks the large-file paths against the plain one on
// text, a file this encoder wrote: the lazy read item for item, and a
// spliced write after random changes byte for byte, read whole and in two
// halves.
func checkFastPaths(t *testing.T, text []byte) {
	t.Helper()
	checkLazy(t, text)
	for _, splitMin := range []int{parallelMin, 32} {
		doc, src := sourceOf(t, text, splitMin)
		if doc == nil {
			continue
		}
		after := randomOps(rand.New(rand.NewSource(int64(len(text)))), doc, text)
		checkSplice(t, after, src)
	}
}

// jsonView is doc with every non-finite number of its unknown fields
// replaced by null.
func jsonView(doc *noggin.Document) *noggin.Document {
	fix := func(fs []noggin.Field) []noggin.Field {
		if fs == nil {
			return nil
		}
		out := make([]noggin.Field, len(fs))
		for i, f := range fs {
			out[i] = noggin.Field{Name: f.Name, Value: finite(f.Value)}
		}
		return out
	}
	d := *doc
	d.Extra = fix(doc.Extra)
	d.Items = make([]*noggin.Item, len(doc.Items))
	for i, it := range doc.Items {
		c := *it
		if it.Foreign != nil {
			c.Foreign = &noggin.Foreign{Order: it.Foreign.Order, Extra: fix(it.Foreign.Extra)}
		}
		d.Items[i] = &c
	}
	return &d
}

func finite(v any) any {
	switch x := v.(type) {
	case noggin.Number:
		switch x {
		case "NaN", "Infinity", "-Infinity":
			return nil
		}
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = finite(e)
		}
		return out
	case noggin.Map:
		out := make(noggin.Map, len(x))
		for i, f := range x {
			out[i] = noggin.Field{Name: f.Name, Value: finite(f.Value)}
		}
		return out
	}
	return v
}

// FuzzSaveString: any (valid UTF-8) string saved as a key, title, note,
// unknown field name or value loads back unchanged, in YAML and JSON, and
// through the large-file paths (checkFastPaths).
func FuzzSaveString(f *testing.F) {
	for _, s := range append(append([]string{}, fragments...), singleStrings()...) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		ca := s
		doc := noggin.NewDocument()
		doc.Active = s
		doc.Items = append(doc.Items, &noggin.Item{Key: s, Title: s, CreatedAt: &ca, Notes: []noggin.Note{{Timestamp: s, Text: s}}})
		if _, idx := jsIndexKey(s); !idx && s != "" {
			switch s {
			case fSchemaVersion, fActive, fItems:
			default:
				doc.Extra = []noggin.Field{{Name: s, Value: noggin.Map{{Name: s, Value: []any{s}}}}}
				doc.Order = []string{fSchemaVersion, fActive, fItems, s}
			}
		}
		for _, json := range []bool{false, true} {
			var text []byte
			var back *noggin.Document
			var err error
			if json {
				text = EncodeJSON(doc)
				back, err = DecodeJSON(text)
			} else {
				text = EncodeYAML(doc)
				back, err = DecodeYAML(text)
				checkFastAgrees(t, text)
				if err == nil {
					checkFastPaths(t, text)
				}
			}
			if err != nil {
				t.Fatalf("json=%v: %v\n%s", json, err, text)
			}
			if !reflect.DeepEqual(doc, back) {
				t.Fatalf("json=%v: %s\n%s", json, deepDiff("doc", reflect.ValueOf(doc), reflect.ValueOf(back)), text)
			}
		}
	})
}
