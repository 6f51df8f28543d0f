package app

import (
	"bytes"
	"io"
	"sort"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"github.com/noggin-go/noggin/core/buildinfo"
	"github.com/noggin-go/noggin/core/request"
)

// version is what --version prints after "noggin version" (see
// core/buildinfo for how release builds set it).
func version() string { return buildinfo.Get().String() }

// flagDoc documents one flag for help and completion: usage says what it
// does wherever it is taken (the general help; flagPerVerb says what a
// flag whose meaning depends on the verb does in that verb's help).
type flagDoc struct {
	name, value, usage string
}

// flagDocs lists every flag of the grammar (docs/cli.md) in help order.
var flagDocs = []flagDoc{
	{"noggin", "loc", "the noggin `location` (default: $NOGGIN, then ~/.noggin.yaml)"},
	{"title", "t", "the `title` (push, add) or the new title (edit)"},
	{"before", "path", "place before the item at `path`"},
	{"after", "path", "place after the item at `path`"},
	{"into", "path", "place as the last child of the item at `path`"},
	{"goto", "path", "[path]: move the cursor after the verb — bare: to its target; a path is relative to the target"},
	{"no-children", "", "render the target without its children"},
	{"with-notes", "", "print the target's notes under the tree"},
	{"with-siblings", "", "show every sibling row along the spine"},
	{"with-descendants", "", "expand the target's whole subtree"},
	{"with-all", "", "--with-siblings and --with-descendants"},
	{"done", "", "edit: close the item; find: only items that are done"},
	{"open", "", "edit: reopen the item; find: only items that are open"},
	{"recursive", "", "delete the whole subtree"},
	{"force", "", "close despite open descendants (they stay open)"},
	{"close-all", "", "close the open descendants too"},
	{"under", "path", "find: only look below the item at `path`"},
	{"limit", "n", "find, log, changes: list at most `n` (find: 50, log: 20, changes: 100 unless told)"},
	{"since", "rev", "changes: list the writes after revision `rev` (an answer's \"revision\")"},
	{"agent", "name", "work as agent `name`: its own cursor instead of the shared active item (default: $NOGGIN_AGENT)"},
	{"forget", "name", "agents: drop the cursor of agent `name`"},
	{"by", "name", "find, log: only what agent `name` wrote"},
	{"if-revision", "rev", "do nothing and fail (stale-revision) unless the noggin is still at revision `rev` (an answer's \"revision\")"},
	{"window", "n", "at most `n` items per row, around the target (the view counts what it left out)"},
	{"max-bytes", "n", "narrow the answer until it is at most `n` bytes (0: no cap; the envelope's compact JSON, or the text)"},
	{"format", "f", "answer as `f`: text (the default) or json (as --json)"},
	{"watch", "", "show: redraw the view on every change of the noggin, until Ctrl-C"},
	{"json", "", "print the response envelope (JSON); errors go to stderr as envelopes"},
	{"with-json", "", "print the human output, an empty line, then the envelope"},
}

// flagPerVerb is, for a flag whose meaning depends on the verb, what it
// does in each verb's help (the general help says flagDocs' usage).
var flagPerVerb = map[string]map[string]string{
	"title":  {"push": "the `title` (instead of the words)", "add": "the `title` (instead of the words)", "edit": "the new `title`"},
	"done":   {"edit": "close the item", "find": "only items that are done"},
	"open":   {"edit": "reopen the item", "find": "only items that are open"},
	"under":  {"find": "only look below the item at `path`"},
	"limit":  {"find": "list at most `n` matches (50 unless told)", "log": "list at most `n` writes (20 unless told)", "changes": "list at most `n` writes (100 unless told)"},
	"since":  {"changes": "list the writes after revision `rev` (an answer's \"revision\")"},
	"forget": {"agents": "drop the cursor of agent `name`"},
	"by":     {"find": "only items the writes of agent `name` changed", "log": "only the writes of agent `name`"},
	"watch":  {"show": "redraw the view on every change of the noggin, until Ctrl-C"},
}

// verbDef describes one command for help and completion.
type verbDef struct {
	name, args, usage string
	flags             []string
	opensNoggin       bool
}

// common flags every verb that opens a noggin accepts.
var openFlags = []string{"noggin", "agent", "if-revision", "format", "json", "with-json"}

// viewFlags are the view options' flags (help lists them once, under the
// flags): every verb that answers a view takes both, copy --max-bytes.
var viewFlags = [][2]string{{"window", "window"}, {"max-bytes", "maxBytes"}} // flag, core argument

