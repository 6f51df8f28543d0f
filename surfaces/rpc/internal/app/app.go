// Package app is the noggin-rpc binary: its command line and the HTTP
// server (HTTP/1.1 and h2c) it runs package server's handler on.
// cmd/noggin-rpc only calls Main.
//
//	noggin-rpc serve [--addr 127.0.0.1:7777] [--root DIR | --store postgres://…] [--token-file F] [--max-bytes N]
//	noggin-rpc import [--store …] [--replace] FILE NAME
//	noggin-rpc export [--store …] NAME FILE
//
// It serves only the noggins under --root (default: the current directory),
// or those of a team database (--store or $NOGGIN_RPC_STORE, package
// pgstore), listens on loopback by default, and refuses to bind a
// non-loopback address without a bearer token (--token-file or
// $NOGGIN_RPC_TOKEN; --token is refused, argv is public).
package app

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/noggin-go/noggin/core/buildinfo"
	"github.com/noggin-go/noggin/core/cmdline"
	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/store"
	"github.com/noggin-go/noggin/surfaces/rpc/pgstore"
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
  noggin-rpc ui [--addr A] [--open] [LOCATION]            the web view of one noggin file
  (default: $NOGGIN, else ~/.noggin.yaml) on a loopback port, with a token made for this
  run; prints the address to open (the token rides in its #fragment, which is not sent)
  noggin-rpc import [--store URL] [--replace] FILE NAME   a YAML or JSON noggin file into the team database
  noggin-rpc export [--store URL] NAME FILE               a noggin of the team database into a file
  noggin-rpc help
  noggin-rpc version      (or --version)
  noggin-rpc completion bash|zsh|fish                     a shell completion script

Flags of serve:
  --addr HOST:PORT   listen address (default 127.0.0.1:7777)
  --root DIR         the only directory whose noggins are served (default: current directory)
  --store URL        serve the noggins of a PostgreSQL team database instead of files
                     (a postgres:// URL; default: $NOGGIN_RPC_STORE); a noggin's location
                     (team.yaml) is its name in the database
  --token-file FILE  a file holding the bearer token required on every call (default:
                     $NOGGIN_RPC_TOKEN); required when --addr is not a loopback address
  --token TOKEN      refused: every local user can read a command line (ps, /proc); use
                     --token-file or $NOGGIN_RPC_TOKEN
  --tls-cert FILE    serve HTTPS (HTTP/2 included) with this certificate (PEM, the chain)...
  --tls-key FILE     ...and its private key; both are read again when they change
  --behind-tls-proxy the server sits behind a TLS proxy: allows a non-loopback --addr
                     without --tls-cert (a token is still required)
  --max-bytes N      request size limit in bytes (default 33554432)
  --log-format F     text (default) or json: a line per call, startup and shutdown, on stderr
  --log-level L      debug, info (default), warn or error
  --metrics-addr A   serve /metrics (Prometheus) on this address instead of --addr
  --grace D          how long calls in flight may finish after SIGTERM (default 10s)

The web view: /ui/ lists the served noggins, /ui/NAME shows one, live (it asks for the
token once per browser tab on a token server).

Endpoints besides the RPC services, without a token: /healthz (the process serves),
/readyz (its store answers: the root is readable, the database reachable), /metrics.

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
	case "completion":
		return completion(args, stdout, stderr)
	case "import", "export":
		return move(ctx, args, getenv, stdout, stderr)
	case "ui":
		return uiMain(ctx, args, getenv, stdout, stderr)
	}
	if args[0] != "serve" {
		fmt.Fprintf(stderr, "noggin-rpc: unknown command: %s (try 'help')\n", noggin.Safe(args[0]))
		return 2
	}
	return serveMain(ctx, args, getenv, stdout, stderr)
}

