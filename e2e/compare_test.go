package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const demoScenario = `A demo scenario for the comparer test.
-- > push title=x --
{
  "status": "ok",
  "envelopeVersion": 3,
  "verb": "push",
  "data": {
    "activePath": "/1"
  }
}
-- final noggin.yaml --
schemaVersion: 1
`

// goldenSurface answers every step with its golden envelope and writes the
// expected final file, like a correct surface would.
type goldenSurface struct {
	name string
	work string
}

func (g *goldenSurface) Name() string { return g.name }

func (g *goldenSurface) Do(_ context.Context, s *Scenario, st *Step) *Outcome {
	for _, sec := range s.Steps() {
		if sec.Step == st {
			_ = os.WriteFile(filepath.Join(g.work, s.Name, "noggin.yaml"), []byte("schemaVersion: 1\n"), 0o644)
			return &Outcome{Text: bytes.TrimSuffix(sec.Body, []byte("\n"))}
		}
	}
	return &Outcome{}
}

// reindentSurface is a deliberately broken surface: it re-indents the JSON
// of another surface with four spaces.
type reindentSurface struct{ Surface }

func (r reindentSurface) Do(ctx context.Context, s *Scenario, st *Step) *Outcome {
	o := r.Surface.Do(ctx, s, st)
	var b bytes.Buffer
	if err := json.Indent(&b, o.Text, "", "    "); err != nil {
		return &Outcome{Err: err}
	}
	return &Outcome{Text: b.Bytes()}
}

func TestComparerReportsBrokenSurface(t *testing.T) {
	s, err := ParseScenario("demo", []byte(demoScenario))
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	good := &goldenSurface{name: CLI, work: work}
	r := &Runner{Work: work, Surfaces: map[string]Surface{
		CLI: good,
		MCP: reindentSurface{&goldenSurface{name: MCP, work: work}},
		RPC: &goldenSurface{name: RPC, work: work},
	}}
	var runs []*RunResult
	for _, mode := range []string{CLI, MCP, RPC, Mixed} {
		runs = append(runs, r.Run(context.Background(), mode, s))
	}
	msgs := Compare(s, runs, Normalizer(work))
	if len(msgs) != 2 {
		t.Fatalf("got %d mismatches, want 2 (mcp vs golden, mcp vs cli):\n%s", len(msgs), strings.Join(msgs, "\n"))
	}
	t.Logf("the comparer reports:\n%s", msgs[0])
	for _, want := range []string{
		"scenario demo, step 1 `push title=x`, surface mcp: envelope differs from golden",
		`first difference at byte 4 (line 2, column 3): golden has "\"status\": \"o", mcp has "  \"status\": "`,
		"  --- golden\n  +++ mcp\n",
		"  -  \"status\": \"ok\",\n",
		"  +    \"status\": \"ok\",\n",
	} {
		if !strings.Contains(msgs[0], want) {
			t.Errorf("message lacks %q:\n%s", want, msgs[0])
		}
	}
	if !strings.Contains(msgs[1], "surface mcp: envelope differs from cli") {
		t.Errorf("second message: %s", msgs[1])
	}
	// Mixed mode dealt step 1 (Offset("demo") picks the surface) to a correct surface.
	if AllSurfaces[Offset("demo")] == MCP {
		t.Fatal("choose a scenario name whose mixed run does not start on the broken surface")
	}
	for _, m := range msgs {
		if strings.Contains(m, "mixed") {
			t.Errorf("mixed run reported: %s", m)
		}
	}
}

func TestComparerFinalFiles(t *testing.T) {
	s, _ := ParseScenario("demo", []byte(demoScenario))
	ok := &RunResult{Mode: CLI, Steps: []*Outcome{{Text: bytes.TrimSuffix(s.Steps()[0].Body, []byte("\n"))}},
		Files: map[string][]byte{"noggin.yaml": []byte("schemaVersion: 1\n")}}
	bad := &RunResult{Mode: RPC, Steps: ok.Steps, Files: map[string][]byte{"noggin.yaml": []byte("schemaVersion: 2\n"), "noggin.yaml.lock/pid": []byte("1\n")}}
	msgs := Compare(s, []*RunResult{ok, bad}, func(b []byte) []byte { return b })
	joined := strings.Join(msgs, "\n")
	for _, want := range []string{
		"scenario demo, final file noggin.yaml, surface rpc: differs from golden",
		"scenario demo, final file noggin.yaml.lock/pid, surface rpc: unexpected file",
		"scenario demo, final file noggin.yaml, surface rpc: differs from cli",
		"  -schemaVersion: 1\n  +schemaVersion: 2\n",
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("messages lack %q:\n%s", want, joined)
		}
	}
}

