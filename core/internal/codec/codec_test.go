package codec

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/noggin-go/noggin/core/jstext"
	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/sampledoc"
)

// The two example documents of docs/file-format.md load and save back
// byte-identical (YAML), and the JSON example likewise with EncodeJSON.
func TestSpecExamplesByteIdentical(t *testing.T) {
	for _, tc := range []struct {
		file string
		json bool
	}{
		{"spec-example.yaml", false},
		{"spec-empty.yaml", false},
		{"spec-example.json", true},
	} {
		t.Run(tc.file, func(t *testing.T) {
			in, err := os.ReadFile(filepath.Join("testdata", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			var doc *noggin.Document
			var out []byte
			if tc.json {
				doc, err = DecodeJSON(in)
				if err == nil {
					out = EncodeJSON(doc)
				}
			} else {
				doc, err = DecodeYAML(in)
				if err == nil {
					out = EncodeYAML(doc)
				}
			}
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(in, out) {
				t.Errorf("round trip differs:\n--- in\n%s--- out\n%s", in, out)
			}
		})
	}
}

func TestSpecExampleContent(t *testing.T) {
	in, _ := os.ReadFile("testdata/spec-example.yaml")
	doc, err := DecodeYAML(in)
	if err != nil {
		t.Fatal(err)
	}
	if doc.Active != "i-20261202-125224-2292b0" || len(doc.Items) != 2 {
		t.Fatalf("doc = %+v", doc)
	}
	it := doc.Items[0]
	if it.Title != "root" || it.ParentKey != "" || it.Done || *it.CreatedAt != "2026-12-02T12:52:24.117Z" ||
		it.Notes[0].Text != "line1\nline2" || it.Foreign != nil || doc.Order != nil {
		t.Errorf("item = %+v", it)
	}
	if !doc.Items[1].Done || doc.Items[1].ParentKey != it.Key || doc.Items[1].Notes[0].Text != "closed" {
		t.Errorf("item 2 = %+v", doc.Items[1])
	}
}

func errOf(t *testing.T, err error) *noggin.Error {
	t.Helper()
	var ne *noggin.Error
	if !errors.As(err, &ne) {
		t.Fatalf("error %v (%T) is not a noggin error", err, err)
	}
	return ne
}

// Codec-level cases of docs/cli.md (160–174) plus the other
// normalisation rules of docs/file-format.md.
func TestDecodeErrors(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		json     bool
		code     string
		msg      string // exact, or prefix when it ends with "…"
		noData   bool
		exitCode int
	}{
		{"160 schemaVersion 99", "schemaVersion: 99\nactive: null\nitems: []\n", false,
			noggin.CodeUnsupportedSchema, "schemaVersion 99 not supported by this build (expected 1).", true, 2},
		{"161 string schemaVersion", "schemaVersion: \"1\"\nactive: null\nitems: []\n", false,
			noggin.CodeUnsupportedSchema, "schemaVersion 1 not supported by this build (expected 1).", true, 2},
		{"161 missing schemaVersion", "active: null\nitems: []\n", false,
			noggin.CodeUnsupportedSchema, "schemaVersion undefined not supported by this build (expected 1).", true, 2},
		{"161 null schemaVersion", "schemaVersion:\nactive: null\nitems: []\n", false,
			noggin.CodeUnsupportedSchema, "schemaVersion null not supported by this build (expected 1).", true, 2},
		{"161 schemaVersion 1.5", "schemaVersion: 1.5\nactive: null\nitems: []\n", false,
			noggin.CodeUnsupportedSchema, "schemaVersion 1.5 not supported by this build (expected 1).", true, 2},
		{"162 no active", "schemaVersion: 1\nitems: []\n", false,
			noggin.CodeInvalidDocument, "expected active field", true, 2},
		{"163 no items", "schemaVersion: 1\nactive: null\n", false,
			noggin.CodeInvalidDocument, "expected items array", true, 2},
		{"163 items mapping", "schemaVersion: 1\nactive: null\nitems: {}\n", false,
			noggin.CodeInvalidDocument, "expected items array", true, 2},
		{"164 not yaml", ": : : not yaml", false,
			noggin.CodeInvalidDocument, "failed to parse YAML: …", true, 2},
		{"164 bad indentation", "schemaVersion: 1\n active: null\nitems: []\n", false,
			noggin.CodeInvalidDocument, "failed to parse YAML: …", true, 2},
		{"duplicate key", "schemaVersion: 1\nactive: null\nactive: null\nitems: []\n", false,
			noggin.CodeInvalidDocument, "failed to parse YAML: …", true, 2},
		{"duplicate item key", "schemaVersion: 1\nactive: null\nitems:\n  - key: a\n    key: b\n    notes: []\n", false,
			noggin.CodeInvalidDocument, "failed to parse YAML: …", true, 2},
		{"duplicate key json in yaml", `{"schemaVersion": 1, "active": null, "active": null, "items": []}`, false,
			noggin.CodeInvalidDocument, "failed to parse YAML: …", true, 2},
		{"165 scalar", "hello", false,
			noggin.CodeInvalidDocument, "expected a mapping at the top level", true, 2},
		{"165 null", "null\n", false,
			noggin.CodeInvalidDocument, "expected a mapping at the top level", true, 2},
		{"165 comment only", "# nothing\n", false,
			noggin.CodeInvalidDocument, "expected a mapping at the top level", true, 2},
		{"top-level sequence", "- 1\n- 2\n", false,
			noggin.CodeUnsupportedSchema, "schemaVersion undefined not supported by this build (expected 1).", true, 2},
		{"168 item without notes", "schemaVersion: 1\nactive: null\nitems:\n  - key: a\n    parentKey: null\n    title: x\n    done: false\n", false,
			noggin.CodeInvalidDocument, "item notes must be an array", true, 2},
		{"168 notes not array", "schemaVersion: 1\nactive: null\nitems:\n  - key: a\n    notes: hi\n", false,
			noggin.CodeInvalidDocument, "item notes must be an array", true, 2},
		{"item not a mapping", "schemaVersion: 1\nactive: null\nitems:\n  - a\n", false,
			noggin.CodeInvalidDocument, "item notes must be an array", true, 2},
		{"169 note without text", "schemaVersion: 1\nactive: null\nitems:\n  - key: a\n    notes:\n      - timestamp: x\n", false,
			noggin.CodeInvalidNote, "invalid note object", true, 2},
		{"169 note scalar", "schemaVersion: 1\nactive: null\nitems:\n  - key: a\n    notes:\n      - hi\n", false,
			noggin.CodeInvalidNote, "invalid note object", true, 2},
		{"multiple documents", "schemaVersion: 1\nactive: null\nitems: []\n---\nfoo: 1\n", false,
			noggin.CodeInvalidDocument, "failed to parse YAML: …", true, 2},
		{"unknown tag", "schemaVersion: 1\nactive: !foo x\nitems: []\n", false,
			noggin.CodeInvalidDocument, "failed to parse YAML: …", true, 2},
		{"json parse error", `{"schemaVersion": 1,`, true,
			noggin.CodeInvalidDocument, "failed to parse JSON: …", true, 2},
		{"json array", `[1]`, true,
			noggin.CodeInvalidDocument, "expected an object at the top level", true, 2},
		{"json null", `null`, true,
			noggin.CodeInvalidDocument, "expected an object at the top level", true, 2},
		{"json schema", `{"schemaVersion": "1", "active": null, "items": []}`, true,
			noggin.CodeUnsupportedSchema, "schemaVersion 1 not supported by this build (expected 1).", true, 2},
		{"json missing active", `{"schemaVersion": 1, "items": []}`, true,
			noggin.CodeInvalidDocument, "expected active field", true, 2},
		{"json note without text", `{"schemaVersion": 1, "active": null, "items": [{"key": "a", "notes": [{"timestamp": "x"}]}]}`, true,
			noggin.CodeInvalidNote, "invalid note object", true, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			if tc.json {
				_, err = DecodeJSON([]byte(tc.in))
			} else {
				_, err = DecodeYAML([]byte(tc.in))
			}
			if err == nil {
				t.Fatal("no error")
			}
			ne := errOf(t, err)
			if ne.Code != tc.code || ne.ExitCode != tc.exitCode {
				t.Errorf("code %s/%d, want %s/%d (%s)", ne.Code, ne.ExitCode, tc.code, tc.exitCode, ne.Message)
			}
			if p, ok := strings.CutSuffix(tc.msg, "…"); ok {
				if !strings.HasPrefix(ne.Message, p) || len(ne.Message) <= len(p) {
					t.Errorf("message %q, want prefix %q", ne.Message, p)
				}
			} else if ne.Message != tc.msg {
				t.Errorf("message %q, want %q", ne.Message, tc.msg)
			}
			if tc.noData && len(ne.Data) != 0 {
				t.Errorf("data %v, want none", ne.Data)
			}
		})
	}
}

