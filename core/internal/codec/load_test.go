package codec

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/noggin-go/noggin/core/noggin"
)

const specDoc = `schemaVersion: 1
active: i-20261202-125224-2292b0
items:
  - key: i-20261202-125224-2292b0
    parentKey: null
    title: root
    done: false
    createdAt: '2026-12-02T12:52:24.117Z'
    notes:
      - timestamp: '2026-12-02T12:52:25.111Z'
        text: |-
          line1
          line2
  - key: i-20261202-125224-827892
    parentKey: i-20261202-125224-2292b0
    title: kid
    done: true
    createdAt: '2026-12-02T12:52:24.280Z'
    notes:
      - timestamp: '2026-12-02T12:52:25.416Z'
        text: closed
`

func hdr(items string) string { return "schemaVersion: 1\nactive: null\nitems:\n" + items }

func item(fields string) string {
	return hdr("  - key: a\n    parentKey: null\n" + fields)
}

// loadCases are hand-written YAML inputs: the layouts people and other
// tools write. What js-yaml 4.2 loads from each is recorded in
// testdata/jsyaml/loads.jsonl (regenerated with -jsyaml).
var loadCases = []string{
	specDoc,
	"# my noggin\n" + specDoc + "# end\n",
	strings.ReplaceAll(specDoc, "\n  - key", "\n\n  - key"),
	strings.ReplaceAll(specDoc, "\n", "\r\n"),
	"\ufeff" + specDoc,
	"---\n" + specDoc,
	"---\n" + specDoc + "...\n",
	strings.ReplaceAll(specDoc, "root\n", "root   \n"),
	strings.ReplaceAll(specDoc, "root\n", "root # a comment\n"),
	strings.ReplaceAll(specDoc, "  - key", "- key"),
	"schemaVersion: 1\nactive: null\nitems:\n    -   key: a\n        parentKey: null\n        title: four spaces\n        done: false\n        notes:\n            -   timestamp: null\n                text: x\n",
	`{"schemaVersion": 1, "active": null, "items": [{"key": "a", "parentKey": null, "title": "t", "done": false, "notes": []}]}`,
	"{\n  \"schemaVersion\": 1,\n  \"active\": \"a\",\n  \"items\": [\n    {\n      \"key\": \"a\",\n      \"parentKey\": null,\n      \"title\": \"\\u00e9\\ud83d\\ude00 \\/ \\\"q\\\"\",\n      \"done\": true,\n      \"notes\": []\n    }\n  ]\n}\n",
	"schemaVersion: 1\nactive: null\nitems: [{key: a, parentKey: null, title: flow, done: false, notes: [{timestamp: null, text: hi}]}]\n",
	item("    title: \"tab\\there \\u00e9 \\x41 \\U0001F600 \\N \\_ \\L \\P \\0 \\a \\e \\/ \\\\ \\\" \\\n      continued\"\n    done: false\n    notes: []\n"),
	item("    title: 'single\n      quoted  multi\n\n      line'\n    done: false\n    notes: []\n"),
	item("    title: plain\n      multi line\n\n      scalar\n    done: false\n    notes: []\n"),
	item("    title: |\n      keep one\n    done: false\n    notes: []\n"),
	item("    title: |+\n      keep all\n\n\n    done: false\n    notes: []\n"),
	item("    title: >\n      folded\n      text\n\n      para\n        more indented\n      back\n    done: false\n    notes: []\n"),
	item("    title: >-\n      folded strip\n      text\n    done: false\n    notes: []\n"),
	item("    title: |2-\n        two extra\n      base\n    done: false\n    notes: []\n"),
	item("    title: |-\n\n      leading blank\n    done: false\n    notes: []\n"),
	item("    title: |-\n      trailing spaces   \n       \n      x\n    done: false\n    notes: []\n"),
	item("    title: |\n      at end of doc\n    done: false\n    notes:\n      - timestamp: null\n        text: |\n          last\n\n"),
	item("    title: |-\n      no final newline\n    done: false\n    notes: []"),
	item("    title:\n    done:\n    createdAt:\n    notes: []\n"),
	item("    title: ~\n    done: yes\n    notes: []\n"),
	item("    title: 0x1F\n    done: 1\n    createdAt: 12:30\n    notes: []\n"),
	item("    title: -.5\n    done: 0.0\n    notes: []\n"),
	item("    title: 1_000\n    done: .inf\n    notes: []\n"),
	item("    title: 'it''s'\n    done: false\n    notes: []\n"),
	item("    title: it's plain\n    done: false\n    notes: []\n"),
	item("    title: a#b c\n    done: false\n    notes: []\n"),
	item("    title: a: b\n    done: false\n    notes: []\n"),
	item("    title: \"unterminated\n    done: false\n    notes: []\n"),
	item("    title:\tx\n    done: false\n    notes: []\n"),
	item("\ttitle: x\n    done: false\n    notes: []\n"),
	item("    'title': quoted key\n    \"done\": false\n    notes: []\n"),
	item("    title: x\n    done: false\n    notes: []\n    extra:\n      nested: [1, two, {three: 3}]\n      list:\n      - a\n      - - b\n        - c\n"),
	item("    title: x\n    done: false\n    notes: []\n    ? complex\n    : value\n"),
	item("    title: x\n    done: false\n    notes: []\n    1: one\n    0: zero\n"),
	item("    title: &t anchored\n    done: false\n    notes: []\n    copy: *t\n"),
	item("    title: !!str 123\n    done: !!bool true\n    notes: []\n"),
	item("    title: x\n    done: false\n    notes:\n    - timestamp: '2026-01-01T00:00:00.000Z'\n      text: unindented sequence\n    - {timestamp: null, text: flow note}\n"),
	item("    title: x\n    done: false\n    notes:\n      - text: only text\n      - text: \"\"\n        timestamp: ''\n        extra: dropped\n"),
	item("    title: x\n    done: false\n    notes: []\n    title: dup\n"),
	"schemaVersion: 1\nactive: null\nitems: []\nitems: []\n",
	"schemaVersion: 1\nactive: null\nitems: []\n\x07\n",
	"schemaVersion: 1\nactive: 'a\nitems: []\n",
	"schemaVersion: 1\nactive: null\nitems:\n  - key: a\n   title: bad indent\n",
	"schemaVersion: 1\nactive: null\nitems:\n  - key: a\n    notes: []\n  -\n",
	"schemaVersion: 1\nactive: null\nitems:\n  - key: a\n    notes: []\n  - null\n",
	"schemaVersion: 1\nactive: null\nitems: []\n" + strings.Repeat("k", 1100) + ": long key\n",
	"schemaVersion: 1\nactive: null\nitems: []\nextra: " + strings.Repeat("word ", 300) + "\n",
	"  schemaVersion: 1\n  active: null\n  items: []\n",
	"schemaVersion: 1\nactive: null\nitems: []\n# trailing comment\n\n\n",
	"schemaVersion: 1 # the version\nactive: null # none\nitems: [] # empty\n",
	"schemaVersion: 1\nactive: null\nitems: []\n%YAML 1.2\n",
	"%YAML 1.2\n---\nschemaVersion: 1\nactive: null\nitems: []\n",
	"schemaVersion: 1\nactive: null\nitems: []\nbase: &b {x: 1}\nmerged:\n  <<: *b\n  y: 2\n",
	"schemaVersion: 1\nactive: null\nitems: []\nlist: &l [1, 2]\nagain: *l\n",
	"schemaVersion: 1\r\nactive: x\r\nitems:\r\n  - key: x\r\n    notes:\r\n      - text: |\r\n          crlf\r\n          block\r\n",
	"schemaVersion: 1\nactive: null\nitems: []\nu: \"\\ud83d\\ude00\"\n",
	"schemaVersion: 1\nactive: null\nitems: []\nnbsp: a\u00a0b\nemoji: 😀 x\nls: \"\\u2028\"\n",
	"schemaVersion: 1\nactive: null\nitems: []\nfolded: >-\n  " + strings.Repeat("word ", 30) + "\n  next\n",
	"schemaVersion: 1\nactive: null\nitems: []\nempty_block: |-\nnext: 1\n",
	"schemaVersion: 1\nactive: null\nitems: []\nempty_flow: {}\nempty_seq: []\n",
	"schemaVersion: 1\nactive: null\nitems: [\n  {key: a, notes: [\n    {text: x}]},\n  {key: b, notes: []}\n]\n",
	item("    title:    spaced out   \n    done: false\n    notes: []\n"),
	item("    title: x\t\n    done: false\n    notes: []\n"),
	item("    title:\n      on the next line\n    done: false\n    notes: []\n"),
	item("    title: 'a' # quoted then comment\n    done: false\n    notes: []\n"),
	item("    title: x\n    done: false\n    notes: \n"),
	item("    title: x\n    done: false\n    notes:\n      - [a, b]\n"),
	item("    title: |\n      # not a comment\n      key: not a key\n    # a real comment\n    done: false\n    notes: []\n"),
	item("    titel: typo\n    done: false\n    notes: []\n    \"quoted \\u0041 key\": v\n"),
	item("    title: ünïcödé ключ 🎉\n    ключ: значение\n    done: false\n    notes: []\n"),
	"schemaVersion: 1\nactive: null\nitems:\n",
	"---\n",
	"--- |\n  text\n",
	"schemaVersion: 1\nactive: null\nitems: []\n...\ngarbage: [\n",
	"schemaVersion: 1\nactive: null\nitems:\n  # comment before first item\n  - key: a\n    notes: []\n    # trailing comment\n",
	"schemaVersion: 1\nactive: null\nitems:\n  - key: a\n    notes: []\n  - key: b\n    parentKey: a\n    notes:\n    - text: same-indent notes\n    - text: second\n",
	"schemaVersion: 1\nactive: null\nitems:\n  - key: a\n    title: >2\n       more\n      base\n\n\n      after blanks\n    notes: []\n",
	"schemaVersion: 1\nactive: null\nitems:\n  - key: a\n    title: |-\n        deeper first\n      shallower\n    notes: []\n",
	"schemaVersion: 1\nactive: null\nitems:\n  - key: a\n    title: >-\n\n      starts blank\n      folded\n    notes: []\n",
	"schemaVersion: 1\nactive: null\nitems:\n  - key: a\n    title: |\n      tab\there\n    notes: []\n",
	"schemaVersion: 1\nactive: null\nitems:\n  - key: a\n    title: >\n      \tmore by tab\n      x\n    notes: []\n",
	"schemaVersion: 1\nactive: \"\"\nitems: []\n",
	"schemaVersion: 1\nactive: 12\nitems: []\n",
	"schemaVersion: 1\nactive: [a]\nitems: []\n",
	"schemaVersion: 01\nactive: null\nitems: []\n",
	"schemaVersion: 1.0e0\nactive: null\nitems: []\n",
	"schemaVersion: +1\nactive: null\nitems: []\n",
	"schemaVersion: !!int '1'\nactive: null\nitems: []\n",
	"schemaVersion: 1\nactive: null\nitems: []\nx: !!binary aGVsbG8=\n",
	"schemaVersion: 1\nactive: null\nitems: []\nx: !!timestamp 2026-01-01\n",
	"schemaVersion: 1\nactive: null\nitems: []\nx: !!float 1\n",
	"schemaVersion: 1\nactive: null\nitems: []\nx: !!null ''\n",
	"schemaVersion: 1\nactive: null\nitems: []\nx: !!set {a, b}\n",
	"schemaVersion: 1\nactive: null\nitems: []\nx: !!omap [{a: 1}]\n",
	"schemaVersion: 1\nactive: null\nitems: []\nx: ! 12\n",
	"schemaVersion: 1\nactive: null\nitems: []\n? [a, b]\n: seq key\n? {a: 1}\n: map key\n",
	"schemaVersion: 1\nactive: null\nitems: []\nnull: 1\ntrue: 2\n1.50: 3\n",
	"schemaVersion: 1\nactive: null\nitems: []\n~: 1\nnull: 2\n",
	"schemaVersion: 1\nactive: null\nitems: []\n1: a\n'1': b\n",
	"schemaVersion: 1\nactive: null\nitems: []\nmerge:\n  <<: [{a: 1}, {a: 2, b: 2}]\n  b: 3\n",
	"schemaVersion: 1\nactive: null\nitems: []\nx: 'multi\n\n  line\n  single'\ny: \"multi\n  line  \\\n  double\"\n",
	"schemaVersion: 1\nactive: null\nitems: []\nx: plain\n\n  with blank\n",
	"schemaVersion:    1\nactive:    null\nitems:    []\n",
	"{schemaVersion: 1, active: null, items: []}\n",
	"{\"schemaVersion\": 1, \"active\": null, \"items\": [], \"k\": \"\\/\"}\n",
	"{\"schemaVersion\": 1, \"active\": null, \"items\": [], \"k\": \"\\u0000\"}\n",
	"{\"schemaVersion\": 1, \"active\": null, \"items\": [], \"k\": 1e400}\n",
	"[1, 2]\n",
	"\"just a string\"\n",
	"schemaVersion: 1\nactive: null\nitems: []\nanchor: &a\n  x: 1\nref: *a\nref2: *a\n",
	"schemaVersion: 1\nactive: null\nitems: []\nundefined_alias: *nope\n",
	// Scalars that look like numbers to YAML 1.1 or js-yaml 4.1, and that
	// the original's js-yaml 4.2 reads (and writes) as strings, or not.
	"schemaVersion: 1\nactive: null\nitems:\n  - key: a\n    parentKey: null\n    title: 1_000\n    done: false\n    notes:\n      - {timestamp: null, text: 1e400}\n",
	"schemaVersion: 1\nactive: null\nitems: []\nn: [1_000, 0b1_0, 0o1_0, 0x1_0, 1__0, _1, 1_, 1e400, -1e400, 1e-400, +.5, -.5, +1., 1., 0., 00, 09, 0o8, 0b2, 0x, 0b, +0x1F, -0b1, 1.5e+400, .5e999, 1e, 1_0.5, 1_0:3_0, 1:30]\n",
	"schemaVersion: 1\nactive: null\nitems: []\nn: [" + strings.Repeat("9", 400) + ", 0x" + strings.Repeat("f", 300) + ", 0x" + strings.Repeat("f", 200) + ", 0b" + strings.Repeat("1", 1100) + "]\n",
	"{\"schemaVersion\": 1, \"active\": null, \"items\": [], \"k\": [-1e400, 1e-400, -0, 1E5, " + strings.Repeat("9", 400) + "]}\n",
}