func TestByteDiffShowsInvisibles(t *testing.T) {
	d := ByteDiff("want", "got", []byte("a\nb \n"), []byte("a\nb\t\n"))
	for _, w := range []string{"first difference at byte 3 (line 2, column 2)", "  -b·\n", "  +b\\t\n"} {
		if !strings.Contains(d, w) {
			t.Errorf("diff lacks %q:\n%s", w, d)
		}
	}
	if ByteDiff("a", "b", []byte("x"), []byte("x")) != "" {
		t.Error("equal inputs gave a diff")
	}
}

func TestParseStep(t *testing.T) {
	tests := []struct {
		line string
		want *Step
		err  string
	}{
		{line: `push title="spike storage"`, want: &Step{Verb: "push", Opts: []Opt{{"title", "spike storage", true}}}},
		{line: `add title=x into=/1 goto=.`, want: &Step{Verb: "add", Opts: []Opt{{"title", "x", true}, {"into", "/1", true}, {"goto", ".", true}}}},
		{line: `show path=/1/2 withDescendants`, want: &Step{Verb: "show", Opts: []Opt{{"path", "/1/2", true}, {"withDescendants", "", false}}}},
		{line: `[cli,rpc] push title=`, want: &Step{Verb: "push", Surfaces: []string{CLI, RPC}, Opts: []Opt{{"title", "", true}}}},
		{line: `note text="a\nb" noggin=x.yaml`, want: &Step{Verb: "note", Opts: []Opt{{"text", "a\nb", true}, {"noggin", "x.yaml", true}}}},
		{line: `[mcp-alt] goto path=/1`, want: &Step{Verb: "goto", Surfaces: []string{MCP}, Alt: true, Opts: []Opt{{"path", "/1", true}}}},
		{line: `frob`, err: "unknown verb"},
		{line: `push path=/1`, err: "has no option"},
		{line: `push title=a title=b`, err: "repeated"},
		{line: `push title="x`, err: "bad quoted"},
		{line: `[web] push`, err: "unknown surface"},
		{line: `copy noggin=x`, err: "has no option"},
	}
	for _, tt := range tests {
		got, err := ParseStep(tt.line)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseStep(%q) error = %v, want %q", tt.line, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseStep(%q): %v", tt.line, err)
			continue
		}
		tt.want.Line = tt.line
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseStep(%q) = %+v, want %+v", tt.line, got, tt.want)
		}
	}
}

func TestQRoundTrip(t *testing.T) {
	for _, v := range []string{"", "x", "a b", `q"uote`, "line\nbreak", "emoji 📍", "/1/2", "-", "tab\tx", "back\\slash"} {
		st, err := ParseStep("note text=" + Q(v))
		if err != nil || st.Str("text") != v {
			t.Errorf("Q(%q) = %s does not round-trip: %v %q", v, Q(v), err, st.Str("text"))
		}
	}
}

func TestScenarioFormatRoundTrip(t *testing.T) {
	s, err := ParseScenario("demo", []byte(demoScenario))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(s.Format()); got != demoScenario {
		t.Errorf("Format() =\n%s\nwant\n%s", got, demoScenario)
	}
}

func TestLooksLikePath(t *testing.T) {
	yes := []string{".", "..", "-", "+", "./x", "../", "-/1", "+/", "1", "2/3", "/1/2", "01"}
	no := []string{"/", "/1/", "1//2", "/1/x", "foo", "-1", "", "+1"}
	for _, p := range yes {
		if !LooksLikePath(p) {
			t.Errorf("LooksLikePath(%q) = false", p)
		}
	}
	for _, p := range no {
		if LooksLikePath(p) {
			t.Errorf("LooksLikePath(%q) = true", p)
		}
	}
}