func str(s string) *string { return &s }

// Normalisation results (docs/file-format.md steps 1, 7, 8 and the
// not-checked-on-read list).
func TestDecodeNormalises(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		json bool
		want *noggin.Document
	}{
		{"166 empty", "", false, noggin.NewDocument()},
		{"166 whitespace", " \n\t \n", false, noggin.NewDocument()},
		{"166 whitespace json", "  \n", true, noggin.NewDocument()},
		{"170 note without timestamp", "schemaVersion: 1\nactive: null\nitems:\n  - key: a\n    parentKey: null\n    title: t\n    done: false\n    notes:\n      - text: hi\n", false,
			&noggin.Document{Items: []*noggin.Item{{Key: "a", Title: "t", Notes: []noggin.Note{{Text: "hi"}}}}}},
		{"note conversions", "schemaVersion: 1\nactive: null\nitems:\n  - key: a\n    parentKey: null\n    title: t\n    done: false\n    notes:\n" +
			"      - {timestamp: '', text: 5}\n      - {timestamp: 0, text: null}\n      - {timestamp: 7, text: true, extra: x}\n      - {timestamp: 2026-01-01T00:00:00Z, text: [1, 2]}\n", false,
			&noggin.Document{Items: []*noggin.Item{{Key: "a", Title: "t", Notes: []noggin.Note{
				{Text: "5"}, {Text: "null"}, {Timestamp: "7", Text: "true"}, {Timestamp: "2026-01-01T00:00:00Z", Text: "1,2"}}}}}},
		{"167 legacy and extra fields (json)", `{"schemaVersion": 1, "active": null, "items": [{"key": "a", "parentKey": null, "title": "t", "done": false, "closedAt": "x", "extra": 42, "notes": []}], "topExtra": {"z": [true]}}`, true,
			&noggin.Document{
				Items: []*noggin.Item{{Key: "a", Title: "t", Notes: []noggin.Note{}, Foreign: &noggin.Foreign{
					Order: []string{"key", "parentKey", "title", "done", "extra", "notes"},
					Extra: []noggin.Field{{Name: "extra", Value: noggin.Number("42")}}}}},
				Order: []string{"schemaVersion", "active", "items", "topExtra"},
				Extra: []noggin.Field{{Name: "topExtra", Value: noggin.Map{{Name: "z", Value: []any{true}}}}},
			}},
		{"hand-written scalars", "schemaVersion: 1.0\nactive: k\nitems:\n  - key: k\n    parentKey:\n    title: 123\n    done: yes\n    createdAt: 2026-01-01T00:00:00Z\n    pushedAt: x\n    notes: []\n", false,
			&noggin.Document{Active: "k", Items: []*noggin.Item{{Key: "k", Title: "123", Done: true, CreatedAt: str("2026-01-01T00:00:00Z"), Notes: []noggin.Note{}}}}},
		{"null createdAt kept in order", "schemaVersion: 1\nactive: null\nitems:\n  - key: k\n    parentKey: null\n    title: x\n    done: 0\n    createdAt: null\n    notes: []\n", false,
			&noggin.Document{Items: []*noggin.Item{{Key: "k", Title: "x", Notes: []noggin.Note{},
				Foreign: &noggin.Foreign{Order: []string{"key", "parentKey", "title", "done", "createdAt", "notes"}}}}}},
		{"number forms", "schemaVersion: 0x1\nactive: null\nitems: []\nn: [0o17, 1_000, 1e3, .5, -0, .inf, -.Inf, .nan, 012, 1e21, 0.0000001, 1:30]\n", false,
			&noggin.Document{Items: []*noggin.Item{},
				Order: []string{"schemaVersion", "active", "items", "n"},
				Extra: []noggin.Field{{Name: "n", Value: []any{noggin.Number("15"), "1_000", noggin.Number("1000"), noggin.Number("0.5"),
					noggin.Number("0"), noggin.Number("Infinity"), noggin.Number("-Infinity"), noggin.Number("NaN"), noggin.Number("12"),
					noggin.Number("1e+21"), noggin.Number("1e-7"), "1:30"}}}}},
		{"integer keys first", "schemaVersion: 1\nactive: null\nitems: []\nb: 1\n10: x\n2: y\n", false,
			&noggin.Document{Items: []*noggin.Item{},
				Order: []string{"2", "10", "schemaVersion", "active", "items", "b"},
				Extra: []noggin.Field{{Name: "2", Value: "y"}, {Name: "10", Value: "x"}, {Name: "b", Value: noggin.Number("1")}}}},
		{"json duplicate key last wins", `{"schemaVersion": 1, "active": "a", "items": [], "active": "b"}`, true,
			&noggin.Document{Active: "b", Items: []*noggin.Item{}}},
		{"anchors and merge", "schemaVersion: 1\nactive: null\nbase: &b {title: t, done: true}\nitems:\n  - <<: *b\n    key: k\n    notes: []\n", false,
			&noggin.Document{Items: []*noggin.Item{{Key: "k", Title: "t", Done: true, Notes: []noggin.Note{},
				Foreign: &noggin.Foreign{Order: []string{"title", "done", "key", "notes"}}}},
				Order: []string{"schemaVersion", "active", "base", "items"},
				Extra: []noggin.Field{{Name: "base", Value: noggin.Map{{Name: "title", Value: "t"}, {Name: "done", Value: true}}}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got *noggin.Document
			var err error
			if tc.json {
				got, err = DecodeJSON([]byte(tc.in))
			} else {
				got, err = DecodeYAML([]byte(tc.in))
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %s\nwant %s", dump(got), dump(tc.want))
			}
		})
	}
}

