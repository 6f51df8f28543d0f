package codec

import (
	"bytes"
	"encoding/json"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/sampledoc"
)

// checkFastAgrees decodes text with the fast reader and, when it accepts,
// requires the general path to give the identical document. It reports
// whether the fast reader accepted.
func checkFastAgrees(t testing.TB, text []byte) bool {
	t.Helper()
	fast, ok := decodeFastSplit(text, 1<<62) // one pass
	// Read in two halves from every split size, the same document comes
	// out (or the reader gives up the same way).
	for _, m := range []int{1, 40, len(text) / 3, len(text) / 2} {
		split, sok := decodeFastSplit(text, m)
		if sok != ok || ok && !reflect.DeepEqual(split, fast) {
			t.Fatalf("read in two halves (from %d bytes): ok %v vs %v, %s\n%s", m, sok, ok,
				deepDiff("doc", reflect.ValueOf(fast), reflect.ValueOf(split)), text)
		}
	}
	if !ok {
		return false
	}
	// Nothing of the input stays in the document: a store may unmap the
	// file it read once the document is built.
	scratch := bytes.Clone(text)
	kept, _ := decodeFastSplit(scratch, len(text)/2)
	for i := range scratch {
		scratch[i] = 0xff
	}
	if !reflect.DeepEqual(kept, fast) {
		t.Fatalf("the document changes with the input it was read from:\n%s", text)
	}
	slow, err := decodeYAMLSlow(text)
	if err != nil {
		t.Fatalf("fast reader accepts, general parser fails (%v):\n%s", err, text)
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("fast reader and general parser differ: %s\n%s",
			deepDiff("doc", reflect.ValueOf(slow), reflect.ValueOf(fast)), text)
	}
	return true
}

// The fast reader takes every document EncodeYAML writes for generated
// documents (so benchmarks measure it) and gives what the general parser
// gives.
func TestFastAcceptsGenerated(t *testing.T) {
	for _, n := range []int{0, 1, 10, 1000} {
		doc := sampledoc.Doc(n, int64(n)+11)
		text := EncodeYAML(doc)
		if !checkFastAgrees(t, text) {
			t.Fatalf("n=%d: fast reader gave up on a generated document", n)
		}
		got, _ := decodeFastSplit(text, parallelMin)
		if !reflect.DeepEqual(got, doc) {
			t.Fatalf("n=%d: %s", n, deepDiff("doc", reflect.ValueOf(doc), reflect.ValueOf(got)))
		}
	}
	// The agents' cursors (noggin.Through), which the fast reader reads too.
	withCursors := sampledoc.Doc(10, 3)
	withCursors.Order = []string{"schemaVersion", "active", "items", noggin.CursorsField}
	withCursors.Extra = []noggin.Field{{Name: noggin.CursorsField, Value: noggin.Map{
		{Name: "alice", Value: withCursors.Items[2].Key}, {Name: "bob-2.x_y", Value: nil}}}}
	text := EncodeYAML(withCursors)
	if !checkFastAgrees(t, text) {
		t.Fatalf("fast reader gave up on cursors:\n%s", text)
	}
	if got, _ := decodeFastSplit(text, parallelMin); !reflect.DeepEqual(got, withCursors) {
		t.Fatalf("cursors: %s", deepDiff("doc", reflect.ValueOf(withCursors), reflect.ValueOf(got)))
	}
	for _, f := range []string{"spec-example.yaml", "spec-empty.yaml"} {
		text, err := os.ReadFile(filepath.Join("testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		if !checkFastAgrees(t, text) {
			t.Errorf("%s: fast reader gave up", f)
		}
	}
}

// Fast reader vs general parser on the property-test documents, the
// js-yaml dumps and the hand-written inputs.
func TestFastAgreesWithGeneral(t *testing.T) {
	accepted, total := 0, 0
	try := func(text []byte) {
		total++
		if checkFastAgrees(t, text) {
			accepted++
		}
	}
	r := rand.New(rand.NewSource(5))
	for i := 0; i < 2000; i++ {
		try(EncodeYAML(randDoc(r, false)))
	}
	t.Logf("property documents: fast reader accepted %d of %d", accepted, total)
	if accepted < total/4 {
		t.Errorf("fast reader accepted only %d of %d property documents", accepted, total)
	}
	raw, err := os.ReadFile(filepath.Join(jsyamlDirPath, "dumps.json"))
	if err != nil {
		t.Fatal(err)
	}
	var dumps []struct{ YAML string }
	if err := json.Unmarshal(raw, &dumps); err != nil {
		t.Fatal(err)
	}
	accepted, total = 0, 0
	for _, d := range dumps {
		try([]byte(d.YAML))
	}
	t.Logf("js-yaml dumps: fast reader accepted %d of %d", accepted, total)
	for _, c := range loadCases {
		try([]byte(c))
	}
	for _, c := range fastVariants {
		if !checkFastAgrees(t, []byte(c)) {
			t.Errorf("fast reader gave up on a supported variant:\n%s", c)
		}
	}
}

// fastVariants are hand-written layouts the fast reader must take.
var fastVariants = []string{
	strings.ReplaceAll(specDoc, "\n  ", "\n"),
	strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(specDoc, "\n      - timestamp", "\n    - timestamp"), "\n        text", "\n      text"), "\n          line", "\n        line"),
	strings.ReplaceAll(specDoc, "root\n", "root   # note\n"),
	item("    title: \"esc \\t \\\" \\\\ \\u00e9 \\x41\"\n    done: yes\n    createdAt: 2026-01-01T00:00:00Z\n    pushedAt: x\n    notes: []\n"),
	item("    title: |+\n      keep\n\n    done: 1\n    notes:\n      - text: >\n          folded\n          text\n\n           more\n          back\n"),
	"active: null\nitems:\n  - notes: []\n    key: b\nschemaVersion: 1\n",
	"# my noggin\n\n" + strings.ReplaceAll(strings.ReplaceAll(specDoc, "\n  - key", "\n\n  # next item\n  - key"), "    notes:\n", "    notes:\n      # the log\n\n") + "\n# end\n",
	hdr("  - key: a\n    parentKey: null\n    title: ~\n    done:\n    notes:\n      - timestamp: 0\n        text: 12\n      - text: 0x1F\n        timestamp: .5\n"),
}

