// Package app is the noggin-mcp binary: its command line, logging, and the
// stdio and streamable-HTTP transports it serves the tools of package
// server on. cmd/noggin-mcp only calls Main.
package app

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/noggin-go/noggin/core/buildinfo"
	"github.com/noggin-go/noggin/core/cmdline"
	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/store"
	"github.com/noggin-go/noggin/surfaces/mcp/internal/server"
	"github.com/noggin-go/noggin/surfaces/rpc/remote"
)

// Env is what Main needs from the process.
type Env struct {
	Args   []string // without the program name
	Getenv func(string) string
	Stdin  io.ReadCloser
	Stdout io.WriteCloser
	Stderr io.Writer
	// Ready, if set, is called with the listen address once --http listens.
	Ready func(addr string)
}

const usage = `usage: noggin-mcp [--root DIR] [--server URL]... [--http ADDR [--allow-remote] [--token-file F]]
       noggin-mcp help | --help | --version | completion bash|zsh|fish

Serves the noggin MCP tools over stdio (default) or streamable HTTP.

  --root DIR       only serve noggins under DIR (default with --http: the current directory)
  --server URL     a noggin-rpc server (http(s)://HOST:PORT) whose remote locations agents may
                   use, besides $NOGGIN_SERVER and the servers of 'noggin login'; repeatable
  --http ADDR      serve streamable HTTP on ADDR (e.g. 127.0.0.1:8765) instead of stdio
  --allow-remote   allow --http on a non-loopback address; it needs a bearer token then
  --token-file F   a file holding the bearer token every HTTP request must send
                   (Authorization: Bearer …; default: $NOGGIN_MCP_TOKEN); required with
                   --allow-remote on a non-loopback address, never on the command line
  --agent NAME     make every call as agent NAME, with its own cursor (default: $NOGGIN_AGENT;
                   without either, each connection is an agent named after its client, e.g.
                   claude-code-3f2a, shown by noggin_where)
  --shared         use the shared active item, as the original noggin does (no agent)
  --log-level L    stderr log level: debug, info, warn, error (default warn)
  --version        print the version and exit
`

// Main runs the noggin-mcp binary and returns its exit code. Logs go to
// Stderr only; Stdout carries nothing but MCP messages (stdio mode).
func Main(ctx context.Context, env Env) int {
	fs := flag.NewFlagSet("noggin-mcp", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // an error is said below, in noggin's words
	fs.Usage = func() {}     // --help prints it on stdout; an error says where to look
	root := fs.String("root", "", "only serve noggins under this directory")
	var servers []string
	fs.Func("server", "a noggin-rpc server agents may use", func(v string) error {
		if _, err := remote.Origin(v); err != nil {
			return err
		}
		servers = append(servers, v)
		return nil
	})
	httpAddr := fs.String("http", "", "serve streamable HTTP on this address")
	agent := fs.String("agent", env.Getenv("NOGGIN_AGENT"), "make every call as this agent")
	shared := fs.Bool("shared", false, "use the shared active item")
	allowRemote := fs.Bool("allow-remote", false, "allow --http on a non-loopback address (with a token)")
	tokenFile := fs.String("token-file", "", "a file holding the HTTP bearer token")
	level := fs.String("log-level", "warn", "stderr log level: debug, info, warn, error")
	version := fs.Bool("version", false, "print the version")
	if len(env.Args) > 0 && env.Args[0] == "help" {
		fmt.Fprint(env.Stdout, usage)
		return 0
	}
	if len(env.Args) > 0 && env.Args[0] == "completion" {
		return completion(env, fs)
	}
	if err := fs.Parse(env.Args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(env.Stdout, usage)
			return 0
		}
		fmt.Fprintf(env.Stderr, "noggin-mcp: %s (see noggin-mcp --help)\n", cmdline.FlagError(err, env.Args))
		return 2
	}
	if *version {
		fmt.Fprintf(env.Stdout, "%s version %s\n", server.Name, buildinfo.Get())
		return 0
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(env.Stderr, "noggin-mcp: unexpected argument %q (see noggin-mcp --help)\n", fs.Arg(0))
		return 2
	}
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(*level)); err != nil {
		fmt.Fprintf(env.Stderr, "noggin-mcp: bad --log-level %q\n", *level)
		return 2
	}
	log := slog.New(slog.NewTextHandler(env.Stderr, &slog.HandlerOptions{Level: lv}))

	eng, err := noggin.EngineFromEnv(env.Getenv)
	if err != nil {
		fmt.Fprintf(env.Stderr, "noggin-mcp: %v\n", err)
		return 2
	}
	opts := store.Options{}
	if *root == "" && *httpAddr != "" {
		*root = "."
	}
	if *root != "" {
		abs, err := filepath.Abs(*root)
		if err == nil {
			var fi os.FileInfo
			if fi, err = os.Stat(abs); err == nil && !fi.IsDir() {
				err = fmt.Errorf("%s is not a directory", abs)
			}
		}
		if err != nil {
			fmt.Fprintf(env.Stderr, "noggin-mcp: --root: %v\n", err)
			return 2
		}
		opts.Root = abs
	}
	// Agents choose locations from what they read: only servers someone
	// configured are reached, and tokens go only to their own server.
	rc := remote.New(env.Getenv)
	rc.OnlyKnown, rc.Creds.Servers = true, servers
	cfg := server.Config{Engine: eng, Store: opts, Logger: log, Remote: rc}
	switch {
	case *shared:
	case *agent != "":
		if !noggin.ValidAgent(*agent) {
			fmt.Fprintf(env.Stderr, "noggin-mcp: --agent %q: not 1 to %d letters, digits and .-_ starting with a letter or digit\n", *agent, noggin.MaxAgent)
			return 2
		}
		cfg.Agent = *agent
	default:
		cfg.AgentID = agentIDs(env.Getenv("NOGGIN_KEYS") == "sequential")
	}
	h := server.NewHandler(cfg)

	if *httpAddr == "" {
		// End of input lets in-flight calls answer first (see drainTransport).
		if err := server.ServeStdio(ctx, h, env.Stdin, env.Stdout); err != nil {
			log.Error("stdio session ended", "error", err)
			return 1
		}
		return 0
	}
	token, err := cmdline.Token(*tokenFile, env.Getenv("NOGGIN_MCP_TOKEN"))
	if err == nil {
		err = checkListenAddr(*httpAddr, *allowRemote, token != "")
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "noggin-mcp: %v\n", err)
		return 2
	}
	ln, err := net.Listen("tcp", *httpAddr)
	if err != nil {
		fmt.Fprintf(env.Stderr, "noggin-mcp: %v\n", err)
		return 1
	}
	log.Warn("serving streamable HTTP", "addr", ln.Addr().String(), "root", opts.Root)
	if env.Ready != nil {
		env.Ready(ln.Addr().String())
	}
	srv := server.NewHTTPServer(h, log, token)
	go func() {
		<-ctx.Done()
		// The shutdown deadline starts when ctx is done: not ctx's cancellation.
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Error("http server", "error", err)
		return 1
	}
	return 0
}

