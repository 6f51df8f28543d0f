package e2e

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

var (
	update  = flag.Bool("update", false, "rewrite the expected envelopes and files of the scenarios")
	scnFlag = flag.String("scenario", "", "only run scenarios whose name matches this regexp")
	// allowMissing lets the suite skip a surface whose binary does not
	// build (while the surfaces are being written). Off by default: in CI
	// every surface must build and nothing is skipped.
	workers      = flag.Int("workers", 4, "scenarios run at once per mode")
	allowMissing = flag.Bool("allow-missing", false, "skip surfaces whose binary does not build instead of failing")
)

// Clock is the fixed instant every process of the suite runs with.
const Clock = "2026-01-02T03:04:05.678Z"

// suite holds what TestMain prepared.
var suite struct {
	tmp      string
	bins     map[string]string // surface → binary
	buildErr map[string]error
	work     string // work directory of the scenario runs

	rpcOnce sync.Once
	rpcSrv  *RPCServer
	rpcErr  error
}

var binaries = map[string]string{
	CLI: "surfaces/cli/cmd/noggin",
	MCP: "surfaces/mcp/cmd/noggin-mcp",
	RPC: "surfaces/rpc/cmd/noggin-rpc",
}

func TestMain(m *testing.M) {
	flag.Parse()
	code := func() int {
		tmp, err := os.MkdirTemp("", "noggin-e2e-")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer os.RemoveAll(tmp)
		if tmp, err = filepath.EvalSymlinks(tmp); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		suite.tmp = tmp
		suite.work = filepath.Join(tmp, "work")
		if err := os.MkdirAll(suite.work, 0o755); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		buildAll(filepath.Join(tmp, "bin"))
		defer func() {
			if suite.rpcSrv != nil {
				suite.rpcSrv.Stop()
			}
		}()
		return m.Run()
	}()
	os.Exit(code)
}

// buildAll builds the three binaries from the workspace; a failed build is
// recorded (its surface is then skipped with the build output as reason).
func buildAll(dir string) {
	suite.bins = map[string]string{}
	suite.buildErr = map[string]error{}
	root, err := filepath.Abs("..")
	if err != nil {
		panic(err)
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for s, pkg := range binaries {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out := filepath.Join(dir, filepath.Base(pkg))
			cmd := exec.Command("go", "build", "-o", out, "./"+pkg)
			cmd.Dir = root
			b, err := cmd.CombinedOutput()
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				suite.buildErr[s] = fmt.Errorf("go build ./%s: %w\n%s", pkg, err, b)
				return
			}
			suite.bins[s] = out
		}()
	}
	wg.Wait()
}

// needBinary skips the test when a surface's binary did not build.
func needBinary(t *testing.T, s string) string {
	t.Helper()
	if err := suite.buildErr[s]; err != nil {
		if !*allowMissing {
			t.Fatalf("surface %s does not build (run with -allow-missing to skip it while developing): %v", s, err)
		}
		t.Skipf("SKIPPED: surface %s does not build yet: %v", s, err)
	}
	return suite.bins[s]
}

// processEnv is the environment of every surface process: the determinism
// seam set (unless random), HOME inside the temp dir, no NOGGIN.
func processEnv(deterministic bool) []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "NOGGIN") || strings.HasPrefix(kv, "HOME=") || strings.HasPrefix(kv, "XDG_CONFIG_HOME=") {
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "HOME="+filepath.Join(suite.tmp, "home"))
	if deterministic {
		env = append(env, "NOGGIN_CLOCK="+Clock, "NOGGIN_KEYS=sequential")
	}
	return env
}

// freePort returns a currently free loopback port.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// RPCServer is a running `noggin-rpc serve`.
type RPCServer struct {
	Addr string
	cmd  *exec.Cmd
	done chan struct{}
	log  *syncWriter // its stdout and stderr
}

// StartRPCServer starts noggin-rpc serve on a free loopback port with root
// (none when ""), and the extra flags of serve; a replica of a team
// database (--store) is waited for until /readyz says its database
// answers.
func StartRPCServer(bin, root string, env []string, extra ...string) (*RPCServer, error) {
	return startRPCServer(bin, root, env, slices.Contains(extra, "--store"), extra...)
}

