package cmdline

import (
	"errors"
	"flag"
	"io"
	"strings"
	"testing"
	"time"
)

func TestFlagError(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"an unknown flag with two dashes", []string{"--bogus"}, "unknown flag: --bogus"},
		{"an unknown flag with one dash", []string{"-bogus"}, "unknown flag: -bogus"},
		{"an unknown flag with a value", []string{"--bogus=1"}, "unknown flag: --bogus"},
		{"a flag without its value", []string{"--root"}, "flag --root requires a value"},
		{"a value that does not parse", []string{"--grace", "soon"}, `invalid value "soon" for flag --grace: parse error`},
	} {
		t.Run(c.name, func(t *testing.T) {
			fs := flag.NewFlagSet("x", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			fs.String("root", "", "")
			fs.Duration("grace", time.Second, "")
			err := fs.Parse(c.args)
			if err == nil {
				t.Fatal("no error")
			}
			if got := FlagError(err, c.args); got != c.want {
				t.Fatalf("%q, want %q", got, c.want)
			}
		})
	}
	if got := FlagError(errors.New("other"), nil); got != "other" {
		t.Fatalf("another error: %q", got)
	}
}

func TestCompletion(t *testing.T) {
	words := []Word{{"serve", "serve noggins"}, {"--root", "the root's directory, it's"}}
	for _, shell := range Shells {
		var b strings.Builder
		if err := Completion(&b, shell, "noggin-x", words); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if !strings.Contains(out, "noggin-x") || !strings.Contains(out, "serve") || !strings.Contains(out, "root") {
			t.Errorf("%s:\n%s", shell, out)
		}
	}
	if err := Completion(io.Discard, "tcsh", "noggin-x", words); err == nil || !strings.Contains(err.Error(), "bash, zsh, fish") {
		t.Errorf("an unknown shell: %v", err)
	}
}