// completion prints the shell completion script that "completion SHELL"
// asks for: the flags of fs and the words help and completion.
func completion(env Env, fs *flag.FlagSet) int {
	if len(env.Args) != 2 {
		fmt.Fprintf(env.Stderr, "noggin-mcp: completion takes one shell: %s\n", strings.Join(cmdline.Shells, ", "))
		return 2
	}
	words := []cmdline.Word{{Name: "help", Help: "print the usage"}, {Name: "completion", Help: "print a shell completion script"}}
	fs.VisitAll(func(f *flag.Flag) { words = append(words, cmdline.Word{Name: "--" + f.Name, Help: f.Usage}) })
	if err := cmdline.Completion(env.Stdout, env.Args[1], "noggin-mcp", words); err != nil {
		fmt.Fprintf(env.Stderr, "noggin-mcp: %v\n", err)
		return 2
	}
	return 0
}

// agentIDs returns the short ids of the connections' agent names: four
// hex digits of a hash of the session id and a secret of the process (a
// fixed one when keys are sequential, for tests).
func agentIDs(sequential bool) func(session string) string {
	secret := make([]byte, 16)
	if !sequential {
		_, _ = rand.Read(secret)
	}
	return func(session string) string {
		sum := sha256.Sum256(append(append([]byte(nil), secret...), session...))
		return hex.EncodeToString(sum[:2])
	}
}

// checkListenAddr refuses non-loopback listen addresses unless allowed
// and guarded by a token. An empty host (":8080") listens on every
// interface and counts as remote.
func checkListenAddr(addr string, allowRemote, token bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--http %q: %w", addr, err)
	}
	switch {
	case isLoopbackHost(host):
		return nil
	case !allowRemote:
		return fmt.Errorf("--http %q is not a loopback address; pass --allow-remote (with a token: --token-file or $NOGGIN_MCP_TOKEN) to listen on it", addr)
	case !token:
		return fmt.Errorf("--http %q is not a loopback address: it needs a bearer token (--token-file FILE or $NOGGIN_MCP_TOKEN), or every noggin under the root is anyone's", addr)
	}
	return nil
}

func isLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