// startRPCServer is StartRPCServer, waiting for /readyz when ready.
func startRPCServer(bin, root string, env []string, ready bool, extra ...string) (*RPCServer, error) {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		port, err := freePort()
		if err != nil {
			return nil, err
		}
		addr := fmt.Sprintf("127.0.0.1:%d", port)
		args := []string{"serve", "--addr", addr}
		if root != "" {
			args = append(args, "--root", root)
		}
		cmd := exec.Command(bin, append(args, extra...)...)
		cmd.Env = env
		dieWithParent(cmd)
		cmd.Dir = root
		if root == "" {
			cmd.Dir = suite.work
		}
		log := &syncWriter{b: &strings.Builder{}}
		cmd.Stdout, cmd.Stderr = log, log
		if err := cmd.Start(); err != nil {
			return nil, err
		}
		srv := &RPCServer{Addr: addr, cmd: cmd, done: make(chan struct{}), log: log}
		go func() { _ = cmd.Wait(); close(srv.done) }()
		deadline := time.Now().Add(20 * time.Second)
		for time.Now().Before(deadline) {
			select {
			case <-srv.done:
				lastErr = fmt.Errorf("noggin-rpc serve exited early: %s", log.String())
			default:
			}
			if lastErr != nil {
				break
			}
			c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
			if err == nil {
				c.Close()
				if !ready || srv.Ready() {
					return srv, nil
				}
			}
			time.Sleep(20 * time.Millisecond)
		}
		srv.Stop()
		if lastErr == nil {
			lastErr = fmt.Errorf("noggin-rpc serve did not listen on %s within 20s: %s", addr, log.String())
		}
	}
	return nil, lastErr
}

