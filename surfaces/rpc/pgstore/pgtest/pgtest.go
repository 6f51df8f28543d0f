// Package pgtest starts throwaway PostgreSQL clusters for tests: initdb in
// a temporary directory, a server listening only on a unix socket in that
// directory, stopped (and the directory removed) when the test ends.
//
// The server binaries are looked up in $NOGGIN_PG_BIN, then on $PATH, then
// in /usr/lib/postgresql/*/bin (Debian's postgresql package). When they
// are missing, tests that need PostgreSQL are skipped with a loud message,
// unless $NOGGIN_REQUIRE_PG is set (CI sets it), which makes them fail.
//
// PostgreSQL refuses to run as root: a root test process runs initdb and
// the server as the "postgres" user (created by Debian's package) and
// hands it the directory.
package pgtest

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Cluster is one running throwaway PostgreSQL server.
type Cluster struct {
	bin   string // directory of initdb, pg_ctl, postgres
	dir   string // the cluster's directory (data and socket)
	data  string
	creds *syscall.Credential
	log   string
	// DSN connects as the superuser "noggin" to the database "noggin".
	DSN string
}

// Options shape a cluster.
type Options struct {
	// Durable keeps fsync and synchronous commit on (benchmarks that
	// compare with the file store's durable writes). Off by default:
	// tests need correctness, not crash safety, and run faster.
	Durable bool
}

// Start starts a cluster for tb and stops it when tb ends. It skips (or
// fails, under $NOGGIN_REQUIRE_PG) when PostgreSQL is not installed.
func Start(tb testing.TB, o Options) *Cluster {
	tb.Helper()
	bin, err := findBin()
	if err != nil {
		missing(tb, err)
	}
	c, err := start(bin, o)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(c.Stop)
	return c
}

func missing(tb testing.TB, err error) {
	tb.Helper()
	if os.Getenv("NOGGIN_REQUIRE_PG") != "" {
		tb.Fatalf("PostgreSQL is required ($NOGGIN_REQUIRE_PG) but %v", err)
	}
	tb.Skipf("SKIPPED: this test needs PostgreSQL, and %v. Install Debian's postgresql package "+
		"(apt-get install postgresql) or set NOGGIN_PG_BIN to the directory of initdb; "+
		".ci/run does both and sets NOGGIN_REQUIRE_PG=1", err)
}

// Shared is one cluster for a whole test binary, started by TestMain
// (StartShared) and handed to the tests that need it (Need).
type Shared struct {
	c   *Cluster
	err error
	// broken: PostgreSQL is installed but the cluster did not start.
	broken bool
}

// StartShared starts a cluster for a test binary; a failure (PostgreSQL
// missing) is reported by Need, test by test.
func StartShared(o Options) *Shared {
	bin, err := findBin()
	if err != nil {
		return &Shared{err: err}
	}
	c, err := start(bin, o)
	return &Shared{c: c, err: err, broken: err != nil}
}

// Need returns the shared cluster, or skips tb (fails it under
// $NOGGIN_REQUIRE_PG) when there is none.
func (s *Shared) Need(tb testing.TB) *Cluster {
	tb.Helper()
	if s.broken {
		tb.Fatal(s.err)
	}
	if s.c == nil {
		missing(tb, s.err)
	}
	return s.c
}

// Stop stops the shared cluster (call it at the end of TestMain).
func (s *Shared) Stop() {
	if s.c != nil {
		s.c.Stop()
	}
	if s.err != nil && !s.broken && os.Getenv("NOGGIN_REQUIRE_PG") == "" {
		fmt.Fprintf(os.Stderr, "\n*** PostgreSQL tests were SKIPPED: %v.\n*** Install postgresql (Debian) or set NOGGIN_PG_BIN; .ci/run runs them.\n\n", s.err)
	}
}

// NewDatabase creates an empty database in the cluster and returns its
// address (tests that need a database of their own).
func (c *Cluster) NewDatabase(tb testing.TB, name string) string {
	tb.Helper()
	if err := c.run("createdb", "-h", c.dir, "-U", "noggin", name); err != nil {
		tb.Fatal(err)
	}
	return fmt.Sprintf("postgres://noggin@/%s?host=%s&sslmode=disable", name, c.dir)
}

