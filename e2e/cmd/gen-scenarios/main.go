// Command gen-scenarios writes the e2e scenario corpus
// (e2e/testdata/scenarios/*.txtar) from the table in scenarios.go. Expected
// bodies already in a file are kept for steps whose line did not change;
// new steps get empty bodies, which `go test ./e2e -update` fills in (check
// them by eye against the spec before committing).
//
//	cd e2e && go run ./cmd/gen-scenarios && go test -run TestScenarios -update .
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/noggin-go/noggin/e2e"
)

// scn is one scenario of the table.
type scn struct {
	name, desc string
	files      [][2]string // section header, body
	steps      []string
}

// S builds a scenario whose noggin.yaml starts as fixture ("" = missing).
func S(name, desc, fixture string, steps ...string) scn {
	s := scn{name: name, desc: desc, steps: steps}
	if fixture != "" {
		s.files = append(s.files, [2]string{"noggin.yaml", fixture})
	}
	return s
}

// with adds a fixture section.
func (s scn) with(header, body string) scn {
	s.files = append(append([][2]string(nil), s.files...), [2]string{header, body})
	return s
}

func mustAbs(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		fatal(err)
	}
	return a
}

func main() {
	dir := flag.String("dir", "", "output directory (default: the corpus, e2e/testdata/scenarios, from the repository root or e2e/)")
	flag.Parse()
	if *dir == "" {
		// The corpus exists: from the root or from e2e/, never a new one.
		for _, d := range []string{"testdata/scenarios", "e2e/testdata/scenarios"} {
			if fi, err := os.Stat(d); err == nil && fi.IsDir() && filepath.Base(filepath.Dir(filepath.Dir(mustAbs(d)))) == "e2e" {
				*dir = d
			}
		}
		if *dir == "" {
			fatal(fmt.Errorf("run it from the repository root or from e2e/ (or give -dir)"))
		}
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		fatal(err)
	}
	seen := map[string]bool{}
	all := scenarios()
	for _, s := range all {
		if seen[s.name] {
			fatal(fmt.Errorf("duplicate scenario %s", s.name))
		}
		seen[s.name] = true
		if err := write(*dir, s); err != nil {
			fatal(fmt.Errorf("%s: %w", s.name, err))
		}
	}
	// Remove scenario files no longer in the table.
	paths, _ := filepath.Glob(filepath.Join(*dir, "*.txtar"))
	sort.Strings(paths)
	for _, p := range paths {
		if !seen[strings.TrimSuffix(filepath.Base(p), ".txtar")] {
			fmt.Println("removing", p)
			_ = os.Remove(p)
		}
	}
	fmt.Printf("%d scenarios\n", len(all))
}

func write(dir string, s scn) error {
	path := filepath.Join(dir, s.name+".txtar")
	var b strings.Builder
	b.WriteString(strings.TrimSpace(s.desc) + "\n")
	for _, f := range s.files {
		fmt.Fprintf(&b, "-- %s --\n%s", f[0], f[1])
		if f[1] != "" && !strings.HasSuffix(f[1], "\n") {
			b.WriteByte('\n')
		}
	}
	for _, st := range s.steps {
		fmt.Fprintf(&b, "-- > %s --\n", st)
	}
	fresh, err := e2e.ParseScenario(s.name, []byte(b.String()))
	if err != nil {
		return err
	}
	for _, sec := range fresh.Steps() {
		if _, err := e2e.ParseStep(sec.Step.Line); err != nil {
			return err
		}
	}
	// Keep the expected bodies of an existing file where the step is unchanged.
	if old, err := os.ReadFile(path); err == nil {
		if prev, err := e2e.ParseScenario(s.name, old); err == nil {
			ps, fs := prev.Steps(), fresh.Steps()
			same := len(fixtures(prev)) == len(fixtures(fresh))
			for i, f := range fixtures(fresh) {
				if same && (fixtures(prev)[i].Header != f.Header || string(fixtures(prev)[i].Body) != string(f.Body)) {
					same = false
				}
			}
			for i := range fs {
				if i < len(ps) && ps[i].Header == fs[i].Header {
					fs[i].Body = ps[i].Body
				} else {
					same = false
				}
			}
			if same && len(ps) == len(fs) {
				fresh.Sections = append(fresh.Sections, prev.Finals()...)
			}
		}
	}
	out := fresh.Format()
	if old, err := os.ReadFile(path); err == nil && string(old) == string(out) {
		return nil
	}
	return os.WriteFile(path, out, 0o644)
}

func fixtures(s *e2e.Scenario) []*e2e.Section {
	var out []*e2e.Section
	for _, sec := range s.Sections {
		if sec.Kind != e2e.KindStep && sec.Kind != e2e.KindFinal {
			out = append(out, sec)
		}
	}
	return out
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "gen-scenarios:", err)
	os.Exit(1)
}