// serveMain runs `noggin-rpc serve` (args[0]) until ctx is done.
func serveMain(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	addr := fs.String("addr", DefaultAddr, "listen address")
	root := fs.String("root", "", "served directory (default: current directory)")
	// --token is defined only to be refused in words (a command line is public).
	token := fs.String("token", "", "refused: use --token-file or $NOGGIN_RPC_TOKEN")
	tokenFile := fs.String("token-file", "", "file holding the bearer token")
	tlsCert := fs.String("tls-cert", "", "TLS certificate file")
	tlsKey := fs.String("tls-key", "", "TLS key file")
	behindProxy := fs.Bool("behind-tls-proxy", false, "a TLS proxy is in front")
	logFormat := fs.String("log-format", "text", "text or json")
	logLevel := fs.String("log-level", "info", "debug, info, warn or error")
	metricsAddr := fs.String("metrics-addr", "", "address of /metrics")
	grace := fs.Duration("grace", 10*time.Second, "time for calls in flight after SIGTERM")
	maxBytes := fs.Int64("max-bytes", server.DefaultMaxBytes, "request size limit")
	dsn := fs.String("store", "", "PostgreSQL team database (default $NOGGIN_RPC_STORE)")
	if code, done := parseFlags(fs, args, stdout, stderr); done {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "noggin-rpc: serve takes no arguments\n")
		return 2
	}
	log, err := newLogger(stderr, *logFormat, *logLevel)
	if err != nil {
		fmt.Fprintf(stderr, "noggin-rpc: %v\n", err)
		return 2
	}
	if flagSet(fs, "token") {
		fmt.Fprintf(stderr, "noggin-rpc: --token is refused: every local user can read a command line (ps, /proc); put the token in a file for --token-file, or in $NOGGIN_RPC_TOKEN\n")
		return 2
	}
	if *token, err = cmdline.Token(*tokenFile, getenv("NOGGIN_RPC_TOKEN")); err != nil {
		fmt.Fprintf(stderr, "noggin-rpc: %v\n", err)
		return 2
	}
	if (*tlsCert == "") != (*tlsKey == "") {
		fmt.Fprintf(stderr, "noggin-rpc: --tls-cert and --tls-key go together\n")
		return 2
	}
	dir, err := rootDir(*root)
	if err != nil {
		fmt.Fprintf(stderr, "noggin-rpc: %v\n", err)
		return 2
	}
	if err := exposure(*addr, *token, *tlsCert != "" || *behindProxy); err != nil {
		fmt.Fprintf(stderr, "noggin-rpc: %v\n", err)
		return 2
	}
	var certs *certReloader
	if *tlsCert != "" {
		if certs, err = newCertReloader(*tlsCert, *tlsKey); err != nil {
			fmt.Fprintf(stderr, "noggin-rpc: %v\n", err)
			return 2
		}
	}
	eng, err := noggin.EngineFromEnv(getenv)
	if err != nil {
		fmt.Fprintf(stderr, "noggin-rpc: %v\n", err)
		return 2
	}
	SetGC()
	metrics := server.NewMetrics()
	host, _ := os.Hostname()
	cfg := server.Config{
		Engine:   eng,
		Store:    store.Options{Root: dir, Observe: metrics.Observe},
		Token:    *token,
		MaxBytes: *maxBytes,
		Logger:   log, Replica: fmt.Sprintf("%s/%d", host, os.Getpid()),
		Metrics: metrics, MetricsElsewhere: *metricsAddr != "",
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
		if err := pgstore.CheckAddress(*dsn); err != nil {
			fmt.Fprintf(stderr, "noggin-rpc: %v\n", err)
			return 2
		}
		// The replica serves at once: /healthz 200, /readyz 503 and calls
		// unavailable until the database answers.
		db := &teamDB{}
		defer db.close()
		cfg.Opener, served = db, "the team database"
		cfg.Ready = func(ctx context.Context) error {
			// /readyz answers without a token: the cause (users, hosts,
			// socket paths of the DSN) goes to the log, not to the caller.
			err := db.ready(ctx)
			if err != nil && !errors.Is(err, errWaiting) {
				log.Warn("not ready", "cause", dbCause(err))
			}
			if err != nil {
				return errors.New("the database does not answer")
			}
			return nil
		}
		poolGauges(metrics, db.poolStat)
		waitCtx, stopWaiting := context.WithCancel(ctx)
		defer stopWaiting()
		go db.waitForDB(waitCtx, *dsn, log, func(d *pgstore.DB) { d.Observe = metrics.Observe })
	}
	srv, ln, ok := listen(cfg, *addr, stderr)
	if !ok {
		return 1
	}
	scheme := "http"
	if certs != nil {
		scheme = "https"
	}
	fmt.Fprintf(stderr, "noggin-rpc: serving %s on %s://%s\n", served, scheme, ln.Addr())
	log.Info("serving", "store", storeKind(*dsn), "addr", ln.Addr().String(), "tls", certs != nil, "token", *token != "", "replica", cfg.Replica)
	if *metricsAddr != "" {
		mln, err := net.Listen("tcp", *metricsAddr)
		if err != nil {
			fmt.Fprintf(stderr, "noggin-rpc: --metrics-addr: %v\n", err)
			return 1
		}
		ms := &http.Server{Handler: metrics.Handler(), ReadHeaderTimeout: defaultTimeouts.header}
		go func() { _ = ms.Serve(mln) }()
		defer func() { _ = ms.Close() }()
	}
	t := defaultTimeouts
	t.grace = *grace
	if err := serve(ctx, ln, srv, certs, t); err != nil {
		log.Error("stopped", "error", err.Error())
		fmt.Fprintf(stderr, "noggin-rpc: %v\n", err)
		return 1
	}
	log.Info("stopped: calls in flight finished, Watch streams ended unavailable")
	return 0
}