// verbDefs lists the commands in help order: core's verbs, then the
// CLI's own commands.
var verbDefs = func() []verbDef {
	var ds []verbDef
	for _, v := range request.Catalog() {
		ds = append(ds, verbDef{v.Name, v.Synopsis, v.Summary, v.Flags, v.OpensNoggin()})
	}
	return append(ds,
		verbDef{name: "help", args: "[verb]", usage: "print this help, or the help of one verb"},
		verbDef{name: "completion", args: "bash|zsh|fish", usage: "print a shell completion script"},
		verbDef{name: "login", args: "<server>", usage: "keep a noggin-rpc server's token (read from standard input, never from the command line)"},
		verbDef{name: "logout", args: "<server>", usage: "forget a server's token"})
}()

func findVerb(name string) *verbDef {
	for i := range verbDefs {
		if verbDefs[i].name == name {
			return &verbDefs[i]
		}
	}
	return nil
}

func findFlag(name string) flagDoc {
	for _, f := range flagDocs {
		if f.name == name {
			return f
		}
	}
	return flagDoc{name: name}
}

// verbFlags returns the flags documented for a verb of core: its own, then
// the output flags, with --noggin for a verb that opens a noggin. The
// CLI's own commands have none.
func (v *verbDef) verbFlags() []string {
	if request.Lookup(v.name) == nil {
		return nil
	}
	fs := append([]string(nil), v.flags...)
	for _, f := range viewFlags {
		if request.Lookup(v.name).Takes(f[1]) {
			fs = append(fs, f[0])
		}
	}
	if v.opensNoggin {
		return append(fs, openFlags...)
	}
	return append(fs, "format", "json", "with-json")
}

func (v *verbDef) synopsis() string {
	s := "noggin " + v.name
	if v.args != "" {
		s += " " + v.args
	}
	for _, f := range v.flags {
		d := findFlag(f)
		switch {
		case f == "goto":
			s += " [--goto [path]]"
		case d.value != "":
			s += " [--" + f + " <" + d.value + ">]"
		default:
			s += " [--" + f + "]"
		}
	}
	return s
}

// urfaveFlag is the flag name as the help of verb ("": every verb) says it.
func urfaveFlag(name, verb string) ucli.Flag {
	d := findFlag(name)
	usage := d.usage
	if u, ok := flagPerVerb[name][verb]; ok {
		usage = u
	}
	if d.value != "" && name != "goto" { // --goto's value is optional
		return &ucli.StringFlag{Name: name, Usage: usage}
	}
	return &ucli.BoolFlag{Name: name, Usage: usage, DisableDefaultText: true}
}

func init() {
	// Only the long form: -v is a positional in noggin's grammar.
	ucli.VersionFlag = &ucli.BoolFlag{Name: "version", Usage: "print the version", DisableDefaultText: true}
}

// newApp builds the urfave/cli definition of noggin. It is used for what
// urfave is good at — per-verb help, --version and the fish completion
// script — while argv itself is parsed by Parse (the original grammar
// accepts flags anywhere, which urfave cannot express).
func newApp(stdout io.Writer) *ucli.App {
	app := &ucli.App{
		Name:                 "noggin",
		Usage:                "working-memory tree CLI",
		Version:              version(),
		Writer:               stdout,
		ErrWriter:            stdout,
		HideHelpCommand:      true,
		EnableBashCompletion: true,
	}
	app.Flags = []ucli.Flag{urfaveFlag("noggin", ""), urfaveFlag("agent", ""), urfaveFlag("json", ""), urfaveFlag("with-json", "")}
	for i := range verbDefs {
		v := &verbDefs[i]
		if v.name == "help" {
			continue
		}
		cmd := &ucli.Command{Name: v.name, Usage: v.usage, ArgsUsage: v.args,
			Action: func(*ucli.Context) error { return nil }}
		for _, f := range v.verbFlags() {
			cmd.Flags = append(cmd.Flags, urfaveFlag(f, v.name))
		}
		app.Commands = append(app.Commands, cmd)
	}
	return app
}