// fallbackGaps are inputs js-yaml loads but the general parser (a YAML 1.1
// parser) refuses; they fail with invalid-document unless the fast reader
// or the JSON pre-parse handles them.
var fallbackGaps = map[string]string{
	loadCases[12]:  "surrogate-pair \\u escapes (handled by the JSON pre-parse)",
	loadCases[14]:  "the \\/ escape in a multi-line double-quoted scalar",
	loadCases[53]:  "implicit keys longer than 1024 characters",
	loadCases[63]:  "surrogate-pair \\u escapes in YAML double-quoted scalars",
	loadCases[88]:  "a tab as the first character of a folded block line",
	loadCases[112]: "the \\/ escape (JSON text; handled by the JSON pre-parse)",
}

// knownDiffs are inputs this package deliberately reads differently from
// js-yaml (documented in the package doc).
var knownDiffs = map[string]string{
	loadCases[96]:  "!!binary stays its base64 text (js-yaml: a Uint8Array)",
	loadCases[97]:  "!!timestamp stays a string (js-yaml: a Date)",
	loadCases[99]:  "!!null on a quoted empty scalar is accepted",
	loadCases[102]: "the non-specific tag ! is not seen by the general parser (12 stays a number)",
}

// fromJSView undoes jsView for a value read from loads.jsonl.
func fromJSView(v any) any {
	switch x := v.(type) {
	case string:
		if n, ok := strings.CutPrefix(x, "NUMBER:"); ok {
			return noggin.Number(n)
		}
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = fromJSView(e)
		}
		return out
	case noggin.Map:
		out := make(noggin.Map, len(x))
		for i, f := range x {
			out[i] = noggin.Field{Name: f.Name, Value: fromJSView(f.Value)}
		}
		return out
	}
	return v
}

