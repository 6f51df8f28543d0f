package importcheck

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// forbidden lists the import paths that core's non-test code must never
// depend on; each also covers its subpackages, and an entry ending in "/"
// covers everything below it.
var forbidden = []string{
	"net/http",
	"google.golang.org/protobuf",
	"connectrpc.com/",
	"github.com/urfave/cli",
	"github.com/modelcontextprotocol/",
}

// isForbidden reports the forbidden entry matching an import path.
func isForbidden(path string) (string, bool) {
	for _, f := range forbidden {
		switch {
		case path == f,
			strings.HasSuffix(f, "/") && strings.HasPrefix(path, f),
			!strings.HasSuffix(f, "/") && strings.HasPrefix(path, f+"/"):
			return f, true
		}
	}
	return "", false
}

func TestIsForbidden(t *testing.T) {
	tests := []struct {
		path string
		want bool
	}{
		{"net/http", true},
		{"net/http/httptest", true},
		{"net/url", false},
		{"net", false},
		{"google.golang.org/protobuf/proto", true},
		{"google.golang.org/protobuf", true},
		{"google.golang.org/grpc", false},
		{"connectrpc.com/connect", true},
		{"github.com/urfave/cli/v2", true},
		{"github.com/urfave/cli", true},
		{"github.com/modelcontextprotocol/go-sdk/mcp", true},
		{"github.com/noggin-go/noggin/core/noggin", false},
	}
	for _, tt := range tests {
		if _, got := isForbidden(tt.path); got != tt.want {
			t.Errorf("isForbidden(%q) = %v, want %v", tt.path, got, tt.want)
		}
	}
}

// coreDir is the core module's root (two levels above this package).
func coreDir(t *testing.T) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("runtime.Caller failed")
	}
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// TestCoreImports runs `go list -deps` over every non-test package of the
// core module and fails if any forbidden package is among their
// dependencies, naming the package that pulls it in.
func TestCoreImports(t *testing.T) {
	bad, n := violations(t, coreDir(t), nil)
	for _, v := range bad {
		t.Error(v)
	}
	t.Logf("%d packages in the dependency closure of core", n)
}

// TestDetectsViolation runs the same check on a throw-away module that
// imports net/http, so a broken check cannot pass silently.
func TestDetectsViolation(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/bad\n\ngo 1.26\n")
	write("a.go", "package bad\n\nimport _ \"net/http\"\n")
	write("a_test.go", "package bad\n")
	bad, _ := violations(t, dir, []string{"GOWORK=off", "GOFLAGS=-mod=mod"})
	if len(bad) == 0 || !strings.Contains(strings.Join(bad, "\n"), "example.com/bad imports net/http") {
		t.Errorf("violation not detected: %q", bad)
	}
}

// violations lists the forbidden dependencies of the non-test packages of
// the module in dir, and the size of their dependency closure.
func violations(t *testing.T, dir string, env []string) ([]string, int) {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go tool not found")
	}
	run := func(args ...string) []byte {
		cmd := exec.Command(goTool, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, stderr(err))
		}
		return out
	}
	// The module's own packages.
	pkgs := strings.Fields(string(run("list", "-f", "{{.ImportPath}}", "./...")))
	if len(pkgs) == 0 {
		t.Fatal("go list ./... found no packages")
	}
	// Every dependency of every package with its direct imports, so that a
	// violation names its importer. -deps without -test covers non-test code.
	out := run(append([]string{"list", "-deps", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}"}, pkgs...)...)
	var bad []string
	seen := 0
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		seen++
		pkg := fields[0]
		if f, ok := isForbidden(pkg); ok {
			bad = append(bad, fmt.Sprintf("core depends on %s (forbidden: %s)", pkg, f))
		}
		for _, imp := range fields[1:] {
			if f, ok := isForbidden(imp); ok {
				bad = append(bad, fmt.Sprintf("%s imports %s (forbidden: %s)", pkg, imp, f))
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if seen < len(pkgs) {
		t.Fatalf("go list -deps listed %d packages for %d module packages", seen, len(pkgs))
	}
	return bad, seen
}

func stderr(err error) string {
	if ee, ok := err.(*exec.ExitError); ok {
		return string(ee.Stderr)
	}
	return ""
}
