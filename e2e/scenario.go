// Package e2e drives the three noggin surfaces (the CLI, the MCP server and
// the RPC server) with one surface-neutral scenario corpus and checks that
// they answer with byte-identical envelopes and leave byte-identical files.
//
// A scenario is a txtar-like file in testdata/scenarios. Its sections are:
//
//	-- NAME --                 a fixture file written into the scenario
//	                           directory before the first step ($PID and
//	                           $NOWMS are replaced by the test process id and
//	                           the current epoch milliseconds)
//	-- dir NAME --             a fixture directory (body ignored)
//	-- generate NAME items=N --  a deterministic N-item fixture noggin
//	-- > VERB OPTIONS --       a step; its body is the expected envelope
//	-- > [cli,rpc] VERB … --   a step that only runs on the named surfaces
//	-- > [mcp-alt] VERB … --   a surface's substitute for the restricted steps
//	                           before it (same effect on the file, e.g. goto
//	                           instead of MCP's missing show goto): runs in
//	                           that surface's own run, never in mixed mode
//	-- final NAME --           the expected content of a file after the run
//	-- final NAME sha256 --    the same, as "<sha256 hex> <size>" for big files
//
// Options are key=value (value bare, or a Go-quoted string; $REV and $REVn
// name answers' revisions, see WithRevisions) or a bare key
// (boolean true; for goto: "go to the verb's target"). The text before the
// first section is a free-form description. Files below the work
// directory appear relative to it in expected bodies (see Normalizer).
package e2e

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/noggin-go/noggin/core/request"
)

// Surface names.
const (
	CLI = "cli"
	MCP = "mcp"
	RPC = "rpc"
)

// AllSurfaces lists the surfaces in the order mixed mode deals steps.
var AllSurfaces = []string{CLI, MCP, RPC}

// Scenario is one parsed scenario file.
type Scenario struct {
	// Name is the file name without .txtar; it is also the scenario's
	// directory (relative to the work directory) and so part of locations.
	Name    string
	Comment string
	// Generated marks a sequence of the differential fuzzer: it has no
	// goldens, and its surfaces are compared with each other only.
	Generated bool
	// Sections in file order (fixtures, steps, finals).
	Sections []*Section
	// Base, when set, prefixes the scenario's relative locations: remote
	// mode points the CLI and noggin-mcp at http://HOST:PORT/<scenario>/….
	Base string
}

// SectionKind tells what a section is.
type SectionKind int

// Section kinds.
const (
	KindFile SectionKind = iota
	KindDir
	KindGenerate
	KindStep
	KindFinal
)

// Section is one "-- header --" block.
type Section struct {
	Kind   SectionKind
	Header string
	Name   string // file name (fixtures, finals)
	Items  int    // generate
	Sha    bool   // final given as hash
	Step   *Step
	Body   []byte
}

// Step is one verb call.
type Step struct {
	// Line is the step as written (without the leading "> ").
	Line string
	// Surfaces restricts the step to these surfaces (nil = all).
	Surfaces []string
	// Alt marks a substitute step, skipped in mixed mode.
	Alt  bool
	Verb string
	Opts []Opt
}

// WithRevisions is the step with each option valued $REV given the
// revision of the newest answer in outs that names one, and each valued
// $REVn that of step n's answer (1-based): the revisions a file gives and
// the ones a team database gives differ, so steps name them so.
func (st *Step) WithRevisions(outs []*Outcome) *Step {
	if !slices.ContainsFunc(st.Opts, func(o Opt) bool { return strings.HasPrefix(o.Val, "$REV") }) {
		return st
	}
	c := *st
	c.Opts = slices.Clone(st.Opts)
	for i, o := range c.Opts {
		n, ok := strings.CutPrefix(o.Val, "$REV")
		if !ok {
			continue
		}
		if n == "" {
			for k := len(outs) - 1; k >= 0 && c.Opts[i].Val == o.Val; k-- {
				if r := outcomeRevision(outs[k]); r != "" {
					c.Opts[i].Val = r
				}
			}
		} else if k, err := strconv.Atoi(n); err == nil && k >= 1 && k <= len(outs) {
			c.Opts[i].Val = outcomeRevision(outs[k-1])
		}
	}
	return &c
}

