package cmdline

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
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
		{"an unknown flag holding an escape sequence", []string{"--bo\x1b[2Jgus"}, `unknown flag: --bo\x1b[2Jgus`},
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

func TestToken(t *testing.T) {
	dir := t.TempDir()
	file := func(body string) string {
		t.Helper()
		p := filepath.Join(dir, fmt.Sprint(len(body), "-token"))
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct {
		name, file, env, want, err string
	}{
		{"none", "", "", "", ""},
		{"the environment's", "", "s3cret", "s3cret", ""},
		{"the file's first line, over the environment's", file("from-file\n"), "s3cret", "from-file", ""},
		{"an empty file", file(""), "s3cret", "", "the file is empty"},
		{"a file that is not there", filepath.Join(dir, "missing"), "", "", "--token-file"},
		{"padded", file(" padded\n"), "", "", "must not be blank"},
		{"blank", "", "   ", "", "must not be blank"},
		{"a line break inside", file("a\r\nb"), "", "", "not allowed in an HTTP header"},
		{"non-ASCII", "", "tök", "", "not allowed in an HTTP header"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := Token(c.file, c.env)
			if c.err == "" && (err != nil || got != c.want) || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
				t.Fatalf("Token = %q, %v; want %q, %q", got, err, c.want, c.err)
			}
		})
	}
}