func TestRenderings(t *testing.T) {
	s := &Scenario{Name: "scn"}
	tests := []struct {
		line     string
		cli      string
		mcpTool  string
		mcpArgs  string
		cliError string
		mcpError string
	}{
		{line: `push title="a b"`, cli: `--json --noggin scn/noggin.yaml push a b`, mcpTool: "noggin_push", mcpArgs: `{"noggin":"scn/noggin.yaml","title":"a b"}`},
		{line: `push title=ab`, cli: `--json --noggin scn/noggin.yaml push --title=ab`, mcpTool: "noggin_push", mcpArgs: `{"noggin":"scn/noggin.yaml","title":"ab"}`},
		{line: `push title=-h`, cli: `--json --noggin scn/noggin.yaml push --title=-h`, mcpTool: "noggin_push", mcpArgs: `{"noggin":"scn/noggin.yaml","title":"-h"}`},
		{line: `push title=-hh`, cli: `--json --noggin scn/noggin.yaml push -- -hh`, mcpTool: "noggin_push", mcpArgs: `{"noggin":"scn/noggin.yaml","title":"-hh"}`},
		{line: `add title=x into=/1 goto`, cli: `--json --noggin scn/noggin.yaml add x --into=/1 --goto`, mcpTool: "noggin_add", mcpArgs: `{"goto":true,"into":"/1","noggin":"scn/noggin.yaml","title":"x"}`},
		{line: `edit path=/1 done closeAll goto=..`, cli: `--json --noggin scn/noggin.yaml edit /1 --close-all --done --goto=..`, mcpTool: "noggin_edit", mcpArgs: `{"closeAll":true,"goto":"..","noggin":"scn/noggin.yaml","path":"/1","state":"done"}`},
		{line: `note path=/1 text="hi there"`, cli: `--json --noggin scn/noggin.yaml note /1 hi there`, mcpTool: "noggin_note", mcpArgs: `{"noggin":"scn/noggin.yaml","path":"/1","text":"hi there"}`},
		{line: `show path=- withAll noggin=o.yaml`, cli: `--json --noggin scn/o.yaml show --with-all -- -`, mcpTool: "noggin_show", mcpArgs: `{"noggin":"scn/o.yaml","path":"-","withAll":true}`},
		{line: `copy from=a.yaml to=memory://x`, cli: `--json copy scn/a.yaml memory://x`, mcpTool: "noggin_copy", mcpArgs: `{"from":"scn/a.yaml","to":"memory://x"}`},
		{line: `note text=2024`, cliError: "looks like a path", mcpTool: "noggin_note", mcpArgs: `{"noggin":"scn/noggin.yaml","text":"2024"}`},
		{line: `show goto`, cli: `--json --noggin scn/noggin.yaml show --goto`, mcpError: "has no goto"},
		{line: `add title=x goto=""`, cliError: "falsy goto", mcpTool: "noggin_add", mcpArgs: `{"goto":"","noggin":"scn/noggin.yaml","title":"x"}`},
	}
	for _, tt := range tests {
		st, err := ParseStep(tt.line)
		if err != nil {
			t.Fatal(err)
		}
		args, err := CLIArgs(s, st)
		if tt.cliError != "" {
			if err == nil || !strings.Contains(err.Error(), tt.cliError) {
				t.Errorf("CLIArgs(%s) error %v, want %q", tt.line, err, tt.cliError)
			}
		} else if got := strings.Join(args, " "); err != nil || got != tt.cli {
			t.Errorf("CLIArgs(%s) = %q, %v; want %q", tt.line, got, err, tt.cli)
		}
		tool, margs, err := MCPCall(s, st)
		if tt.mcpError != "" {
			if err == nil || !strings.Contains(err.Error(), tt.mcpError) {
				t.Errorf("MCPCall(%s) error %v, want %q", tt.line, err, tt.mcpError)
			}
			continue
		}
		b, _ := json.Marshal(margs)
		if err != nil || tool != tt.mcpTool || string(b) != tt.mcpArgs {
			t.Errorf("MCPCall(%s) = %s %s, %v; want %s %s", tt.line, tool, b, err, tt.mcpTool, tt.mcpArgs)
		}
	}
}

func TestGenerateNogginIsDeterministic(t *testing.T) {
	a, b := GenerateNoggin(1000), GenerateNoggin(1000)
	if !bytes.Equal(a, b) {
		t.Fatal("not deterministic")
	}
	if n := bytes.Count(a, []byte("  - key: ")); n != 1000 {
		t.Fatalf("%d items", n)
	}
}