// outcomeRevision is the revision an outcome's envelope names ("" for none).
func outcomeRevision(o *Outcome) string {
	if o == nil {
		return ""
	}
	var env struct {
		Revision string `json:"revision"`
	}
	if json.Unmarshal(o.Text, &env) != nil {
		return ""
	}
	return env.Revision
}

// Opt is one option of a step.
type Opt struct {
	Key    string
	Val    string
	HasVal bool
}

// Steps returns the step sections in order.
func (s *Scenario) Steps() []*Section {
	var out []*Section
	for _, sec := range s.Sections {
		if sec.Kind == KindStep {
			out = append(out, sec)
		}
	}
	return out
}

// Finals returns the expected final files.
func (s *Scenario) Finals() []*Section {
	var out []*Section
	for _, sec := range s.Sections {
		if sec.Kind == KindFinal {
			out = append(out, sec)
		}
	}
	return out
}

// Runs reports whether the step runs on surface.
func (st *Step) Runs(surface string) bool {
	if st.Surfaces == nil {
		return true
	}
	for _, s := range st.Surfaces {
		if s == surface {
			return true
		}
	}
	return false
}

// Get returns an option's value and whether it is present.
func (st *Step) Get(key string) (Opt, bool) {
	for _, o := range st.Opts {
		if o.Key == key {
			return o, true
		}
	}
	return Opt{}, false
}

// Str returns the option's string value ("" when absent or bare).
func (st *Step) Str(key string) string {
	o, _ := st.Get(key)
	return o.Val
}

// Has reports whether the option is present.
func (st *Step) Has(key string) bool {
	_, ok := st.Get(key)
	return ok
}

// Flag reports whether a boolean option is set (bare, or =true).
func (st *Step) Flag(key string) bool {
	o, ok := st.Get(key)
	return ok && (!o.HasVal || o.Val == "true")
}

// verbOptions lists the options each verb understands: its structured
// arguments in core (hidden ones too, which fail as on the CLI) and its CLI
// flags (edit's done and open), but not the noggin — every verb but copy
// and providers takes that — or edit's state, which the CLI spells as
// flags, or show's watch, which never ends.
var verbOptions = func() map[string][]string {
	m := map[string][]string{}
	for _, v := range request.Catalog() {
		opts := []string{}
		add := func(o string) {
			if o != "noggin" && o != "state" && o != "watch" && !slices.Contains(opts, o) {
				opts = append(opts, o)
			}
		}
		for _, p := range v.Params {
			add(p.Name)
		}
		for _, f := range v.Flags {
			add(camel(f))
		}
		m[v.Name] = opts
	}
	return m
}()

// camel turns close-all into closeAll.
func camel(s string) string {
	parts := strings.Split(s, "-")
	for i := 1; i < len(parts); i++ {
		parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
	}
	return strings.Join(parts, "")
}

