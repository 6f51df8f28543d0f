package app

import (
	"bufio"
	"io"
	"os"
	"strings"

	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/surfaces/rpc/remote"
)

// login keeps (login) or forgets (logout) the token of one noggin-rpc
// server in the credentials file (0600). The token comes from standard
// input, read without echo when it is a terminal: never from the command
// line, where every local user could read it. It is never printed.
func (r *runner) login(a *Args) int {
	if len(a.Positionals) != 1 {
		return r.fail(usage(a.Verb + ": usage: noggin " + a.Verb + " http(s)://HOST:PORT"))
	}
	origin, err := remote.Origin(a.Positionals[0])
	if err != nil {
		return r.fail(usage(a.Verb + ": " + err.Error()))
	}
	tokens, err := remote.LoadTokens(r.getenv)
	if err != nil {
		return r.fail(usage(a.Verb + ": " + err.Error()))
	}
	if a.Verb == "logout" {
		if _, ok := tokens[origin]; !ok {
			return r.fail(usage("logout: not logged in to " + origin))
		}
		delete(tokens, origin)
	} else {
		token, err := r.readToken(origin)
		if err != nil {
			return r.fail(usage("login: " + err.Error()))
		}
		if !remote.ValidToken(token) {
			return r.fail(usage("login: the token holds a character that is not allowed in an HTTP header (a space, a line break, a control or non-ASCII character)"))
		}
		tokens[origin] = token
	}
	if err := remote.SaveTokens(r.getenv, tokens); err != nil {
		return r.fail(usage(a.Verb + ": " + err.Error()))
	}
	if a.Verb == "logout" {
		r.write(r.stdout, []byte("logged out of "+noggin.Safe(origin)+"\n"))
	} else {
		r.write(r.stdout, []byte("logged in to "+noggin.Safe(origin)+" (the token is kept in "+noggin.Safe(credentialsName(r.getenv))+")\n"))
	}
	return 0
}

// readToken reads one token from standard input: a line typed without echo
// at a terminal, else the whole input (a pipe, a file) trimmed.
func (r *runner) readToken(origin string) (string, error) {
	if f, ok := r.stdin.(*os.File); ok && isTerminal(f) {
		r.write(r.stderr, []byte("token for "+noggin.Safe(origin)+": "))
		defer r.write(r.stderr, []byte("\n"))
		return readNoEcho(f)
	}
	b, err := io.ReadAll(io.LimitReader(r.stdin, 64<<10))
	if err != nil {
		return "", err
	}
	line, _, _ := strings.Cut(strings.TrimRight(string(b), "\r\n"), "\n")
	return strings.TrimSpace(line), nil
}

// readLine reads one line from f.
func readLine(f *os.File) (string, error) {
	line, err := bufio.NewReader(f).ReadString('\n')
	if err != nil && line == "" {
		return "", err
	}
	return strings.TrimSpace(line), nil
}

func credentialsName(getenv func(string) string) string {
	name, _ := remote.CredentialsFile(getenv)
	return name
}
