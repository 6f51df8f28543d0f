package app

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"flag"
	"fmt"
	htmltemplate "html/template"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"

	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/store"
	"github.com/noggin-go/noggin/surfaces/rpc/server"
)

// uiMain runs `noggin-rpc ui [--addr A] [--open] [LOCATION]`: the web view of
// one noggin file (default: the CLI's, $NOGGIN or ~/.noggin.yaml) on a
// loopback port, with a token made for this run. The address it prints
// carries the token in its #fragment, which the browser keeps to itself:
// the page moves it to the tab's sessionStorage and out of the address.
func uiMain(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ui", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:0", "loopback listen address (default: a free port)")
	open := fs.Bool("open", false, "open the page in the default browser")
	if code, done := parseFlags(fs, args, stdout, stderr); done {
		return code
	}
	if fs.NArg() > 1 {
		fmt.Fprintln(stderr, "noggin-rpc: ui takes one location at most")
		return 2
	}
	if !isLoopback(*addr) {
		fmt.Fprintf(stderr, "noggin-rpc: ui listens on loopback only, not %s (serve a team with noggin-rpc serve)\n", noggin.Safe(*addr))
		return 2
	}
	file, err := store.FilePath(store.Resolve(fs.Arg(0), getenv))
	if err != nil {
		fmt.Fprintf(stderr, "noggin-rpc: ui serves a noggin file: %s\n", noggin.Safe(err.Error()))
		return 2
	}
	eng, err := noggin.EngineFromEnv(getenv)
	if err != nil {
		fmt.Fprintf(stderr, "noggin-rpc: %v\n", err)
		return 2
	}
	secret := make([]byte, 32)
	_, _ = rand.Read(secret) // never fails (crypto/rand)
	token := hex.EncodeToString(secret)
	name := filepath.Base(file)
	only := &oneNoggin{Cache: store.NewCache(store.Options{Root: filepath.Dir(file)}), name: name}
	srv, ln, ok := listen(server.Config{Engine: eng, Opener: only, Token: token, Store: store.Options{Root: filepath.Dir(file)}}, *addr, stderr)
	if !ok {
		return 1
	}
	page := fmt.Sprintf("http://%s/ui/%s#token=%s", ln.Addr(), url.PathEscape(name), token)
	fmt.Fprintf(stderr, "noggin-rpc: the web view of %s (Ctrl-C stops it); open:\n", noggin.Safe(file))
	fmt.Fprintln(stdout, page)
	if *open {
		dir, err := browse(page)
		if err != nil {
			fmt.Fprintf(stderr, "noggin-rpc: --open: %v (open the address above)\n", err)
		}
		if dir != "" {
			defer func() { _ = os.RemoveAll(dir) }()
		}
	}
	if err := serve(ctx, ln, srv, nil, defaultTimeouts); err != nil {
		fmt.Fprintf(stderr, "noggin-rpc: %v\n", err)
		return 1
	}
	return 0
}

// oneNoggin serves a single noggin file of a directory: every other
// location is refused.
type oneNoggin struct {
	*store.Cache
	name string
}

// Open opens the noggin if location names it (as core names a noggin
// relative to a server: trimmed and cleaned), else refuses.
func (o *oneNoggin) Open(ctx context.Context, location string) (noggin.Store, error) {
	name, err := store.RelativeName(location)
	if err != nil {
		return nil, err
	}
	if name != o.name {
		return nil, noggin.NewError(noggin.CodeLocationRefused, noggin.F("location", location), noggin.F("detail", "this server serves "+o.name+" only"))
	}
	return o.Cache.Open(ctx, location)
}

func (o *oneNoggin) List(context.Context, int) ([]string, bool, error) {
	return []string{o.name}, false, nil
}

// browse opens page in the desktop's browser and returns the directory of
// the redirect it wrote (remove it when done). page holds the token, and a
// command line is readable by every local user (ps, /proc): the browser is
// given a file of ours instead (a private directory, mode 0600) that
// redirects it to page, as Jupyter does.
func browse(page string) (dir string, err error) {
	dir, file, err := redirectFile(page)
	if err != nil {
		return dir, err
	}
	target := (&url.URL{Scheme: "file", Path: filepath.ToSlash(file)}).String()
	switch runtime.GOOS {
	case "darwin":
		return dir, exec.Command("open", target).Start()
	case "windows":
		return dir, exec.Command("rundll32", "url.dll,FileProtocolHandler", target).Start()
	}
	return dir, exec.Command("xdg-open", target).Start()
}

// redirectFile writes an HTML file that sends a browser to page, in a new
// private directory.
func redirectFile(page string) (dir, file string, err error) {
	if dir, err = os.MkdirTemp("", "noggin-ui-"); err != nil {
		return "", "", err
	}
	file = filepath.Join(dir, "open.html")
	html := `<!doctype html><meta charset="utf-8"><meta name="referrer" content="no-referrer">` +
		`<meta http-equiv="refresh" content="0;url=` + htmltemplate.HTMLEscapeString(page) + `"><title>noggin</title>` + "\n"
	return dir, file, os.WriteFile(file, []byte(html), 0o600)
}