// ParseStep parses a step line such as `add title="a b" into=/1 goto`.
func ParseStep(line string) (*Step, error) {
	st := &Step{Line: line}
	rest := strings.TrimSpace(line)
	if strings.HasPrefix(rest, "[") {
		end := strings.IndexByte(rest, ']')
		if end < 0 {
			return nil, fmt.Errorf("unterminated surface list in %q", line)
		}
		st.Surfaces = []string{}
		for _, s := range strings.Split(rest[1:end], ",") {
			s = strings.TrimSpace(s)
			if t, ok := strings.CutSuffix(s, "-alt"); ok {
				s, st.Alt = t, true
			}
			if s != CLI && s != MCP && s != RPC {
				return nil, fmt.Errorf("unknown surface %q in %q", s, line)
			}
			st.Surfaces = append(st.Surfaces, s)
		}
		rest = strings.TrimSpace(rest[end+1:])
	}
	verb, rest, _ := strings.Cut(rest, " ")
	st.Verb = verb
	allowed, ok := verbOptions[verb]
	if !ok {
		return nil, fmt.Errorf("unknown verb %q in %q", verb, line)
	}
	for {
		rest = strings.TrimLeft(rest, " ")
		if rest == "" {
			break
		}
		i := 0
		for i < len(rest) && (rest[i] >= 'a' && rest[i] <= 'z' || rest[i] >= 'A' && rest[i] <= 'Z') {
			i++
		}
		if i == 0 {
			return nil, fmt.Errorf("bad option at %q in %q", rest, line)
		}
		o := Opt{Key: rest[:i]}
		rest = rest[i:]
		if strings.HasPrefix(rest, "=") {
			o.HasVal = true
			rest = rest[1:]
			if strings.HasPrefix(rest, `"`) {
				q, err := strconv.QuotedPrefix(rest)
				if err != nil {
					return nil, fmt.Errorf("bad quoted value at %q in %q: %w", rest, line, err)
				}
				o.Val, _ = strconv.Unquote(q)
				rest = rest[len(q):]
			} else {
				end := strings.IndexByte(rest, ' ')
				if end < 0 {
					end = len(rest)
				}
				o.Val = rest[:end]
				rest = rest[end:]
			}
		} else if rest != "" && rest[0] != ' ' {
			return nil, fmt.Errorf("bad option at %q in %q", rest, line)
		}
		// extra=NAME passes an argument NAME the verb does not take (MCP
		// and RPC only: the CLI's grammar has no such input).
		// agent=NAME runs the step for that agent (CLI --agent, noggin-mcp
		// --agent, RPC's Noggin-Agent header).
		opens := verb != "copy" && verb != "providers"
		known := (o.Key == "noggin" || o.Key == "agent") && opens || o.Key == "extra"
		for _, k := range allowed {
			known = known || k == o.Key
		}
		if !known {
			return nil, fmt.Errorf("verb %s has no option %q (in %q)", verb, o.Key, line)
		}
		if st.Has(o.Key) {
			return nil, fmt.Errorf("option %q repeated in %q", o.Key, line)
		}
		st.Opts = append(st.Opts, o)
	}
	return st, nil
}

// Q formats a step option value: bare when that parses back, else quoted.
func Q(v string) string {
	if v != "" && !strings.ContainsAny(v, " \"\\\t\n\r") && strconv.IsPrint(firstRune(v)) && isPrintable(v) {
		return v
	}
	return strconv.Quote(v)
}

func firstRune(s string) rune {
	for _, r := range s {
		return r
	}
	return 0
}

func isPrintable(s string) bool {
	for _, r := range s {
		if !strconv.IsPrint(r) {
			return false
		}
	}
	return true
}

// ParseScenario parses a scenario file.
func ParseScenario(name string, data []byte) (*Scenario, error) {
	s := &Scenario{Name: name}
	var cur *Section
	var comment []byte
	lines := bytes.SplitAfter(data, []byte("\n"))
	for _, ln := range lines {
		if len(ln) == 0 {
			continue
		}
		if h, ok := header(ln); ok {
			sec, err := parseHeader(h)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			s.Sections = append(s.Sections, sec)
			cur = sec
			continue
		}
		if cur == nil {
			comment = append(comment, ln...)
		} else {
			cur.Body = append(cur.Body, ln...)
		}
	}
	s.Comment = string(comment)
	for _, sec := range s.Sections {
		if sec.Body == nil {
			sec.Body = []byte{}
		}
	}
	return s, nil
}

func header(ln []byte) (string, bool) {
	l := strings.TrimRight(string(ln), "\n")
	if strings.HasPrefix(l, "-- ") && strings.HasSuffix(l, " --") && len(l) >= 6 {
		return strings.TrimSpace(l[3 : len(l)-3]), true
	}
	return "", false
}