// listen builds the server of cfg and listens on addr; ok is false after
// a failure, said on stderr.
func listen(cfg server.Config, addr string, stderr io.Writer) (*server.Server, net.Listener, bool) {
	srv, err := server.New(cfg)
	if err == nil {
		var ln net.Listener
		if ln, err = net.Listen("tcp", addr); err == nil {
			return srv, ln, true
		}
		srv.Close()
	}
	fmt.Fprintf(stderr, "noggin-rpc: %v\n", err)
	return nil, nil, false
}

// parseFlags parses a command's flags (args[0] is the command); done says
// the command ends with code: 0 after --help printed the usage, 2 after a
// bad flag (the flag package said why on stderr).
func parseFlags(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) (code int, done bool) {
	fs.SetOutput(io.Discard) // an error is said below, in noggin's words
	fs.Usage = func() {}     // --help prints the usage on stdout; an error says where to look
	err := fs.Parse(args[1:])
	switch {
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(stdout, usage)
		return 0, true
	case err != nil:
		fmt.Fprintf(stderr, "noggin-rpc: %s: %s (see noggin-rpc help)\n", args[0], cmdline.FlagError(err, args[1:]))
		return 2, true
	}
	return 0, false
}

// completion prints the shell completion script "completion SHELL" asks
// for: the commands, and the flags the usage text lists.
func completion(args []string, stdout, stderr io.Writer) int {
	if len(args) != 2 {
		fmt.Fprintf(stderr, "noggin-rpc: completion takes one shell: %s\n", strings.Join(cmdline.Shells, ", "))
		return 2
	}
	words := []cmdline.Word{{Name: "serve", Help: "serve noggins"}, {Name: "ui", Help: "the web view of one noggin file"},
		{Name: "import", Help: "a noggin file into the team database"}, {Name: "export", Help: "a noggin of the team database into a file"},
		{Name: "help", Help: "print the usage"}, {Name: "version", Help: "print the version"}, {Name: "completion", Help: "print a shell completion script"}}
	for _, line := range strings.Split(usage, "\n") {
		f, ok := strings.CutPrefix(line, "  --")
		if !ok {
			continue
		}
		name, help, _ := strings.Cut(f, " ")
		words = append(words, cmdline.Word{Name: "--" + name, Help: strings.TrimSpace(help)})
	}
	if err := cmdline.Completion(stdout, args[1], "noggin-rpc", words); err != nil {
		fmt.Fprintf(stderr, "noggin-rpc: %v\n", err)
		return 2
	}
	return 0
}

