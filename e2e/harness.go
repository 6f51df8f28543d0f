package e2e

import (
	"bytes"
	"context"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Mixed is the name of the mode that deals steps round-robin across the
// surfaces on one shared file.
const Mixed = "mixed"

// Runner runs scenarios in a work directory.
type Runner struct {
	// Work is the absolute work directory: the CLI's and MCP server's
	// working directory and the RPC server's root. Each scenario lives in
	// Work/<scenario name>.
	Work string
	// Surfaces available by name.
	Surfaces map[string]Surface
	// Rotation is the order mixed mode deals steps in (default AllSurfaces).
	Rotation []string
}

// Run runs scenario s in mode (a surface name, or Mixed).
func (r *Runner) Run(ctx context.Context, mode string, s *Scenario) *RunResult {
	res := &RunResult{Mode: mode}
	subs, err := r.Setup(s)
	if err != nil {
		res.Err = err
		return res
	}
	for i, sec := range s.Steps() {
		name := ""
		if mode == Mixed && !sec.Step.Alt {
			rot := r.Rotation
			if rot == nil {
				rot = AllSurfaces
			}
			for k := 0; k < len(rot); k++ {
				if cand := rot[(i+k+Offset(s.Name))%len(rot)]; sec.Step.Runs(cand) {
					name = cand
					break
				}
			}
		} else if mode != Mixed && sec.Step.Runs(mode) {
			name = mode
		}
		res.Surfaces = append(res.Surfaces, name)
		if name == "" {
			res.Steps = append(res.Steps, nil)
			continue
		}
		sf, ok := r.Surfaces[name]
		if !ok {
			res.Steps = append(res.Steps, &Outcome{Err: fmt.Errorf("surface %s is not available", name)})
			continue
		}
		res.Steps = append(res.Steps, sf.Do(ctx, s, sec.Step.WithRevisions(res.Steps)))
	}
	res.Files, res.Err = r.Collect(s, subs)
	return res
}

// Offset is where a scenario's mixed-mode rotation starts (a hash of its
// name), so that short scenarios exercise every surface across the corpus.
func Offset(name string) int {
	h := fnv.New32a()
	h.Write([]byte(name))
	return int(h.Sum32() % 3)
}

// Setup recreates the scenario directory with its fixtures. It returns the
// substitutions made ($PID, $NOWMS) per file, so that Collect can undo them.
func (r *Runner) Setup(s *Scenario) (map[string][][2]string, error) {
	dir := filepath.Join(r.Work, s.Name)
	if err := os.RemoveAll(dir); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	subs := map[string][][2]string{}
	for _, sec := range s.Sections {
		p := filepath.Join(dir, filepath.FromSlash(sec.Name))
		switch sec.Kind {
		case KindFile, KindGenerate:
			data := sec.Body
			if sec.Kind == KindGenerate {
				data = GenerateNoggin(sec.Items)
			}
			var sub [][2]string
			for _, kv := range [][2]string{{"$PID", strconv.Itoa(os.Getpid())}, {"$NOWMS", strconv.FormatInt(time.Now().UnixMilli(), 10)}} {
				if bytes.Contains(data, []byte(kv[0])) {
					data = bytes.ReplaceAll(data, []byte(kv[0]), []byte(kv[1]))
					sub = append(sub, kv)
				}
			}
			if sub != nil {
				subs[sec.Name] = sub
			}
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return nil, err
			}
			if err := os.WriteFile(p, data, 0o644); err != nil {
				return nil, err
			}
		case KindDir:
			if err := os.MkdirAll(p, 0o755); err != nil {
				return nil, err
			}
		case KindStep, KindFinal: // steps and expected results, not fixtures
		}
	}
	return subs, nil
}

// Collect reads every regular file of the scenario directory (names
// relative to it, slash-separated), undoing fixture substitutions.
func (r *Runner) Collect(s *Scenario, subs map[string][][2]string) (map[string][]byte, error) {
	dir := filepath.Join(r.Work, s.Name)
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		for _, kv := range subs[rel] {
			data = bytes.ReplaceAll(data, []byte(kv[1]), []byte(kv[0]))
		}
		files[rel] = data
		return nil
	})
	return files, err
}

// Normalizer returns the function that turns raw output into golden form:
// a path below the work directory is shown relative to it, which is how
// the RPC server, rooted there, names files to its remote clients (the CLI
// and MCP name them absolutely); the work directory itself becomes $WORK.
func Normalizer(work string) func([]byte) []byte {
	return func(b []byte) []byte {
		b = bytes.ReplaceAll(b, []byte(work+string(filepath.Separator)), nil)
		return bytes.ReplaceAll(b, []byte(work), []byte("$WORK"))
	}
}

// UpdateGoldens rewrites the expected bodies of s from runs: each step from
// the first run that has it, the final files from the first run.
func UpdateGoldens(s *Scenario, runs []*RunResult, norm func([]byte) []byte) error {
	var missing []string
	for i, sec := range s.Steps() {
		done := false
		for _, r := range runs {
			if r.Err == nil && i < len(r.Steps) && r.Steps[i] != nil && r.Steps[i].Err == nil {
				sec.Body = append(norm(r.Steps[i].Text), '\n')
				done = true
				break
			}
		}
		if !done {
			missing = append(missing, fmt.Sprintf("step %d `%s`", i+1, sec.Step.Line))
		}
	}
	updated := false
	for _, r := range runs {
		if r.Err == nil {
			files := map[string][]byte{}
			for n, d := range r.Files {
				files[n] = norm(d)
			}
			s.SetFinals(files)
			updated = true
			break
		}
	}
	if !updated {
		missing = append(missing, "the final files")
	}
	if missing != nil {
		return fmt.Errorf("scenario %s: no surface produced %s (left as they were)", s.Name, strings.Join(missing, ", "))
	}
	return nil
}

// GenerateNoggin returns a deterministic noggin of n items: ten roots, ten
// children under each root, the rest spread ten per child; every seventh
// item done with a close note, every eleventh with a note; the item in the
// middle is active.
func GenerateNoggin(n int) []byte {
	var b strings.Builder
	key := func(i int) string { return fmt.Sprintf("g-%05d", i) }
	active := "null"
	if n > 0 {
		active = key((n + 1) / 2)
	}
	fmt.Fprintf(&b, "schemaVersion: 1\nactive: %s\nitems:\n", active)
	if n == 0 {
		return []byte("schemaVersion: 1\nactive: null\nitems: []\n")
	}
	for i := 1; i <= n; i++ {
		parent := "null"
		switch {
		case i <= 10:
		case i <= 110:
			parent = key((i-11)/10 + 1)
		default:
			parent = key((i-111)/10 + 11)
		}
		ts := fmt.Sprintf("'2026-01-01T%02d:%02d:%02d.000Z'", i/3600%24, i/60%60, i%60)
		fmt.Fprintf(&b, "  - key: %s\n    parentKey: %s\n    title: item %d\n    done: %v\n    createdAt: %s\n", key(i), parent, i, i%7 == 0, ts)
		var notes []string
		if i%11 == 0 {
			notes = append(notes, fmt.Sprintf("      - timestamp: %s\n        text: note on item %d\n", ts, i))
		}
		if i%7 == 0 {
			notes = append(notes, fmt.Sprintf("      - timestamp: %s\n        text: closed\n", ts))
		}
		if notes == nil {
			b.WriteString("    notes: []\n")
		} else {
			b.WriteString("    notes:\n" + strings.Join(notes, ""))
		}
	}
	return []byte(b.String())
}