func parseHeader(h string) (*Section, error) {
	sec := &Section{Header: h}
	switch {
	case strings.HasPrefix(h, "> "):
		st, err := ParseStep(h[2:])
		if err != nil {
			return nil, err
		}
		sec.Kind, sec.Step = KindStep, st
	case strings.HasPrefix(h, "final "):
		sec.Kind = KindFinal
		f := strings.Fields(h[len("final "):])
		if len(f) == 0 || len(f) > 2 || len(f) == 2 && f[1] != "sha256" {
			return nil, fmt.Errorf("bad final header %q", h)
		}
		sec.Name, sec.Sha = f[0], len(f) == 2
	case strings.HasPrefix(h, "dir "):
		sec.Kind, sec.Name = KindDir, strings.TrimSpace(h[4:])
	case strings.HasPrefix(h, "generate "):
		f := strings.Fields(h[len("generate "):])
		if len(f) != 2 || !strings.HasPrefix(f[1], "items=") {
			return nil, fmt.Errorf("bad generate header %q", h)
		}
		n, err := strconv.Atoi(strings.TrimPrefix(f[1], "items="))
		if err != nil {
			return nil, fmt.Errorf("bad generate header %q", h)
		}
		sec.Kind, sec.Name, sec.Items = KindGenerate, f[0], n
	default:
		if strings.ContainsAny(h, " ") {
			return nil, fmt.Errorf("bad section header %q", h)
		}
		sec.Kind, sec.Name = KindFile, h
	}
	return sec, nil
}

// Format renders the scenario back to its file form.
func (s *Scenario) Format() []byte {
	var b bytes.Buffer
	b.WriteString(s.Comment)
	for _, sec := range s.Sections {
		fmt.Fprintf(&b, "-- %s --\n", sec.Header)
		b.Write(sec.Body)
		if len(sec.Body) > 0 && sec.Body[len(sec.Body)-1] != '\n' {
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}

// SetFinals replaces the final sections by files (name → content), sorted
// by name, using the hash form for big or txtar-unsafe contents.
func (s *Scenario) SetFinals(files map[string][]byte) {
	var keep []*Section
	for _, sec := range s.Sections {
		if sec.Kind != KindFinal {
			keep = append(keep, sec)
		}
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		keep = append(keep, FinalSection(n, files[n]))
	}
	s.Sections = keep
}

// FinalSection builds the final section for a file.
func FinalSection(name string, data []byte) *Section {
	// A noggin's history (JSON lines) is compared by hash: its lines are
	// long and say nothing a reader of the scenario needs.
	if needsHash(data) || strings.HasSuffix(name, ".history") {
		return &Section{Kind: KindFinal, Header: "final " + name + " sha256", Name: name, Sha: true, Body: []byte(HashLine(data))}
	}
	return &Section{Kind: KindFinal, Header: "final " + name, Name: name, Body: data}
}

func needsHash(data []byte) bool {
	if len(data) > 32<<10 || len(data) > 0 && data[len(data)-1] != '\n' {
		return true
	}
	for _, ln := range bytes.SplitAfter(data, []byte("\n")) {
		if _, ok := header(ln); ok {
			return true
		}
	}
	return false
}

// HashLine is the body of a hashed final section.
func HashLine(data []byte) string {
	sum := sha256.Sum256(data)
	return fmt.Sprintf("%s %d\n", hex.EncodeToString(sum[:]), len(data))
}

// LoadScenarios reads every *.txtar file of dir.
func LoadScenarios(dir string) ([]*Scenario, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	var out []*Scenario
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		s, err := ParseScenario(strings.TrimSuffix(filepath.Base(p), ".txtar"), data)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// Location turns a scenario-relative noggin name into the location string
// every surface is given: URIs as they are, anything else inside the
// scenario's directory (relative to the work directory). Absolute paths are
// kept too (only used to probe the RPC server's sandbox).
func (s *Scenario) Location(name string) string {
	if strings.Contains(name, "://") || strings.HasPrefix(name, "/") {
		return name
	}
	if name == "" || name == "." {
		return s.Base + s.Name
	}
	return s.Base + s.Name + "/" + name
}

// NogginLocation is the location a step operates on.
func (s *Scenario) NogginLocation(st *Step) string {
	if o, ok := st.Get("noggin"); ok {
		return s.Location(o.Val)
	}
	return s.Location("noggin.yaml")
}