var loadGoldenPaths = struct{ cases, loads string }{
	filepath.Join(jsyamlDirPath, "load-cases.json"), filepath.Join(jsyamlDirPath, "loads.jsonl"),
}

// jsView converts a generic value to what JSON.stringify shows of the
// JavaScript value (non-finite numbers as "NUMBER:<n>", as load.js does).
func jsView(v any) any {
	switch x := v.(type) {
	case noggin.Number:
		switch x {
		case "NaN", "Infinity", "-Infinity":
			return "NUMBER:" + string(x)
		case "-0":
			return noggin.Number("0")
		}
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = jsView(e)
		}
		return out
	case noggin.Map:
		out := make(noggin.Map, len(x))
		for i, f := range x {
			out[i] = noggin.Field{Name: f.Name, Value: jsView(f.Value)}
		}
		return out
	}
	return v
}

// The general parser path (yaml.v3 + js-yaml scalar rules) loads what
// js-yaml loads, and fails where js-yaml fails; DecodeYAML (fast reader
// included) gives the normalised form of the same value.
func TestLoadMatchesJSYAML(t *testing.T) {
	if *jsyamlDir != "" {
		b, _ := json.MarshalIndent(loadCases, "", " ")
		if err := os.WriteFile(loadGoldenPaths.cases, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("node", filepath.Join(jsyamlDirPath, "load.js"), loadGoldenPaths.cases)
		cmd.Env = append(os.Environ(), "NODE_PATH="+*jsyamlDir)
		cmd.Stderr = os.Stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(loadGoldenPaths.loads, out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	raw, err := os.ReadFile(loadGoldenPaths.cases)
	if err != nil {
		t.Fatal(err)
	}
	var cases []string
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(cases, loadCases) {
		t.Fatal("load cases changed: regenerate with -jsyaml")
	}
	loads, err := os.ReadFile(loadGoldenPaths.loads)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(loads)), "\n")
	for i, text := range cases {
		res, err := parseJSON([]byte(lines[i]), false)
		if err != nil {
			t.Fatalf("case %d: bad golden: %v", i, err)
		}
		m := res.(noggin.Map)
		want, hasValue := get(m, "value")
		jsErr, hasErr := get(m, "error")
		_, undef := get(m, "undefined")

		if _, diff := knownDiffs[text]; diff {
			continue
		}
		got, present, perr := parseYAMLGeneric([]byte(text))
		switch {
		case hasErr:
			if perr == nil {
				t.Errorf("case %d: js-yaml fails (%v), general parser loads %s", i, jsErr, appendJSONValue(nil, jsView(got), 0))
			}
		case perr != nil:
			if _, gap := fallbackGaps[text]; !gap {
				t.Errorf("case %d: general parser fails: %v", i, perr)
			}
		case undef:
			if present && got != nil {
				t.Errorf("case %d: js-yaml loads nothing", i)
			}
		case hasValue:
			w := string(appendJSONValue(nil, want, 0))
			g := string(appendJSONValue(nil, jsView(got), 0))
			if w != g {
				t.Errorf("case %d: general parser differs from js-yaml:\n%s", i, lineDiff(w, g))
			}
		}

		// End to end: DecodeYAML equals the normalisation of what js-yaml
		// loaded (or fails when js-yaml fails).
		doc, derr := DecodeYAML([]byte(text))
		if hasErr {
			if derr == nil {
				t.Errorf("case %d: DecodeYAML accepts what js-yaml rejects", i)
			}
			continue
		}
		if !hasValue {
			continue
		}
		if _, gap := fallbackGaps[text]; gap && derr != nil {
			continue
		}
		wdoc, werr := normalize(fromJSView(want), false)
		if (werr == nil) != (derr == nil) || (werr != nil && werr.Error() != derr.Error()) {
			t.Errorf("case %d: DecodeYAML error %v, want %v", i, derr, werr)
			continue
		}
		if werr == nil && !reflect.DeepEqual(doc, wdoc) {
			t.Errorf("case %d: DecodeYAML: %s", i, deepDiff("doc", reflect.ValueOf(wdoc), reflect.ValueOf(doc)))
		}
	}
}