// Ready reports whether /readyz answers 200.
func (s *RPCServer) Ready() bool {
	resp, err := http.Get("http://" + s.Addr + "/readyz")
	if err != nil {
		return false
	}
	_ = resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// Stop terminates the server gracefully (SIGTERM, then kill).
func (s *RPCServer) Stop() {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(5 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.done
	}
}

type syncWriter struct {
	mu sync.Mutex
	b  *strings.Builder
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

// String is what was written so far.
func (w *syncWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// sharedRPC returns the suite's RPC server (root = the work directory),
// started on first use.
func sharedRPC(t *testing.T) *RPCServer {
	t.Helper()
	bin := needBinary(t, RPC)
	suite.rpcOnce.Do(func() {
		suite.rpcSrv, suite.rpcErr = StartRPCServer(bin, suite.work, processEnv(true))
	})
	if suite.rpcErr != nil {
		t.Fatalf("starting the RPC server: %v", suite.rpcErr)
	}
	return suite.rpcSrv
}

func loadScenarios(t *testing.T) []*Scenario {
	t.Helper()
	all, err := LoadScenarios("testdata/scenarios")
	if err != nil {
		t.Fatal(err)
	}
	if *scnFlag == "" {
		return all
	}
	re := regexp.MustCompile(*scnFlag)
	var out []*Scenario
	for _, s := range all {
		if re.MatchString(s.Name) {
			out = append(out, s)
		}
	}
	return out
}

// surfacesFor starts what a mode needs: the CLI, a fresh MCP process, the
// shared RPC server's client. Unavailable surfaces are reported in skipped.
func surfacesFor(t *testing.T, mode string) (map[string]Surface, []string) {
	t.Helper()
	want := []string{mode}
	if mode == Mixed {
		want = AllSurfaces
	}
	sfs := map[string]Surface{}
	var skipped []string
	for _, s := range want {
		if err := suite.buildErr[s]; err != nil {
			skipped = append(skipped, fmt.Sprintf("%s (build failed: %v)", s, firstLine(err.Error())))
			continue
		}
		switch s {
		case CLI:
			sfs[CLI] = &CLISurface{Bin: suite.bins[CLI], Dir: suite.work, Env: processEnv(true)}
		case MCP:
			// noggin-mcp reaches the servers it is given: the shared one.
			env := append(processEnv(true), "NOGGIN_SERVER=http://"+sharedRPC(t).Addr)
			m, err := StartMCP(context.Background(), suite.bins[MCP], suite.work, env)
			if err != nil {
				t.Fatalf("starting noggin-mcp: %v", err)
			}
			t.Cleanup(func() { _ = m.Close() })
			sfs[MCP] = m
		case RPC:
			srv := sharedRPC(t)
			c, err := NewRPCSurface(srv.Addr)
			if err != nil {
				skipped = append(skipped, fmt.Sprintf("rpc (client: %v)", err))
				continue
			}
			sfs[RPC] = c
		}
	}
	return sfs, skipped
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// TestScenarios runs every scenario on the CLI, on MCP, on RPC and mixed,
// then compares every step's envelope across the runs and with the golden,
// and the final files.
func TestScenarios(t *testing.T) {
	scns := loadScenarios(t)
	if len(scns) == 0 {
		t.Fatal("no scenarios")
	}
	runs := runModes(t, scns, true)
	norm := Normalizer(suite.work)
	for _, s := range scns {
		t.Run(s.Name, func(t *testing.T) {
			rs := runs[s.Name]
			if len(rs) == 0 {
				t.Skip("SKIPPED: no surface available")
			}
			if *update {
				if err := UpdateGoldens(s, rs, norm); err != nil {
					t.Error(err)
				}
				path := filepath.Join("testdata/scenarios", s.Name+".txtar")
				old, _ := os.ReadFile(path)
				if b := s.Format(); string(b) != string(old) {
					if err := os.WriteFile(path, b, 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			for _, msg := range Compare(s, rs, norm) {
				t.Error(msg)
			}
		})
	}
}

// runModes runs scns in every mode (the CLI, MCP, RPC and mixed), a few
// at a time per mode, and returns each scenario's runs by name.
func runModes(t *testing.T, scns []*Scenario, logTimes bool) map[string][]*RunResult {
	t.Helper()
	return runModesOf(t, scns, []string{CLI, MCP, RPC, Mixed}, logTimes)
}

// runModesOf is runModes for the given modes.
func runModesOf(t *testing.T, scns []*Scenario, modes []string, logTimes bool) map[string][]*RunResult {
	t.Helper()
	runs := map[string][]*RunResult{}
	ctx := context.Background()
	for _, mode := range modes {
		sfs, skipped := surfacesFor(t, mode)
		var rot []string
		if len(skipped) > 0 && !*allowMissing {
			t.Fatalf("mode %s: surfaces not available (run with -allow-missing to skip them while developing): %s", mode, strings.Join(skipped, "; "))
		}
		if len(skipped) > 0 {
			if mode != Mixed || len(sfs) < 2 {
				t.Logf("SKIPPED mode %s: surfaces not available: %s", mode, strings.Join(skipped, "; "))
				continue
			}
			for _, s := range AllSurfaces {
				if sfs[s] != nil {
					rot = append(rot, s)
				}
			}
			t.Logf("PARTIAL mixed mode over %v only: %s", rot, strings.Join(skipped, "; "))
		}
		r := &Runner{Work: suite.work, Surfaces: sfs, Rotation: rot}
		// Scenarios live in separate directories (and so separate noggins),
		// so a few run at once: it overlaps process start-up, fsyncs and the
		// lock-timeout wait without changing any output.
		start := time.Now()
		results := make([]*RunResult, len(scns))
		next := make(chan int)
		var wg sync.WaitGroup
		for w := 0; w < *workers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range next {
					results[i] = r.Run(ctx, mode, scns[i])
				}
			}()
		}
		for i := range scns {
			next <- i
		}
		close(next)
		wg.Wait()
		for i, s := range scns {
			runs[s.Name] = append(runs[s.Name], results[i])
		}
		if m, ok := sfs[MCP].(*MCPSurface); ok {
			_ = m.Close()
		}
		if logTimes {
			t.Logf("mode %s: %d scenarios in %v", mode, len(scns), time.Since(start).Round(time.Millisecond))
		}
	}
	return runs
}
