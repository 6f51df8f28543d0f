package main

// End-to-end tests: TestMain builds the noggin binary once; TestScripts runs
// every testdata/script/*.txtar file against it.
//
// A script is the comment section of a txtar archive, one command per line:
//
//	# text                      comment
//	case <name> [title…]        start a case: fresh work dir, default env
//	fixture <F> [file]          copy testdata/fixtures/<F>.yaml to file (default n.yaml)
//	file <section> [file]       write an archive section to file (default: the section name)
//	env K=V                     set an environment variable for the next runs
//	mkdir <dir>                 create a directory in the work dir
//	lock live|dead|old|nopid <file>   create <file>.lock as another process would
//	noggin <args…>              run the binary (args: shell-like quoting, "\n" and "\xHH"
//	                            in double quotes, $WORK expanded)
//	exit <n>                    the last run's exit code (default 0)
//	cmp <file> [name]           the file equals section "<case>.<file>" (or "<case>.<name>")
//	written <file>              the last run (re)wrote the file (new inode or mtime)
//	unchanged <file>            the last run did not touch the file
//	missing <file>              the file does not exist
//
// Each run's stdout and stderr are compared exactly with the sections
// "<case>-<k>.stdout" / "<case>-<k>.stderr" (k = 1-based run index within the
// case); a missing section means "empty". Every occurrence of the work
// directory is shown as $WORK. `go test -update` rewrites the sections from
// the actual output (exit codes are never updated); read them by eye.
//
// The environment of every run is hermetic: HOME=$WORK/home,
// NOGGIN_CLOCK=2026-01-02T03:04:05.678Z, NOGGIN_KEYS=sequential, NOGGIN=n.yaml
// (relative to $WORK, the working directory), plus `env` lines.

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden sections of testdata/script/*.txtar")

var binary string

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "noggin-cli-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "noggin")
	// -buildvcs=false: no commit in --version, so the goldens stay fixed.
	out, err := exec.Command("go", "build", "-buildvcs=false", "-o", binary, ".").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// archive is a parsed txtar file.
type archive struct {
	comment string
	names   []string
	files   map[string]string
}

func parseArchive(data string) *archive {
	a := &archive{files: map[string]string{}}
	var cur string
	var buf strings.Builder
	inFile := false
	flush := func() {
		if inFile {
			a.names = append(a.names, cur)
			a.files[cur] = buf.String()
		} else {
			a.comment = buf.String()
		}
		buf.Reset()
	}
	for _, line := range strings.SplitAfter(data, "\n") {
		t := strings.TrimRight(line, "\n")
		if strings.HasPrefix(t, "-- ") && strings.HasSuffix(t, " --") && len(t) >= 6 {
			flush()
			cur, inFile = strings.TrimSpace(t[3:len(t)-3]), true
			continue
		}
		buf.WriteString(line)
	}
	flush()
	return a
}

func (a *archive) format() []byte {
	var b bytes.Buffer
	b.WriteString(a.comment)
	for _, n := range a.names {
		fmt.Fprintf(&b, "-- %s --\n", n)
		b.WriteString(a.files[n])
	}
	return b.Bytes()
}

func (a *archive) set(name, content string) {
	if content == "" {
		if _, ok := a.files[name]; ok {
			delete(a.files, name)
			for i, n := range a.names {
				if n == name {
					a.names = append(a.names[:i], a.names[i+1:]...)
					break
				}
			}
		}
		return
	}
	if _, ok := a.files[name]; !ok {
		a.names = append(a.names, name)
	}
	a.files[name] = content
}

func TestScripts(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "script", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".txtar")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			runScript(t, f)
		})
	}
}

type fileState struct {
	exists bool
	ino    uint64
	mtime  time.Time
	data   []byte
}

type script struct {
	t       *testing.T
	ar      *archive
	work    string
	env     map[string]string
	caseID  string
	runs    int
	lineNo  int
	pending *run
	before  map[string]fileState
	used    map[string]bool
}

type run struct {
	args           []string
	stdout, stderr string
	code           int
	exitChecked    bool
}

func runScript(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := &script{t: t, ar: parseArchive(string(data)), used: map[string]bool{}}
	for i, line := range strings.Split(s.ar.comment, "\n") {
		s.lineNo = i + 1
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		s.exec(line)
	}
	s.finishRun()
	if *update {
		// drop sections no longer produced
		for _, n := range append([]string(nil), s.ar.names...) {
			if !s.used[n] && (strings.HasSuffix(n, ".stdout") || strings.HasSuffix(n, ".stderr")) {
				s.ar.set(n, "")
			}
		}
		if err := os.WriteFile(path, s.ar.format(), 0o644); err != nil {
			t.Fatal(err)
		}
	} else {
		for _, n := range s.ar.names {
			if (strings.HasSuffix(n, ".stdout") || strings.HasSuffix(n, ".stderr")) && !s.used[n] {
				t.Errorf("section %s is never compared", n)
			}
		}
	}
}

func (s *script) errorf(format string, args ...any) {
	s.t.Helper()
	s.t.Errorf("case %s (line %d): %s", s.caseID, s.lineNo, fmt.Sprintf(format, args...))
}

func (s *script) fatalf(format string, args ...any) {
	s.t.Helper()
	s.t.Fatalf("case %s (line %d): %s", s.caseID, s.lineNo, fmt.Sprintf(format, args...))
}

func (s *script) exec(line string) {
	words := splitArgs(line)
	cmd, args := words[0], words[1:]
	switch cmd {
	case "exit", "cmp", "written", "unchanged", "missing":
	default:
		s.finishRun()
	}
	switch cmd {
	case "case":
		s.caseID = args[0]
		s.runs = 0
		s.work = s.t.TempDir()
		if err := os.Mkdir(filepath.Join(s.work, "home"), 0o755); err != nil {
			s.fatalf("%v", err)
		}
		s.env = map[string]string{
			"HOME":         filepath.Join(s.work, "home"),
			"NOGGIN_CLOCK": "2026-01-02T03:04:05.678Z",
			"NOGGIN_KEYS":  "sequential",
			"NOGGIN":       "n.yaml",
		}
	case "fixture":
		dst := "n.yaml"
		if len(args) > 1 {
			dst = args[1]
		}
		b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "fixtures", args[0]+".yaml"))
		if err != nil {
			s.fatalf("%v", err)
		}
		s.writeFile(dst, b)
	case "file":
		dst := args[0]
		if len(args) > 1 {
			dst = args[1]
		}
		content, ok := s.ar.files[args[0]]
		if !ok {
			s.fatalf("no section %s", args[0])
		}
		s.used[args[0]] = true
		s.writeFile(dst, []byte(content))
	case "env":
		k, v, _ := strings.Cut(args[0], "=")
		s.env[k] = s.expand(v)
	case "mkdir":
		if err := os.MkdirAll(s.abs(args[0]), 0o755); err != nil {
			s.fatalf("%v", err)
		}
	case "lock":
		s.lock(args[0], args[1])
	case "noggin":
		s.noggin(args)
	case "exit":
		want, _ := strconv.Atoi(args[0])
		s.checkRun()
		s.pending.exitChecked = true
		if s.pending.code != want {
			s.errorf("noggin %q: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", s.pending.args, s.pending.code, want, s.pending.stdout, s.pending.stderr)
		}
	case "cmp":
		b, err := os.ReadFile(s.abs(args[0]))
		if err != nil {
			s.errorf("cmp %s: %v", args[0], err)
			return
		}
		section := s.caseID + "." + args[0]
		if len(args) > 1 {
			section = s.caseID + "." + args[1]
		}
		s.compare(section, s.clean(string(b)))
	case "written", "unchanged":
		st := stat(s.abs(args[0]))
		old := s.before[args[0]]
		changed := st.exists != old.exists || st.ino != old.ino || !st.mtime.Equal(old.mtime) || !bytes.Equal(st.data, old.data)
		if cmd == "written" && (!st.exists || !changed) {
			s.errorf("%s was not written", args[0])
		}
		if cmd == "unchanged" && changed {
			s.errorf("%s was changed", args[0])
		}
	case "missing":
		if _, err := os.Lstat(s.abs(args[0])); !errors.Is(err, os.ErrNotExist) {
			s.errorf("%s exists", args[0])
		}
	default:
		s.fatalf("unknown command %q", cmd)
	}
}

func (s *script) abs(p string) string {
	p = s.expand(p)
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(s.work, p)
}

func (s *script) expand(v string) string { return strings.ReplaceAll(v, "$WORK", s.work) }

// tmpSuffix matches the pid-and-counter suffix of the store's temporary
// files, which appears in raw OS error messages.
var tmpSuffix = regexp.MustCompile(`\.tmp-[0-9]+-[0-9]+`)

func (s *script) clean(out string) string {
	out = strings.ReplaceAll(out, s.work, "$WORK")
	return tmpSuffix.ReplaceAllString(out, ".tmp-PID-N")
}

func (s *script) writeFile(name string, b []byte) {
	p := s.abs(name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		s.fatalf("%v", err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		s.fatalf("%v", err)
	}
}

func stat(p string) fileState {
	fi, err := os.Stat(p)
	if err != nil {
		return fileState{}
	}
	st := fileState{exists: true, mtime: fi.ModTime()}
	if sys, ok := fi.Sys().(*syscall.Stat_t); ok {
		st.ino = sys.Ino
	}
	if fi.Mode().IsRegular() {
		st.data, _ = os.ReadFile(p)
	}
	return st
}

func (s *script) lock(kind, file string) {
	dir := s.abs(file) + ".lock"
	if err := os.Mkdir(dir, 0o755); err != nil {
		s.fatalf("%v", err)
	}
	now := time.Now().UnixMilli()
	pid := os.Getpid()
	switch kind {
	case "nopid":
		return
	case "live":
	case "old":
		now -= 60_000
	case "dead":
		c := exec.Command("true")
		if err := c.Run(); err != nil {
			s.fatalf("%v", err)
		}
		pid = c.ProcessState.Pid()
	default:
		s.fatalf("lock kind %q", kind)
	}
	if err := os.WriteFile(filepath.Join(dir, "pid"), fmt.Appendf(nil, "%d\n%d\n", pid, now), 0o644); err != nil {
		s.fatalf("%v", err)
	}
}

func (s *script) noggin(args []string) {
	for i := range args {
		args[i] = s.expand(args[i])
	}
	// snapshot the work dir's files for written/unchanged
	s.before = map[string]fileState{}
	entries, _ := os.ReadDir(s.work)
	for _, e := range entries {
		s.before[e.Name()] = stat(filepath.Join(s.work, e.Name()))
	}
	keys := make([]string, 0, len(s.env))
	for k := range s.env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	env := []string{}
	for _, k := range keys {
		env = append(env, k+"="+s.env[k])
	}
	c := exec.Command(binary, args...)
	c.Dir = s.work
	c.Env = env
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &stdout, &stderr
	err := c.Run()
	code := 0
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			s.fatalf("run: %v", err)
		}
		code = ee.ExitCode()
	}
	s.runs++
	s.pending = &run{args: args, stdout: s.clean(stdout.String()), stderr: s.clean(stderr.String()), code: code}
	s.compare(fmt.Sprintf("%s-%d.stdout", s.caseID, s.runs), s.pending.stdout)
	s.compare(fmt.Sprintf("%s-%d.stderr", s.caseID, s.runs), s.pending.stderr)
}

func (s *script) checkRun() {
	if s.pending == nil {
		s.fatalf("no run to check")
	}
}

// finishRun checks the default exit code 0 of a run without an exit line.
func (s *script) finishRun() {
	if p := s.pending; p != nil && !p.exitChecked && p.code != 0 {
		s.errorf("noggin %q: exit %d, want 0\nstderr:\n%s", p.args, p.code, p.stderr)
	}
	s.pending = nil
}

func (s *script) compare(section, got string) {
	s.used[section] = true
	if *update {
		s.ar.set(section, got)
		if got == "" {
			delete(s.used, section)
		}
		return
	}
	want := s.ar.files[section]
	if got != want {
		s.errorf("%s differs:\n--- got ---\n%s--- want ---\n%s", section, got, want)
	}
}

// splitArgs splits a line into words with shell-like quoting: '…' literal,
// "…" with \n, \" and \\ escapes, and bare words.
func splitArgs(line string) []string {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'':
			inWord = true
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				j = len(line) - i - 1
			}
			cur.WriteString(line[i+1 : i+1+j])
			i += j + 1
		case c == '"':
			inWord = true
			for i++; i < len(line) && line[i] != '"'; i++ {
				if line[i] == '\\' && i+1 < len(line) {
					i++
					if line[i] == 'n' {
						cur.WriteByte('\n')
						continue
					}
					if line[i] == 'x' && i+2 < len(line) {
						if v, err := strconv.ParseUint(line[i+1:i+3], 16, 8); err == nil {
							cur.WriteByte(byte(v))
							i += 2
							continue
						}
					}
				}
				cur.WriteByte(line[i])
			}
		default:
			inWord = true
			cur.WriteByte(c)
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}