// The decoders keep no reference to the input buffer: overwriting it after
// decoding changes nothing (the store reuses its read buffers).
func TestDecodeDoesNotRetainInput(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	inputs := [][]byte{EncodeYAML(sampledoc.Doc(300, 9)), []byte(specDoc)}
	for _, c := range fastVariants {
		inputs = append(inputs, []byte(c))
	}
	for i := 0; i < 200; i++ {
		inputs = append(inputs, EncodeYAML(randDoc(r, false)))
	}
	for _, in := range inputs {
		for _, dec := range []func([]byte) (*noggin.Document, error){DecodeYAML, DecodeJSON, decodeYAMLSlow} {
			buf := append([]byte(nil), in...)
			doc, err := dec(buf)
			if err != nil {
				continue
			}
			for i := range buf {
				buf[i] = 'x'
			}
			want, _ := dec(in)
			if !reflect.DeepEqual(doc, want) {
				t.Fatalf("document changed when the input buffer was overwritten:\n%s", in)
			}
		}
		if jsonText := EncodeJSON(mustDecode(t, in)); true {
			buf := append([]byte(nil), jsonText...)
			doc, err := DecodeJSON(buf)
			if err != nil {
				t.Fatal(err)
			}
			for i := range buf {
				buf[i] = 'x'
			}
			if want, _ := DecodeJSON(jsonText); !reflect.DeepEqual(doc, want) {
				t.Fatalf("JSON document changed when the input buffer was overwritten")
			}
		}
	}
}

func mustDecode(t *testing.T, in []byte) *noggin.Document {
	t.Helper()
	d, err := DecodeYAML(in)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestSpecialWords: the eight-bytes-at-once checks of plain and checkText
// flag a word exactly when one of its bytes needs a look.
func TestSpecialWords(t *testing.T) {
	for pos := range 8 {
		for c := range 256 {
			w := []byte("abcdefgh")
			w[pos] = byte(c)
			x := load64(string(w), 0)
			if got, want := plainSpecial(x), plainClass[c] != 0; got != want {
				t.Errorf("plainSpecial with %#x at %d = %v", c, pos, got)
			}
			if got, want := textSpecial(x), c < 0x20 || c >= 0x7F; got != want {
				t.Errorf("textSpecial with %#x at %d = %v", c, pos, got)
			}
		}
	}
}
