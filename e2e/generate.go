package e2e

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/noggin-go/noggin/core/request"
)

// The differential fuzzer's sequences: random steps of every verb with
// every option, run on the three surfaces (and mixed on one file); every
// envelope and the final file must be byte-identical. A generated scenario
// has no goldens: the surfaces are compared with each other only.

// Chooser makes the generator's choices.
type Chooser interface {
	// Intn returns a number in [0, n).
	Intn(n int) int
}

// SeededChooser draws choices from a fixed-seed PCG source.
type SeededChooser struct{ r *rand.Rand }

// NewSeededChooser returns the chooser for seed.
func NewSeededChooser(seed uint64) *SeededChooser {
	return &SeededChooser{rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

// Intn implements Chooser.
func (c *SeededChooser) Intn(n int) int { return c.r.IntN(n) }

// ByteChooser draws choices from a byte string (the fuzz engine's input);
// once it is used up every choice is 0.
type ByteChooser struct{ b []byte }

// NewByteChooser returns the chooser reading b.
func NewByteChooser(b []byte) *ByteChooser { return &ByteChooser{b} }

// Intn implements Chooser.
func (c *ByteChooser) Intn(n int) int {
	if len(c.b) == 0 || n <= 1 {
		return 0
	}
	v := int(c.b[0])
	c.b = c.b[1:]
	if n > 256 && len(c.b) > 0 {
		v = v<<8 | int(c.b[0])
		c.b = c.b[1:]
	}
	return v % n
}

// Exhausted reports whether every byte was used.
func (c *ByteChooser) Exhausted() bool { return len(c.b) == 0 }

// HostileText is the text corpus: every character JavaScript's trim strips
// and some it keeps, control characters, escape sequences, newlines, emoji,
// combining marks, right-to-left text, quotes, YAML words and long lines.
var HostileText = []string{
	"plain", "two words", "  padded  ", "\ufeffbom", "\u0085", "\u0085nel\u0085", "\u00a0nbsp\u00a0",
	"\u3000ideographic\u3000", "\u3000", "\u2028", "line\u2029sep", "\u200bzero\u200b", "\u200b",
	"\t", "tab\there", "new\nline", "\r\n", "two\n/1/2 ✅ fake item", "evil\x1b[2J\x1b[31mred",
	"\x1b]0;title\x07", "bell\x07", "\x7f", "\x01\x02", "🧠🚀", "e\u0301\u0301", "שלום עולם", "\u202eevil",
	`say "hi"`, `back\slash`, "it's", "a: b", "# hash", "- dash", "-x", "-h", "--draft", "--", "-", "+",
	"yes", "no", "null", "~", "true", "0x1F", "1e3", "2024-01-01", "0", "1.50", "[a]", "{b: c}", "&anchor",
	"*ref", "!tag", "%", "@", "`", "|", ">", "",
	// js-yaml 4.2's scalar rules (the original's engine): strings, not numbers.
	"1_000", "0b1_0", "0x1_0", "1e400", "+.5", "-0", ".inf", ".NaN", "0o17",
	strings.Repeat("x", 1000), strings.Repeat("word ", 200), "/1", "..", "2/1",
}

// PathForms are paths of every form: valid, out of range, malformed, empty.
var PathForms = []string{
	"/1", "/1/1", "/1/2", "/2", "/1/1/1", ".", "..", "-", "+", "1", "2", "2/1", "../1", "-/1", "+/1",
	"./1", "../..", "/9", "/1/9/9", "9", "//", "/x", "a/b", "/1/", "01", "/01/002", "-1", " /1", "/1 ", "/", "",
	"@k-alpha", "@k-root1/2", "@k-alpha/1", "@k-gone", "@", "@k-beta/", "@k-root2/9",
}

var gotoForms = []string{"", ".", "..", "+", "-", "1", "/1", "/1/2", "/9", "../1", "x", "@k-beta", "@k-gone"}

// fuzzFixture is the noggin every generated sequence starts from (or none).
const fuzzFixture = `schemaVersion: 1
active: k-alpha
items:
  - key: k-root1
    parentKey: null
    title: root1
    done: false
    createdAt: '2026-01-01T00:00:00.000Z'
    notes: []
  - key: k-alpha
    parentKey: k-root1
    title: alpha
    done: false
    createdAt: '2026-01-01T00:00:00.000Z'
    notes:
      - timestamp: '2026-01-01T00:00:01.000Z'
        text: first note
  - key: k-alphakid
    parentKey: k-alpha
    title: alpha-kid
    done: true
    createdAt: '2026-01-01T00:00:00.000Z'
    notes: []
  - key: k-beta
    parentKey: k-root1
    title: beta
    done: false
    createdAt: '2026-01-01T00:00:00.000Z'
    notes: []
  - key: k-root2
    parentKey: null
    title: root2
    done: false
    createdAt: '2026-01-01T00:00:00.000Z'
    notes: []
`

// providers is left out: its answer depends on the surface (the clients
// also open remote noggins), not on the input (the corpus covers it).
var fuzzVerbs = slices.DeleteFunc(slices.Clone(request.Verbs), func(v string) bool { return v == "providers" })

func pick(c Chooser, xs []string) string { return xs[c.Intn(len(xs))] }

// genStep draws one step line (not necessarily expressible everywhere).
func genStep(c Chooser) string {
	verb := pick(c, fuzzVerbs)
	// Weight the writing verbs up a little.
	if c.Intn(4) == 0 {
		verb = pick(c, []string{"push", "add", "note", "edit", "move"})
	}
	parts := []string{verb}
	val := func(k, v string) { parts = append(parts, k+"="+strconv.Quote(v)) }
	for _, o := range verbOptions[verb] {
		if c.Intn(3) != 0 && o != "title" && o != "text" && o != "query" && o != "since" {
			continue
		}
		switch o {
		case "title", "text", "query":
			if c.Intn(8) == 0 {
				continue
			}
			t := pick(c, HostileText)
			if c.Intn(4) == 0 {
				t = pick(c, HostileText) + " " + pick(c, HostileText)
			}
			val(o, t)
		case "path", "before", "after", "into", "under":
			val(o, pick(c, PathForms))
		case "goto":
			if g := pick(c, gotoForms); g == "" {
				parts = append(parts, "goto")
			} else {
				val(o, g)
			}
		case "from", "to":
			val(o, pick(c, []string{"noggin.yaml", "other.yaml", "missing.yaml"}))
		case "limit":
			val(o, pick(c, []string{"1", "2", "50", "0", "-1", "1.5", "x", " 3", ""}))
		case "ifRevision": // a stale one (the right one depends on the bytes), or none
			val(o, pick(c, []string{"crc:1:0000000000000000", ""})) // crc:0:… is the empty noggin's
		case "since": // the newest answer's revision, the first step's, one no history knows, none
			val(o, pick(c, []string{"$REV", "$REV", "$REV1", "$REV2", "crc:1:0000000000000000", "", " "}))
		case "by", "forget":
			val(o, pick(c, []string{"alice", "bob", "nobody", "bad name", "-x", ""}))
		case "window":
			val(o, pick(c, []string{"1", "2", "5", "0"})) // digits: "x" is invalid-argument on MCP, invalid-option on the CLI
		case "maxBytes":
			val(o, pick(c, []string{"0", "1024", "2000", "100"}))
		case "format": // text: the CLI's words, compared as text (TextForm)
			val(o, pick(c, []string{"json", "text", "yaml"}))
		default: // booleans
			parts = append(parts, o)
		}
	}
	if verb != "copy" && c.Intn(4) == 0 { // an agent's own cursor (noggin-mcp: one server each)
		val("agent", pick(c, []string{"alice", "bob"}))
	}
	return strings.Join(parts, " ")
}

// Expressible reports whether a step runs the same way on every surface
// (the CLI's argv, an MCP tool call and the RPC Call method).
func Expressible(s *Scenario, st *Step) bool {
	if _, err := CLIArgs(s, st); err != nil {
		return false
	}
	if _, _, err := MCPCall(s, st); err != nil {
		return false
	}
	_, err := ToolArgs(s, st)
	return err == nil
}

// GenScenario draws a sequence of up to maxSteps steps that every surface
// can express, starting from the fuzz fixture or from no file.
func GenScenario(c Chooser, name string, maxSteps int) *Scenario {
	s := &Scenario{Name: name, Comment: "A generated sequence of the differential fuzzer.", Generated: true}
	if c.Intn(5) != 0 {
		s.Sections = append(s.Sections, &Section{Kind: KindFile, Header: "noggin.yaml", Name: "noggin.yaml", Body: []byte(fuzzFixture)})
	}
	n := 1 + c.Intn(maxSteps)
	for tries := 0; len(s.Steps()) < n && tries < 20*n; tries++ {
		line := genStep(c)
		st, err := ParseStep(line)
		if err != nil {
			panic(fmt.Sprintf("generated step %q does not parse: %v", line, err))
		}
		if !Expressible(s, st) {
			continue
		}
		s.Sections = append(s.Sections, &Section{Kind: KindStep, Header: "> " + line, Step: st})
	}
	return s
}

// WithSteps returns a copy of s that keeps only the steps at the indices.
func (s *Scenario) WithSteps(keep []int) *Scenario {
	c := *s
	c.Sections = nil
	want := map[int]bool{}
	for _, k := range keep {
		want[k] = true
	}
	i := 0
	for _, sec := range s.Sections {
		if sec.Kind == KindStep {
			if !want[i] {
				i++
				continue
			}
			i++
		}
		c.Sections = append(c.Sections, sec)
	}
	return &c
}