// Restart stops the server (fast shutdown: clients are disconnected) and
// starts it again on the same directory.
func (c *Cluster) Restart(tb testing.TB) {
	tb.Helper()
	if err := c.ctl("stop", "-m", "fast", "-w"); err != nil {
		tb.Fatal(err)
	}
	if err := c.ctl("start", "-w", "-t", "60", "-l", c.log); err != nil {
		tb.Fatal(err)
	}
}

// StopServer stops the server, keeping the directory (Restart later).
func (c *Cluster) StopServer(tb testing.TB) {
	tb.Helper()
	if err := c.ctl("stop", "-m", "fast", "-w"); err != nil {
		tb.Fatal(err)
	}
}

// StartServer starts a server stopped by StopServer.
func (c *Cluster) StartServer(tb testing.TB) {
	tb.Helper()
	if err := c.ctl("start", "-w", "-t", "60", "-l", c.log); err != nil {
		tb.Fatal(err)
	}
}

// Stop stops the server and removes its directory.
func (c *Cluster) Stop() {
	_ = c.ctl("stop", "-m", "immediate", "-w")
	_ = os.RemoveAll(c.dir)
}

func start(bin string, o Options) (*Cluster, error) {
	dir, err := os.MkdirTemp("", "noggin-pg-")
	if err != nil {
		return nil, err
	}
	c := &Cluster{bin: bin, dir: dir, data: filepath.Join(dir, "data"), log: filepath.Join(dir, "server.log")}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			return nil, fmt.Errorf("pgtest: running as root needs the postgres user: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		c.creds = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
		if err := os.Chown(dir, uid, gid); err != nil {
			return nil, err
		}
	}
	if err := c.run("initdb", "-D", c.data, "-U", "noggin", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-instructions"); err != nil {
		return nil, err
	}
	conf := fmt.Sprintf("listen_addresses = ''\nunix_socket_directories = '%s'\nmax_connections = 200\nshared_buffers = 64MB\n", dir)
	if !o.Durable {
		conf += "fsync = off\nsynchronous_commit = off\nfull_page_writes = off\n"
	}
	f, err := os.OpenFile(filepath.Join(c.data, "postgresql.conf"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return nil, err
	}
	_, err = f.WriteString(conf)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	if err := c.ctl("start", "-w", "-t", "60", "-l", c.log); err != nil {
		return nil, err
	}
	if err := c.run("createdb", "-h", dir, "-U", "noggin", "noggin"); err != nil {
		c.Stop()
		return nil, err
	}
	c.DSN = fmt.Sprintf("postgres://noggin@/noggin?host=%s&sslmode=disable", dir)
	return c, nil
}

func (c *Cluster) ctl(args ...string) error {
	return c.run("pg_ctl", append([]string{"-D", c.data}, args...)...)
}

func (c *Cluster) run(name string, args ...string) error {
	cmd := exec.Command(filepath.Join(c.bin, name), args...)
	cmd.Dir = c.dir
	cmd.Env = append(os.Environ(), "LC_ALL=C", "PGTZ=UTC")
	if c.creds != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c.creds}
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		logText, _ := os.ReadFile(c.log)
		return fmt.Errorf("pgtest: %s %s: %w\n%s\n%s", name, strings.Join(args, " "), err, out, logText)
	}
	return nil
}

// findBin finds the directory holding initdb and pg_ctl.
func findBin() (string, error) {
	if d := os.Getenv("NOGGIN_PG_BIN"); d != "" {
		return d, nil
	}
	if p, err := exec.LookPath("pg_ctl"); err == nil {
		if real, err := filepath.EvalSymlinks(p); err == nil { // Debian links a few tools into /usr/local/bin
			p = real
		}
		if _, err := os.Stat(filepath.Join(filepath.Dir(p), "createdb")); err == nil {
			return filepath.Dir(p), nil
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "pg_ctl")); err == nil {
			return d, nil
		}
	}
	return "", errors.New("no PostgreSQL server binaries (initdb, pg_ctl) were found")
}

func version(dir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(dir)))
	return n
}

// WaitFor polls cond every 10 ms until it holds or d passes.
func WaitFor(d time.Duration, cond func() bool) bool {
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return cond()
}
