package app

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/noggin-go/noggin/core/request"
)

func TestLooksLikePath(t *testing.T) {
	yes := []string{".", "..", "-", "+", "./", "./x", "../", "../1", "-/", "-/1", "+/2", "1", "2/3", "/1/2", "/1", "01", "2024", "/01/002"}
	no := []string{"", "/", "/1/", "1//2", "/1/x", "foo", "-1", "+1", "//", "1/", "/ 1", " 1", "x1", ".x", "..x", "-x", "~", "-h"}
	for _, s := range yes {
		if !LooksLikePath(s) {
			t.Errorf("LooksLikePath(%q) = false, want true", s)
		}
	}
	for _, s := range no {
		if LooksLikePath(s) {
			t.Errorf("LooksLikePath(%q) = true, want false", s)
		}
	}
}

// describe renders parsed args compactly for table comparison.
func describe(a *Args) string {
	var parts []string
	if a.HasVerb {
		parts = append(parts, fmt.Sprintf("verb=%q", a.Verb))
	} else {
		parts = append(parts, "verb=<none>")
	}
	f := a.Flags
	for _, v := range []struct {
		n string
		p *string
	}{{"noggin", f.Noggin}, {"title", f.Title}, {"before", f.Before}, {"after", f.After}, {"into", f.Into}} {
		if v.p != nil {
			parts = append(parts, fmt.Sprintf("%s=%q", v.n, *v.p))
		}
	}
	if f.Goto != nil {
		if f.Goto.Self {
			parts = append(parts, "goto=true")
		} else {
			parts = append(parts, fmt.Sprintf("goto=%q", f.Goto.Path))
		}
	}
	for _, b := range []struct {
		n string
		v bool
	}{{"json", f.JSON}, {"with-json", f.WithJSON}, {"help", f.Help}, {"version", f.Version},
		{"no-children", f.NoChildren}, {"with-notes", f.WithNotes}, {"with-siblings", f.WithSiblings},
		{"with-descendants", f.WithDescendants}, {"with-all", f.WithAll}, {"done", f.Done}, {"open", f.Open},
		{"recursive", f.Recursive}, {"force", f.Force}, {"close-all", f.CloseAll}} {
		if b.v {
			parts = append(parts, b.n)
		}
	}
	if len(a.Positionals) > 0 {
		parts = append(parts, fmt.Sprintf("pos=%q", a.Positionals))
	}
	return strings.Join(parts, " ")
}