// HelpText is the general help (docs/cli.md).
func HelpText() string {
	var b strings.Builder
	b.WriteString(`noggin — working-memory tree CLI

A noggin is one tree of items. An item has a title, a done flag, a creation
time and an append-only list of timestamped notes; one item is active (the cursor).

Usage:
  noggin [flags…] <verb> [positionals and flags, in any order]

Addressing:
  /1/2          absolute: the 2nd child of the 1st root
  .  ..         the active item, its parent
  -  +          the previous / next sibling of the active item
  1/2  ../1     relative to the active item (-/1, +/1: below a sibling)
  Tree lines read "/1/3 📍✅ title ✏️": 📍 active, ✅ done, ✏️ has notes.

Verbs:
`)
	for _, v := range verbDefs {
		b.WriteString("  " + v.synopsis() + "\n")
		b.WriteString("      " + v.usage + "\n")
	}
	b.WriteString(`
Item creation:
  --title <t>        the title (instead of positional words); edit: the new title

Common flags:
  --noggin <loc>     the noggin to use
  --agent <name>     work as agent <name> (default: $NOGGIN_AGENT): its own cursor;
                     relative paths, push, pop, done and goto use it, not the shared one
  --if-revision <rev> do nothing (stale-revision) unless the noggin is still at <rev>,
                     the "revision" of an answer (--json)
  --goto [path]      move the cursor after the verb (add, move, edit, show, note)
  --json             print the response envelope; errors go to stderr as envelopes
  --with-json        print the human output, an empty line, then the envelope
  -h, --help         print help (noggin help <verb>: one verb)
  --version          print the version

Location (highest priority first):
  1. --noggin <loc>
  2. $NOGGIN
  3. ~/.noggin.yaml

A location is a bare file path (~/x.yaml, ./x.yaml, /abs/x.yaml) or a URI
(file:///abs/x.yaml).

Remote noggins (a noggin-rpc server, e.g. a team's):
  --noggin https://HOST:PORT/NAME    the noggin NAME on that server
  noggin login https://HOST:PORT     keep the server's token (read from standard input)
  $NOGGIN_TOKEN                      the token instead, for the server $NOGGIN_SERVER names
  noggin logout https://HOST:PORT    forget it; tokens go to their own server only

Addressing by key:
  @KEY  @KEY/2  the item with key KEY wherever it is, and paths below it
`)
	return b.String()
}

// writeVerbHelp prints the generated urfave/cli help of one verb.
func writeVerbHelp(w io.Writer, name string) {
	var b bytes.Buffer
	app := newApp(&b)
	_ = app.Run([]string{"noggin", name, "--help"})
	_, _ = w.Write(b.Bytes())
}

// writeVersion prints "noggin version <v>".
func writeVersion(w io.Writer) {
	var b bytes.Buffer
	app := newApp(&b)
	ucli.VersionPrinter(ucli.NewContext(app, nil, nil))
	_, _ = w.Write(b.Bytes())
}

// completionMarker is the last argument the completion scripts pass.
const completionMarker = "--generate-bash-completion"

// completions returns the completion candidates for argv (without the
// marker). The scripts always pass the word being completed as the last
// argument (possibly ""): flags when it starts with "-", else the verbs
// while no verb was typed (the shell filters by prefix).
func completions(argv []string) []string {
	cur := ""
	if n := len(argv); n > 0 {
		cur, argv = argv[n-1], argv[:n-1]
	}
	verb := ""
	if a, err := Parse(argv); err == nil && a.HasVerb {
		verb = a.Verb
	}
	var out []string
	if strings.HasPrefix(cur, "-") {
		names := []string{}
		if v := findVerb(verb); v != nil {
			names = v.verbFlags()
		} else {
			for _, f := range flagDocs {
				names = append(names, f.name)
			}
		}
		names = append(names, "help")
		if verb == "" {
			names = append(names, "version")
		}
		for _, n := range names {
			if strings.HasPrefix("--"+n, cur) {
				out = append(out, "--"+n)
			}
		}
		sort.Strings(out)
		return out
	}
	switch verb {
	case "", "help":
		if verb == "" || len(argv) > 0 {
			for _, v := range verbDefs {
				out = append(out, v.name)
			}
		}
	case "completion":
		out = []string{"bash", "zsh", "fish"}
	}
	return out
}

const bashCompletion = `# bash completion for noggin (source it, or put it in your bash-completion dir)
_noggin_complete() {
  local cur words
  COMPREPLY=()
  cur="${COMP_WORDS[COMP_CWORD]}"
  words=("${COMP_WORDS[@]:0:$COMP_CWORD}")
  local opts
  opts=$("${words[@]}" "$cur" --generate-bash-completion 2>/dev/null)
  COMPREPLY=($(compgen -W "${opts}" -- "${cur}"))
  return 0
}
complete -o bashdefault -o default -F _noggin_complete noggin
`

const zshCompletion = `#compdef noggin
# zsh completion for noggin (put it in a directory of $fpath as _noggin, or source it)
_noggin() {
  local -a opts
  local cur
  cur=${words[-1]}
  opts=("${(@f)$(${words[@]:0:#words[@]-1} "${cur}" --generate-bash-completion 2>/dev/null)}")
  if [[ "${opts[1]}" != "" ]]; then
    _describe 'values' opts
  else
    _files
  fi
}
if [[ "$funcstack[1]" = "_noggin" ]]; then
  _noggin "$@"
else
  compdef _noggin noggin
fi
`

// completionScript returns the completion script of a shell, or false.
func completionScript(shell string) (string, bool) {
	switch shell {
	case "bash":
		return bashCompletion, true
	case "zsh":
		return zshCompletion, true
	case "fish":
		s, err := newApp(io.Discard).ToFishCompletion()
		return s, err == nil
	}
	return "", false
}
