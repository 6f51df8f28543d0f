package codec

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/sampledoc"
)

// -jsyaml=<node_modules dir with js-yaml 4.2.0 (the original pins it)> regenerates
// testdata/jsyaml/{cases.jsonl,dumps.json}: random hostile documents and
// what the original tool's YAML library (and JSON.stringify) writes for
// them.
var jsyamlDir = flag.String("jsyaml", "", "node_modules directory holding js-yaml 4.2.0 (the original pins it); regenerate testdata/jsyaml")

const jsyamlDirPath = "testdata/jsyaml"

func jsyamlCases() []*noggin.Document {
	r := rand.New(rand.NewSource(99))
	var docs []*noggin.Document
	for i := 0; i < 300; i++ {
		docs = append(docs, randDoc(r, true))
	}
	docs = append(docs, sampledoc.Doc(150, 3))
	// single strings at every level, one document per string
	for _, s := range append(fragments, singleStrings()...) {
		d := noggin.NewDocument()
		ca := s
		d.Items = append(d.Items, &noggin.Item{Key: s, Title: s, CreatedAt: &ca, Notes: []noggin.Note{{Timestamp: s, Text: s}}})
		d.Active = s
		docs = append(docs, d)
	}
	return docs
}

// singleStrings are targeted cases for quoting and folding.
func singleStrings() []string {
	var out []string
	for _, w := range []int{88, 89, 90, 91, 93, 94, 95, 97, 98, 99, 100, 101} {
		out = append(out, strings.Repeat("a", w), strings.Repeat("ab ", w/3+1)[:w], strings.Repeat("x", w-5)+" tail")
	}
	out = append(out,
		// js-yaml 4.2 reads these as strings and writes them plain (4.1
		// read some as numbers), or as numbers and quotes them.
		"1_000", "0b1_0", "0o1_0", "0x1_0", "1__0", "1e400", "-1e400", "1e-400", "+.5", "-.5", "+1.", "1.", "0.",
		"1.5e+400", ".5e999", "0o8", "+0x1F", "-0b1", strings.Repeat("9", 400), "0x"+strings.Repeat("f", 300),
		// Lone surrogates (WTF-8 in Go, UTF-16 code units in JavaScript).
		"a\xed\xa0\x80b", "\xed\xaf\xbf", "x\xed\xb0\x80", "\xed\xbf\xbf\xed\xa0\x80 two", strings.Repeat("long \xed\xa0\x80 ", 30),
		"word "+strings.Repeat("y", 120)+" end",
		strings.Repeat("one two  three   ", 12),
		"lead\n  indented line "+strings.Repeat("z ", 60)+"\nback",
		strings.Repeat("long line with words ", 8)+"\n"+strings.Repeat("second long line ", 8)+"\n",
		"\n"+strings.Repeat("starts with newline ", 8),
		" "+strings.Repeat("leading space ", 10),
		strings.Repeat("😀 ", 50),
		strings.Repeat("é", 120),
		"a\n\n\nb", "x\n\n", "\n", "\n\n", " \n", "a\n ", "\ta", "a\t", "tab\tinside\nnewline",
		"key: value", "a :b", "a: ", "ends:", "http://x.y/z", "#tag", "a #b", "a#b", "!important", "&ref", "*star",
		"- item", "-x", "--", "? q", "?q", ": c", ":c", "[x]", "{y}", "|pipe", ">gt", "%pct", "@at", "`tick", "=eq", "a,b",
		"it's", "'quoted'", `"dq"`, "\\back", "0", "-0", "00", "0777", "0o17", "0b101", "0x_1", "1_000", "1__0", "_1", "1_",
		"1.", "+.5", "-.5", ".5e3", "1e", "1e+5", "1E5", "1:20", "-1:20:30.5", "2026-01-01", "2026-1-1", "2026-01-01 10:00",
		"2026-01-01t10:00:00.5+01", "2026-01-01T10:00:00 Z", "<<", "~", "null ", " null", "Yes", "YES", "yEs", "oN", "Off",
		"\u00a0", "a\u00a0b", "\u0085", "\u2028", "\ufeff", "\x7f", "\x00", "\r", "a\rb", "a\r\nb",
	)
	return out
}

func TestJSYAMLGolden(t *testing.T) {
	if *jsyamlDir != "" {
		regenerateJSYAML(t)
	}
	cases, err := os.ReadFile(filepath.Join(jsyamlDirPath, "cases.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(jsyamlDirPath, "dumps.json"))
	if err != nil {
		t.Fatal(err)
	}
	var dumps []struct{ YAML, JSON string }
	if err := json.Unmarshal(raw, &dumps); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(cases)), "\n")
	if len(lines) != len(dumps) {
		t.Fatalf("%d cases, %d dumps", len(lines), len(dumps))
	}
	for i, line := range lines {
		doc, err := DecodeJSON([]byte(line))
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if j := EncodeJSON(doc); string(j) != dumps[i].JSON {
			t.Errorf("case %d: EncodeJSON differs from JSON.stringify:\n%s", i, lineDiff(dumps[i].JSON, string(j)))
		}
		got := EncodeYAML(doc)
		if string(got) != dumps[i].YAML {
			t.Errorf("case %d: EncodeYAML differs from js-yaml:\n%s", i, lineDiff(dumps[i].YAML, string(got)))
			continue
		}
		back, err := DecodeYAML(got)
		if err != nil {
			t.Errorf("case %d: DecodeYAML: %v", i, err)
			continue
		}
		if !reflect.DeepEqual(doc, back) {
			t.Errorf("case %d: YAML round trip: %s", i, deepDiff("doc", reflect.ValueOf(doc), reflect.ValueOf(back)))
		}
	}
}

func lineDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return fmt.Sprintf("line %d:\njs-yaml: %q\ngo:      %q", i+1, w, g)
		}
	}
	return "?"
}

func regenerateJSYAML(t *testing.T) {
	t.Helper()
	var buf bytes.Buffer
	for _, d := range jsyamlCases() {
		var c bytes.Buffer
		if err := json.Compact(&c, EncodeJSON(d)); err != nil {
			t.Fatal(err)
		}
		buf.Write(c.Bytes())
		buf.WriteByte('\n')
	}
	casesPath := filepath.Join(jsyamlDirPath, "cases.jsonl")
	if err := os.WriteFile(casesPath, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", filepath.Join(jsyamlDirPath, "dump.js"), casesPath)
	cmd.Env = append(os.Environ(), "NODE_PATH="+*jsyamlDir)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(jsyamlDirPath, "dumps.json"), out, 0o644); err != nil {
		t.Fatal(err)
	}
}