func dump(d *noggin.Document) string {
	if d == nil {
		return "<nil>"
	}
	return string(EncodeJSON(d)) + "order=" + strings.Join(d.Order, ",") + itemOrders(d)
}

func itemOrders(d *noggin.Document) string {
	var b strings.Builder
	for _, it := range d.Items {
		b.WriteString(" [" + strings.Join(it.FieldOrder(), ",") + "]")
	}
	return b.String()
}

// Scalar styles of docs/file-format.md "YAML encoding", as values of an
// item field (level 3: block indentation 6, line width 94).
func TestScalarStyles(t *testing.T) {
	long := strings.Repeat("word ", 30) + "end"
	for _, tc := range []struct{ in, want string }{
		{"root", "root"},
		{"", "''"},
		{"123", "'123'"}, {"1.5", "'1.5'"}, {"0x1F", "'0x1F'"}, {"1e3", "'1e3'"}, {".5", "'.5'"}, {"+1", "'+1'"},
		{"true", "'true'"}, {"yes", "'yes'"}, {"No", "'No'"}, {"on", "'on'"}, {"y", "'y'"},
		{"null", "'null'"}, {"~", "'~'"}, {"1:30", "'1:30'"},
		{"2026-06-16T18:46:44.071Z", "'2026-06-16T18:46:44.071Z'"}, {"2026-06-16", "'2026-06-16'"},
		{"a: b", "'a: b'"}, {"a #b", "'a #b'"}, {"a#b", "a#b"}, {"a:b", "a:b"}, {"ends:", "'ends:'"},
		{"- x", "'- x'"}, {"-x", "'-x'"}, {"#x", "'#x'"}, {"@x", "'@x'"}, {"`x", "'`x'"}, {"{x", "'{x'"},
		{"[x", "'[x'"}, {"*x", "'*x'"}, {"&x", "'&x'"}, {"!x", "'!x'"}, {"%x", "'%x'"}, {"?x", "'?x'"}, {"-", "'-'"},
		{" lead", "' lead'"}, {"trail ", "'trail '"}, {"it's", "it's"}, {"'q'", "'''q'''"}, {"x, y", "x, y"},
		{"a\tb", `"a\tb"`}, {"a\x00b\x1b\x7f\u0085\u00a0\u2028\ufeff", `"a\0b\e\x7F\N\_\L\uFEFF"`},
		{"line1\nline2", "|-\n      line1\n      line2"},
		{"line1\n", "|\n      line1"},
		{"a\n\n", "|+\n      a\n"},
		{" indented\nx", "|2-\n       indented\n      x"},
		{"😀 emoji", "😀 emoji"},
		{long, ">-\n      " + strings.Repeat("word ", 18) + "word\n      " + strings.Repeat("word ", 11) + "end"},
		{strings.Repeat("x", 120), ">-\n      " + strings.Repeat("x", 120)},
	} {
		got := string(appendScalar(nil, tc.in, 3, false))
		if got != tc.want {
			t.Errorf("%q:\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

func TestJSONStrings(t *testing.T) {
	in := "<>&\u2028\u2029\x00\x1f\"\\é😀\t\n\r\b\f\x7f"
	want := `"<>&` + "\u2028\u2029" + `\u0000\u001f\"\\é😀\t\n\r\b\f` + "\x7f" + `"`
	if got := string(jstext.AppendString(nil, in)); got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}

func TestAppendReusesBuffer(t *testing.T) {
	in, _ := os.ReadFile("testdata/spec-example.yaml")
	doc, err := DecodeYAML(in)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 0, 4096)
	buf = append(buf, "prefix"...)
	out := appendYAML(buf, doc)
	if string(out[6:]) != string(in) || &out[0] != &buf[:1][0] {
		t.Errorf("AppendYAML: %q", out)
	}
	if j := appendJSON(nil, doc); string(j) != string(EncodeJSON(doc)) {
		t.Errorf("AppendJSON differs from EncodeJSON")
	}
}

// writeYAML/writeJSON stream exactly EncodeYAML/EncodeJSON, across many
// flushes, and report the writer's error.
func TestWriteStreams(t *testing.T) {
	doc := sampledoc.Doc(2000, 8)
	var y, j bytes.Buffer
	if err := writeYAML(&y, doc); err != nil {
		t.Fatal(err)
	}
	if err := writeJSON(&j, doc); err != nil {
		t.Fatal(err)
	}
	if y.String() != string(EncodeYAML(doc)) || j.String() != string(EncodeJSON(doc)) {
		t.Fatal("streamed text differs")
	}
	if y.Len() < 3*flushSize {
		t.Fatalf("test document too small to flush (%d bytes)", y.Len())
	}
	if err := writeYAML(failWriter{}, doc); err == nil || err.Error() != "disk full" {
		t.Fatalf("error %v", err)
	}
}

// TestWriteInParallel: a list long enough to be encoded on two goroutines
// streams exactly EncodeYAML's bytes — with unknown fields, key orders and
// a top-level field after the items — and a failing writer stops it.
func TestWriteInParallel(t *testing.T) {
	for _, n := range []int{parallelItems, parallelItems + blockItems*3 + 17} {
		doc := sampledoc.Doc(n, int64(n))
		doc.Items[7].Foreign = &noggin.Foreign{Order: []string{"title", "key", "parentKey", "done", "notes", "color"},
			Extra: []noggin.Field{{Name: "color", Value: "blue"}}}
		doc.Items[n-1].Foreign = &noggin.Foreign{Extra: []noggin.Field{{Name: "x", Value: noggin.Number("1")}}}
		doc.Order = []string{"schemaVersion", "items", "active", "extra"}
		doc.Extra = []noggin.Field{{Name: "extra", Value: true}}
		var y bytes.Buffer
		if err := writeYAML(&y, doc); err != nil {
			t.Fatal(err)
		}
		if y.String() != string(EncodeYAML(doc)) {
			t.Fatalf("n=%d: the text encoded in parallel differs", n)
		}
		if err := writeYAML(failWriter{}, doc); err == nil || err.Error() != "disk full" {
			t.Fatalf("error %v", err)
		}
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// The encoders' results expose no spare (uninitialised) capacity.
func TestEncodeResultCapacity(t *testing.T) {
	doc := sampledoc.Doc(50, 1)
	for _, b := range [][]byte{EncodeYAML(doc), EncodeJSON(doc), EncodeYAML(noggin.NewDocument())} {
		if cap(b) != len(b) {
			t.Fatalf("cap %d, len %d", cap(b), len(b))
		}
	}
}
