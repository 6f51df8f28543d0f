package e2e

import (
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

var (
	fuzzSeqs  = flag.Int("fuzz-seqs", 300, "sequences TestDifferential runs")
	fuzzSeed  = flag.Uint64("fuzz-seed", 1, "seed of TestDifferential's generator")
	fuzzSteps = flag.Int("fuzz-steps", 10, "most steps per generated sequence")
	fuzzKeep  = flag.Bool("fuzz-shrink", true, "shrink a diverging sequence before reporting it")
	// fuzzPGSeqs is how many sequences TestDifferentialPostgres runs.
	fuzzPGSeqs = flag.Int("fuzz-pg-seqs", 150, "sequences TestDifferentialPostgres runs")
)

// divergences compares the runs of one generated scenario: every step's
// envelope and every final file must be the same bytes on every surface.
func divergences(s *Scenario, rs []*RunResult) []string {
	out := Compare(s, rs, Normalizer(suite.work))
	for _, r := range rs[1:] {
		if r.Err == nil && rs[0].Err == nil && !slices.Equal(slices.Sorted(maps.Keys(r.Files)), slices.Sorted(maps.Keys(rs[0].Files))) {
			out = append(out, fmt.Sprintf("scenario %s: files %v on %s, %v on %s", s.Name,
				slices.Sorted(maps.Keys(rs[0].Files)), rs[0].Mode, slices.Sorted(maps.Keys(r.Files)), r.Mode))
		}
	}
	return out
}

// shrink drops steps from a diverging scenario while it still diverges and
// returns the minimal one.
func shrink(t *testing.T, s *Scenario) *Scenario {
	t.Helper()
	keep := make([]int, len(s.Steps()))
	for i := range keep {
		keep[i] = i
	}
	for changed := true; changed; {
		changed = false
		for i := len(keep) - 1; i >= 0 && len(keep) > 1; i-- {
			try := slices.Delete(slices.Clone(keep), i, i+1)
			c := s.WithSteps(try)
			if len(divergences(c, runModes(t, []*Scenario{c}, false)[c.Name])) > 0 {
				keep, changed = try, true
			}
		}
	}
	return s.WithSteps(keep)
}

// report fails t with a diverging scenario in txtar form, ready to be kept
// in the corpus (cmd/gen-scenarios).
func report(t *testing.T, s *Scenario, msgs []string) {
	t.Helper()
	if *fuzzKeep {
		s = shrink(t, s)
		msgs = divergences(s, runModes(t, []*Scenario{s}, false)[s.Name])
	}
	var lines []string
	for _, st := range s.Steps() {
		lines = append(lines, "-- "+st.Header+" --")
	}
	t.Errorf("surfaces diverge on %s (fixture: %v):\n%s\n%s", s.Name, len(s.Sections) > len(lines),
		strings.Join(lines, "\n"), strings.Join(msgs, "\n"))
}

// TestDifferential runs -fuzz-seqs generated sequences (fixed seed) on the
// CLI, MCP, RPC and mixed, and requires byte-identical envelopes and files.
func TestDifferential(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIPPED in -short (make short): a fault or fuzz run; make test runs it")
	}
	c := NewSeededChooser(*fuzzSeed)
	scns := make([]*Scenario, *fuzzSeqs)
	steps := 0
	for i := range scns {
		scns[i] = GenScenario(c, fmt.Sprintf("fuzz-%04d", i), *fuzzSteps)
		steps += len(scns[i].Steps())
	}
	runs := runModes(t, scns, false)
	codes := map[string]int{}
	for _, s := range scns {
		for _, o := range runs[s.Name][0].Steps {
			if o != nil && o.Err == nil {
				codes[outcomeCode(o.Text)]++
			}
		}
	}
	bad := 0
	for _, s := range scns {
		if msgs := divergences(s, runs[s.Name]); len(msgs) > 0 {
			bad++
			if bad <= 3 {
				report(t, s, msgs)
			}
		}
	}
	t.Logf("differential: %d sequences, %d steps (seed %d), each on cli, mcp, rpc and mixed: %d diverged", len(scns), steps, *fuzzSeed, bad)
	t.Logf("outcomes on the CLI: %v", codes)
	if len(codes) < 10 {
		t.Errorf("the generator reaches only %d outcomes: %v", len(codes), codes)
	}
}

// outcomeCode is "ok" or the error code of an envelope; "text" for a text
// answer (format text).
func outcomeCode(text []byte) string {
	var env struct {
		Error *struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	if json.Unmarshal(text, &env) != nil {
		return "text"
	}
	if env.Error == nil {
		return "ok"
	}
	return env.Error.Code
}

// FuzzDifferential is TestDifferential under the fuzz engine: the input
// bytes are the generator's choices (make fuzz).
func FuzzDifferential(f *testing.F) {
	for _, seed := range []string{"", "\x00\x01\x02\x03", "push title", "\x05\x06\x07\x08\x09\x0a\x0b\x0c"} {
		f.Add([]byte(seed))
	}
	n := 0
	f.Fuzz(func(t *testing.T, b []byte) {
		n++
		s := GenScenario(NewByteChooser(b), fmt.Sprintf("fuzz-input-%d", n), 6)
		if msgs := divergences(s, runModes(t, []*Scenario{s}, false)[s.Name]); len(msgs) > 0 {
			*fuzzKeep = false // the fuzz engine minimises inputs itself
			report(t, s, msgs)
		}
	})
}
