// Package cmdline holds what the servers' command lines (noggin-rpc,
// noggin-mcp) share with the noggin CLI's: the words of a flag error and
// shell completion.
package cmdline

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/noggin-go/noggin/core/noggin"
)

// FlagError words an error of package flag as the noggin CLI does — the
// flag as typed in args: "unknown flag: --bogus", "flag --root requires
// a value", "invalid value "x" for flag --grace: …" — with what the user
// typed made safe for a terminal (noggin.Safe).
func FlagError(err error, args []string) string { return noggin.Safe(flagError(err, args)) }

func flagError(err error, args []string) string {
	msg := err.Error()
	typed := func(name string) string {
		for _, a := range args {
			if f, _, _ := strings.Cut(a, "="); f == "-"+name || f == "--"+name {
				return f
			}
		}
		return "--" + name
	}
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		return "unknown flag: " + typed(name)
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		return "flag " + typed(name) + " requires a value"
	}
	if rest, ok := strings.CutPrefix(msg, "invalid value "); ok {
		if v, after, found := strings.Cut(rest, " for flag -"); found {
			name, why, _ := strings.Cut(after, ": ")
			return "invalid value " + v + " for flag " + typed(name) + ": " + why
		}
	}
	return msg
}

// Word is one word that may follow a program's name: a subcommand or a
// flag ("--root"), with a line of help.
type Word struct{ Name, Help string }

// Shells are the shells Completion writes for.
var Shells = []string{"bash", "zsh", "fish"}

// Completion writes prog's completion script for shell: its words after
// the program's name (subcommands and flags), and file names otherwise.
func Completion(w io.Writer, shell, prog string, words []Word) error {
	fn := "_" + strings.ReplaceAll(prog, "-", "_")
	names := make([]string, len(words))
	for i, wd := range words {
		names[i] = wd.Name
	}
	var err error
	switch shell {
	case "bash":
		_, err = fmt.Fprintf(w, "# bash completion for %[1]s: source it, or put it in ~/.local/share/bash-completion/completions/%[1]s\n"+
			"%[2]s() {\n\tlocal cur=\"${COMP_WORDS[COMP_CWORD]}\"\n"+
			"\tif [[ $cur == -* || $COMP_CWORD == 1 ]]; then COMPREPLY=($(compgen -W %[3]q -- \"$cur\")); else COMPREPLY=($(compgen -f -- \"$cur\")); fi\n"+
			"}\ncomplete -F %[2]s %[1]s\n", prog, fn, strings.Join(names, " "))
	case "zsh":
		_, err = fmt.Fprintf(w, "#compdef %[1]s\n# zsh completion for %[1]s: put it in a directory of $fpath as _%[1]s\n%[2]s() {\n\tlocal -a words\n\twords=(\n", prog, fn)
		for _, wd := range words {
			if err == nil {
				_, err = fmt.Fprintf(w, "\t\t%s\n", zshQuote(wd.Name+":"+wd.Help))
			}
		}
		if err == nil {
			_, err = fmt.Fprintf(w, "\t)\n\t_describe '%[1]s' words\n\t_files\n}\ncompdef %[2]s %[1]s\n", prog, fn)
		}
	case "fish":
		_, err = fmt.Fprintf(w, "# fish completion for %[1]s: put it in ~/.config/fish/completions/%[1]s.fish\n", prog)
		for _, wd := range words {
			if err != nil {
				break
			}
			if long, ok := strings.CutPrefix(wd.Name, "--"); ok {
				_, err = fmt.Fprintf(w, "complete -c %s -l %s -d %s\n", prog, long, fishQuote(wd.Help))
			} else {
				_, err = fmt.Fprintf(w, "complete -c %s -n '__fish_use_subcommand' -a %s -d %s\n", prog, wd.Name, fishQuote(wd.Help))
			}
		}
	default:
		return fmt.Errorf("completion: unknown shell %q (one of %s)", shell, strings.Join(Shells, ", "))
	}
	return err
}

func zshQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, "'", `\'`).Replace(s) + "'"
}

// Token is a server's bearer token: the first line of file when one is
// named (--token-file; an empty file is an error, not "no token"), else
// the environment's value env ("" for none). It must not be padded with
// white space and must hold only what an HTTP header carries.
func Token(file, env string) (string, error) {
	token := env
	if file != "" {
		b, err := os.ReadFile(file)
		if err != nil {
			return "", fmt.Errorf("--token-file: %w", err)
		}
		if token = strings.TrimRight(string(b), "\r\n"); token == "" {
			return "", errors.New("--token-file: the file is empty")
		}
	}
	if strings.TrimSpace(token) != token { // blank, or padded by a copy-paste
		return "", errors.New("the token must not be blank or start or end with white space")
	}
	for _, c := range token {
		if c <= ' ' || c > '~' {
			return "", errors.New("the token holds a character that is not allowed in an HTTP header (a space, a line break, a control or non-ASCII character)")
		}
	}
	return token, nil
}