func TestParse(t *testing.T) {
	tests := []struct {
		argv string // split on "|"; "" = no arguments
		want string // describe() or "ERR <message> [verb]"
	}{
		// verb position and flags anywhere
		{"push|first", `verb="push" pos=["first"]`},
		{"push|review|design|doc", `verb="push" pos=["review" "design" "doc"]`},
		{"--json|push|x", `verb="push" json pos=["x"]`},
		{"push|--json|x", `verb="push" json pos=["x"]`},
		{"push|x|--json", `verb="push" json pos=["x"]`},
		{"--noggin|f.yaml|push|x", `verb="push" noggin="f.yaml" pos=["x"]`},
		{"--noggin=f.yaml|push|x", `verb="push" noggin="f.yaml" pos=["x"]`},
		{"push|x|--noggin|f.yaml", `verb="push" noggin="f.yaml" pos=["x"]`},
		{"--noggin|push|show", `verb="show" noggin="push"`},
		{"-h|push|x", `verb="push" help pos=["x"]`},
		{"--help|--bogus|push", `ERR unknown flag: --bogus [push]`},
		{"--help", `verb=<none> help`},
		{"-h", `verb=<none> help`},
		{"--json", `verb=<none> json`},
		{"", `verb=<none>`},
		{"--bogus|push|x", `ERR unknown flag: --bogus [push]`},
		{"push|x|--bogus|--json", `ERR unknown flag: --bogus [push]`},
		{"frobnicate|--json", `verb="frobnicate" json`},
		{"|", `verb="" pos=[""]`},
		// value flags
		{"push|--title|--json", `ERR flag --title requires a value [push]`},
		{"push|--title", `ERR flag --title requires a value [push]`},
		{"--title", `ERR flag --title requires a value <none>`},
		{"--title|--json|push", `ERR flag --title requires a value <none>`},
		{"push|foo|--title=", `verb="push" title="" pos=["foo"]`},
		{"push|ignored|--title|wins", `verb="push" title="wins" pos=["ignored"]`},
		{"push|--title|-h", `verb="push" title="-h"`},
		{"--title|-h|push", `verb="push" title="-h"`},
		{"push|--title=a=b", `verb="push" title="a=b"`},
		{"add|x|--into", `ERR flag --into requires a value [add]`},
		{"add|x|--into|--json", `ERR flag --into requires a value [add]`},
		{"add|x|--into=|--json", `verb="add" into="" json pos=["x"]`},
		{"add|x|--into|/1|--into|/1/1", `verb="add" into="/1/1" pos=["x"]`},
		{"add|x|--before|/1/1|--after|/1/2", `verb="add" before="/1/1" after="/1/2" pos=["x"]`},
		{"move|/1/1|--before=", `verb="move" before="" pos=["/1/1"]`},
		// boolean flags ignore inline values
		{"--json=no|show", `verb="show" json`},
		{"show|--with-all=false|--no-children=0", `verb="show" no-children with-all`},
		// --goto
		{"add|buy|milk|--goto|2", `verb="add" goto="2" pos=["buy" "milk"]`},
		{"add|buy|--goto|milk", `verb="add" goto=true pos=["buy" "milk"]`},
		{"push|step|--goto|1", `verb="push" goto="1" pos=["step"]`},
		{"add|gamma|--goto", `verb="add" goto=true pos=["gamma"]`},
		{"add|gamma|--goto|.", `verb="add" goto="." pos=["gamma"]`},
		{"add|gamma|--goto|..", `verb="add" goto=".." pos=["gamma"]`},
		{"add|z|--goto|+", `verb="add" goto="+" pos=["z"]`},
		{"add|y|--after|/2|--goto|-", `verb="add" after="/2" goto="-" pos=["y"]`},
		{"add|x|--goto=/9", `verb="add" goto="/9" pos=["x"]`},
		{"add|x|--goto=foo", `verb="add" goto="foo" pos=["x"]`},
		{"add|x|--goto=", `verb="add" goto=true pos=["x"]`},
		{"add|x|--goto|--json", `verb="add" goto=true json pos=["x"]`},
		{"add|x|--goto|/1/", `verb="add" goto=true pos=["x" "/1/"]`},
		{"add|x|--goto|-1", `verb="add" goto=true pos=["x" "-1"]`},
		{"--goto|/1|show", `verb="show" goto="/1"`},
		{"--goto|show", `verb="show" goto=true`},
		{"--goto|1|2", `verb="2" goto="1"`},
		{"add|x|--goto|/1|--goto", `verb="add" goto=true pos=["x"]`},
		// single-dash tokens are positionals; "--" ends the options
		{"push|-x", `verb="push" pos=["-x"]`},
		{"-x", `verb="-x"`},
		{"note|-|+|-5", `verb="note" pos=["-" "+" "-5"]`},
		{"add|--|-dash", `verb="add" pos=["-dash"]`},
		{"--|add", `verb="add"`},
		{"push|--|--draft", `verb="push" pos=["--draft"]`},
		{"note|.|--|--verbose|is|broken|--json", `verb="note" pos=["." "--verbose" "is" "broken" "--json"]`},
		{"--json|push|x|--|--", `verb="push" json pos=["x" "--"]`},
		{"--|--json", `verb="--json"`},
		{"done|/1|--closeall", `ERR unknown flag: --closeall [done]`},
		{"--closeall", `ERR unknown flag: --closeall <none>`},
		{"show|--with-notes|--with-siblings|--with-descendants", `verb="show" with-notes with-siblings with-descendants`},
		{"edit|/1/1|--done|--open|--force|--close-all", `verb="edit" done open force close-all pos=["/1/1"]`},
		{"delete|/1|--recursive", `verb="delete" recursive pos=["/1"]`},
		{"--version", `verb=<none> version`},
		{"push|x|--with-json", `verb="push" with-json pos=["x"]`},
		{"--noggin=|where", `verb="where" noggin=""`},
	}
	for _, tt := range tests {
		var argv []string
		if tt.argv != "" {
			argv = strings.Split(tt.argv, "|")
		}
		a, err := Parse(argv)
		var got string
		if err != nil {
			v := "<none>"
			if err.HasVerb {
				v = "[" + err.Verb + "]"
			}
			got = "ERR " + err.Message + " " + v
		} else {
			got = describe(a)
		}
		if got != tt.want {
			t.Errorf("Parse(%q)\n got %s\nwant %s", argv, got, tt.want)
		}
	}
}

func TestWantsJSON(t *testing.T) {
	for argv, want := range map[string]bool{
		"push|--title|--json": true, "--json=no|show": true, "--jsonx": false,
		"push|--with-json": false, "push|--title=--json": false,
	} {
		if got := wantsJSON(strings.Split(argv, "|")); got != want {
			t.Errorf("wantsJSON(%q) = %v, want %v", argv, got, want)
		}
	}
}

func TestCompletions(t *testing.T) {
	// Every verb of core, in help order, then the CLI's own commands.
	commands := strings.Join(append(slices.Clone(request.Verbs), "help", "completion", "login", "logout"), " ")
	tests := []struct{ argv, want string }{
		{"", commands},
		{"--json|", commands},
		{"--json|pu", commands},
		{"show|--with-d", "--with-descendants"},
		{"push|--", "--agent --format --help --if-revision --json --max-bytes --noggin --title --window --with-json"},
		{"push|x|", ""},
		{"help|", commands},
		{"completion|", "bash zsh fish"},
		{"--no", "--no-children --noggin"},
	}
	for _, tt := range tests {
		var argv []string
		if tt.argv != "" {
			argv = strings.Split(tt.argv, "|")
		}
		if got := strings.Join(completions(argv), " "); got != tt.want {
			t.Errorf("completions(%q) = %q, want %q", argv, got, tt.want)
		}
	}
}

// FuzzParse checks grammar invariants on arbitrary argv: no panic, no
// positional starting with "--" unless the options were ended by "--", no positional without a verb, and a parse
// error only with the two documented messages.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"push|x", "--json|show", "add|x|--goto|1", "--title", "--|x", "-h", "note|2024|plans", "--goto=|x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		argv := strings.Split(s, "|")
		a, err := Parse(argv)
		if err != nil {
			if !strings.HasPrefix(err.Message, "unknown flag: --") &&
				!(strings.HasPrefix(err.Message, "flag --") && strings.HasSuffix(err.Message, " requires a value")) {
				t.Fatalf("unexpected error %q", err.Message)
			}
			return
		}
		for _, p := range a.Positionals {
			if strings.HasPrefix(p, "--") && !slices.Contains(argv, "--") {
				t.Fatalf("positional %q starts with --", p)
			}
		}
		if !a.HasVerb && len(a.Positionals) > 0 {
			t.Fatalf("positionals %q without a verb", a.Positionals)
		}
	})
}
