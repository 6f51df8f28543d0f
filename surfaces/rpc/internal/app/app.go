// Package app is the noggin-rpc binary: its command line and the HTTP
// server (HTTP/1.1 and h2c) it runs package server's handler on.
// cmd/noggin-rpc only calls Main.
//
//	noggin-rpc serve [--addr 127.0.0.1:7777] [--root DIR | --store postgres://…] [--token T] [--max-bytes N]
//	noggin-rpc import [--store …] [--replace] FILE NAME
//	noggin-rpc export [--store …] NAME FILE
//
// It serves only the noggins under --root (default: the current directory),
// or those of a team database (--store or $NOGGIN_RPC_STORE, package
// pgstore), listens on loopback by default, and refuses to bind a
// non-loopback address without a bearer token (--token or
// $NOGGIN_RPC_TOKEN).
package app

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/noggin-go/noggin/core/buildinfo"
	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/store"
	"github.com/noggin-go/noggin/surfaces/rpc/server"
)

// GCPercent is the garbage collector's target of noggin-rpc unless $GOGC
// sets one: a server keeps whole noggins in memory and every write makes
// a new version of one, so collecting at 4x the live heap instead of 2x
// trades memory (cheap on a server) for a quarter of the collection work
// (pgstore's BenchmarkClients: 8 clients on two replicas, 499 -> 635
// writes/s).
const GCPercent = 400

// SetGC applies GCPercent unless $GOGC is set.
func SetGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(GCPercent)
	}
}

// DefaultAddr is where noggin-rpc listens unless --addr says otherwise.
const DefaultAddr = "127.0.0.1:7777"

const usage = `noggin-rpc — the noggin RPC server (Connect, gRPC, gRPC-Web over h2c)

Usage:
  noggin-rpc serve [flags]
  noggin-rpc import [--store URL] [--replace] FILE NAME   a YAML or JSON noggin file into the team database
  noggin-rpc export [--store URL] NAME FILE               a noggin of the team database into a file
  noggin-rpc help
  noggin-rpc version      (or --version)

Flags of serve:
  --addr HOST:PORT   listen address (default 127.0.0.1:7777)
  --root DIR         the only directory whose noggins are served (default: current directory)
  --store URL        serve the noggins of a PostgreSQL team database instead of files
                     (a postgres:// URL; default: $NOGGIN_RPC_STORE); a noggin's location
                     (team.yaml) is its name in the database
  --token TOKEN      bearer token required on every call (default: $NOGGIN_RPC_TOKEN);
                     required when --addr is not a loopback address
  --max-bytes N      request size limit in bytes (default 33554432)

Environment: NOGGIN_RPC_TOKEN, NOGGIN_RPC_STORE, NOGGIN_CLOCK, NOGGIN_KEYS (testing aids, see the README).
`

// Main runs noggin-rpc with args (without the program name) and returns
// its exit code. serve runs until ctx is done (SIGINT/SIGTERM in the
// binary), then shuts down gracefully.
func Main(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprint(stdout, usage)
		return 0
	}
	if args[0] == "version" || args[0] == "--version" {
		fmt.Fprintf(stdout, "noggin-rpc version %s\n", buildinfo.Get())
		return 0
	}
	switch args[0] {
	case "import", "export":
		return move(ctx, args, getenv, stdout, stderr)
	}
	if args[0] != "serve" {
		fmt.Fprintf(stderr, "noggin-rpc: unknown command: %s (try 'help')\n", args[0])
		return 2
	}
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", DefaultAddr, "listen address")
	root := fs.String("root", "", "served directory (default: current directory)")
	token := fs.String("token", "", "bearer token (default $NOGGIN_RPC_TOKEN)")
	maxBytes := fs.Int64("max-bytes", server.DefaultMaxBytes, "request size limit")
	dsn := fs.String("store", "", "PostgreSQL team database (default $NOGGIN_RPC_STORE)")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "noggin-rpc: serve takes no arguments\n")
		return 2
	}
	if *token == "" {
		*token = getenv("NOGGIN_RPC_TOKEN")
	}
	if strings.TrimSpace(*token) != *token { // blank, or padded by a copy-paste
		fmt.Fprintf(stderr, "noggin-rpc: the token must not be blank or start or end with white space\n")
		return 2
	}
	dir, err := rootDir(*root)
	if err != nil {
		fmt.Fprintf(stderr, "noggin-rpc: %v\n", err)
		return 2
	}
	if *token == "" && !isLoopback(*addr) {
		fmt.Fprintf(stderr, "noggin-rpc: refusing to listen on non-loopback address %s without a token (--token or NOGGIN_RPC_TOKEN)\n", *addr)
		return 2
	}
	eng, err := noggin.EngineFromEnv(getenv)
	if err != nil {
		fmt.Fprintf(stderr, "noggin-rpc: %v\n", err)
		return 2
	}
	SetGC()
	cfg := server.Config{
		Engine:   eng,
		Store:    store.Options{Root: dir},
		Token:    *token,
		MaxBytes: *maxBytes,
	}
	served := dir
	if *dsn == "" {
		*dsn = getenv("NOGGIN_RPC_STORE")
	}
	if *dsn != "" {
		if *root != "" {
			fmt.Fprintf(stderr, "noggin-rpc: --root and --store exclude each other\n")
			return 2
		}
		db, err := openDB(ctx, *dsn)
		if err != nil {
			fmt.Fprintf(stderr, "noggin-rpc: %v\n", err)
			return 1
		}
		defer db.Close()
		cfg.Opener, served = db, "the team database"
	}
	srv, err := server.New(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "noggin-rpc: %v\n", err)
		return 1
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "noggin-rpc: %v\n", err)
		return 1
	}
	fmt.Fprintf(stderr, "noggin-rpc: serving %s on http://%s\n", served, ln.Addr())
	if err := serve(ctx, ln, srv); err != nil {
		fmt.Fprintf(stderr, "noggin-rpc: %v\n", err)
		return 1
	}
	return 0
}

// newHTTPServer returns the http.Server of noggin-rpc: HTTP/1.1 and h2c.
func newHTTPServer(h http.Handler) *http.Server {
	var p http.Protocols
	p.SetHTTP1(true)
	p.SetUnencryptedHTTP2(true)
	return &http.Server{
		Handler:           h,
		Protocols:         &p,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
	}
}

// serve serves on ln until ctx is done, then shuts down gracefully: Watch
// streams are ended, in-flight calls get up to 10 s to finish.
func serve(ctx context.Context, ln net.Listener, srv *server.Server) error {
	hs := newHTTPServer(srv)
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	srv.Close()
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		return err
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

func rootDir(root string) (string, error) {
	if root == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		root = wd
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("--root: %w", err)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("--root: %s is not a directory", abs)
	}
	return abs, nil
}

// isLoopback reports whether addr (host:port) binds only loopback.
func isLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