// poolGauges exports the database pool's connection counts.
func poolGauges(metrics *server.Metrics, stat func() (acquired, idle, total, max int32)) {
	for _, g := range []struct {
		name, help string
		v          func(acquired, idle, total, max int32) int32
	}{
		{"noggin_db_pool_acquired_connections", "Database connections in use.", func(a, _, _, _ int32) int32 { return a }},
		{"noggin_db_pool_idle_connections", "Idle database connections.", func(_, i, _, _ int32) int32 { return i }},
		{"noggin_db_pool_connections", "Database connections open.", func(_, _, t, _ int32) int32 { return t }},
		{"noggin_db_pool_max_connections", "Most database connections the pool opens.", func(_, _, _, m int32) int32 { return m }},
	} {
		metrics.Gauge(g.name, g.help, func() float64 { return float64(g.v(stat())) })
	}
}

// storeKind names the store in the log without its address (which may
// hold a password) or the root's absolute path.
func storeKind(dsn string) string {
	if dsn != "" {
		return "postgres"
	}
	return "files"
}

// newLogger is the server's log on w: text or JSON lines at level.
func newLogger(w io.Writer, format, level string) (*slog.Logger, error) {
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("--log-level %q: debug, info, warn or error", level)
	}
	o := &slog.HandlerOptions{Level: lv}
	switch format {
	case "text":
		return slog.New(slog.NewTextHandler(w, o)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, o)), nil
	}
	return nil, fmt.Errorf("--log-format %q: text or json", format)
}

// timeouts bound what a client may hold: the request's headers, its
// whole body, the answer's writing, an idle connection. A stream (Watch)
// has no read deadline once its request is read, and the write timeout
// for each of its messages instead of for the whole answer (see streams).
type timeouts struct{ header, read, write, idle, grace time.Duration }

var defaultTimeouts = timeouts{header: 10 * time.Second, read: time.Minute, write: time.Minute, idle: 2 * time.Minute, grace: 10 * time.Second}

// newHTTPServer returns the http.Server of noggin-rpc: HTTP/1.1 and HTTP/2
// (h2c without TLS).
func newHTTPServer(h http.Handler, t timeouts) *http.Server {
	var p http.Protocols
	p.SetHTTP1(true)
	p.SetHTTP2(true)
	p.SetUnencryptedHTTP2(true)
	return &http.Server{
		Handler:           streams(h, t.write),
		Protocols:         &p,
		ReadHeaderTimeout: t.header,
		ReadTimeout:       t.read,
		WriteTimeout:      t.write,
		IdleTimeout:       t.idle,
		MaxHeaderBytes:    64 << 10,
	}
}

// streams gives a streaming call (Watch), which writes for as long as the
// client watches, a write deadline for each piece it writes instead of one
// for the whole answer — a client that stops taking what it is sent is cut
// off a write timeout later, while one that takes a large document slowly,
// or only watches a quiet noggin, stays — and lifts its read deadline once
// its request is read: the read timeout still cuts a request that stalls.
func streams(h http.Handler, write time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/Watch") {
			rc := http.NewResponseController(w)
			_ = rc.SetWriteDeadline(time.Time{})
			r.Body = &onEOF{ReadCloser: r.Body, eof: func() { _ = rc.SetReadDeadline(time.Time{}) }}
			w = perWrite{ResponseWriter: w, rc: rc, d: write}
		}
		h.ServeHTTP(w, r)
	})
}

// perWrite gives each piece (at most streamPiece bytes) and flush of a
// stream the write timeout, and clears it after (an HTTP/2 stream's
// deadline would end a stream that is merely quiet).
type perWrite struct {
	http.ResponseWriter
	rc *http.ResponseController
	d  time.Duration
}

const streamPiece = 64 << 10

func (w perWrite) Write(p []byte) (n int, err error) {
	defer w.rc.SetWriteDeadline(time.Time{}) //nolint:errcheck // as in streams
	for len(p) > 0 && err == nil {
		k := min(len(p), streamPiece)
		_ = w.rc.SetWriteDeadline(time.Now().Add(w.d))
		k, err = w.ResponseWriter.Write(p[:k])
		n, p = n+k, p[k:]
	}
	return n, err
}

func (w perWrite) Flush() {
	_ = w.rc.SetWriteDeadline(time.Now().Add(w.d))
	_ = w.rc.Flush()
	_ = w.rc.SetWriteDeadline(time.Time{})
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w perWrite) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// onEOF calls eof once its body has been read to the end.
type onEOF struct {
	io.ReadCloser
	eof  func()
	done bool
}

func (b *onEOF) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF && !b.done {
		b.done = true
		b.eof()
	}
	return n, err
}

// serve serves on ln (HTTPS with certs, when not nil) until ctx is done,
// then shuts down gracefully: it stops accepting, Watch streams end
// (unavailable: clients reconnect), calls in flight get t.grace to finish.
func serve(ctx context.Context, ln net.Listener, srv *server.Server, certs *certReloader, t timeouts) error {
	hs := newHTTPServer(srv, t)
	errc := make(chan error, 1)
	go func() {
		if certs != nil {
			hs.TLSConfig = &tls.Config{MinVersion: tls.VersionTLS12, GetCertificate: certs.get}
			errc <- hs.ServeTLS(ln, "", "")
			return
		}
		errc <- hs.Serve(ln)
	}()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	srv.Close()
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), t.grace) // the grace starts now
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		return err
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// certReloader serves a certificate and key pair from two files, read
// again when either changes (a renewed certificate needs no restart).
type certReloader struct {
	cert, key string
	mu        sync.Mutex
	stamp     string
	pair      *tls.Certificate
}

func newCertReloader(cert, key string) (*certReloader, error) {
	c := &certReloader{cert: cert, key: key}
	if _, err := c.get(nil); err != nil {
		return nil, err
	}
	return c, nil
}

// get returns the pair, reading the files again if their stamp changed; a
// pair that fails to load keeps the last good one.
func (c *certReloader) get(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	stamp := ""
	for _, f := range []string{c.cert, c.key} {
		fi, err := os.Stat(f)
		if err != nil {
			return c.last(fmt.Errorf("TLS: %w", err))
		}
		stamp += fmt.Sprintf("%d:%d;", fi.ModTime().UnixNano(), fi.Size())
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if stamp == c.stamp && c.pair != nil {
		return c.pair, nil
	}
	pair, err := tls.LoadX509KeyPair(c.cert, c.key)
	if err != nil {
		if c.pair != nil {
			return c.pair, nil
		}
		return nil, fmt.Errorf("TLS: %w", err)
	}
	c.stamp, c.pair = stamp, &pair
	return c.pair, nil
}

func (c *certReloader) last(err error) (*tls.Certificate, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pair != nil {
		return c.pair, nil
	}
	return nil, err
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

// flagSet reports whether the command line set the flag name.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// exposure refuses a listener off loopback without a token, or one that
// would send the token in clear text (tls: HTTPS, here or in a proxy).
func exposure(addr, token string, tls bool) error {
	switch {
	case isLoopback(addr):
		return nil
	case token == "":
		return fmt.Errorf("refusing to listen on non-loopback address %s without a token (--token-file or $NOGGIN_RPC_TOKEN)", addr)
	case !tls:
		return fmt.Errorf("refusing to send tokens in clear text on non-loopback address %s: serve HTTPS (--tls-cert, --tls-key), or say that a TLS proxy is in front (--behind-tls-proxy)", addr)
	}
	return nil
}
