package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/noggin-go/noggin/core/codec"
	"github.com/noggin-go/noggin/core/sampledoc"
)

// The report (make bench-report) measures whole noggin processes against
// the floor of the same work, measured in the same session: a hello-world
// Go binary's start (the cost of any process) and a durable copy of the
// noggin file (dd bs=1M conv=fsync: reading it and writing it to disk,
// which a durable write cannot avoid). Every figure is a median over the
// runs; writes run on a noggin that noggin last wrote (the generated file
// after one note), its file and history restored before each run. One more
// push runs on the file as another tool left it (no history), which cannot
// copy the unchanged items' bytes.

// reportVerbs are the verbs of the report.
var reportVerbs = []verb{
	{"show --json", []string{"show", "--json"}},
	{"push", []string{"push", "bench item"}},
	{"note", []string{"note", "a bench note"}},
	{"done", []string{"done", "--force"}},
}

// Sample is one measured command: its median wall time, user+system CPU
// time and peak resident set size.
type Sample struct {
	WallMS float64 `json:"wallMs"`
	CPUMS  float64 `json:"cpuMs"`
	RSSMB  float64 `json:"peakRssMb"`
}

// SizeResult is everything measured on one noggin size.
type SizeResult struct {
	Items     int               `json:"items"`
	FileBytes int               `json:"fileBytes"`
	Copy      Sample            `json:"durableCopy"`
	Verbs     map[string]Sample `json:"verbs"`
	// ForeignPush is a push on the file as another tool wrote it.
	ForeignPush Sample `json:"pushOnForeignFile"`
}

// Report is the whole report (bench/results.json).
type Report struct {
	Runs       int          `json:"runs"`
	HelloWorld Sample       `json:"helloWorld"`
	Sizes      []SizeResult `json:"sizes"`
}

// Target is one line of the targets table: a verb (or "rss") on a size,
// bounded by factor times a floor.
type Target struct {
	Verb   string
	Items  int
	Factor float64
	Floor  string // "hello", "copy" or "file" (peak RSS against the file size)
}

var targetTable = []Target{
	{"show --json", 10, 2, "hello"}, {"show --json", 10000, 0.8, "copy"}, {"show --json", 100000, 1.2, "copy"},
	{"push", 10, 4, "hello"}, {"push", 10000, 2.5, "copy"}, {"push", 100000, 2.5, "copy"},
	{"note", 10, 4, "hello"}, {"note", 10000, 2.5, "copy"}, {"note", 100000, 2.5, "copy"},
	{"done", 10, 4, "hello"}, {"done", 10000, 2.5, "copy"}, {"done", 100000, 2.5, "copy"},
	{"rss", 10000, 3, "file"}, {"rss", 100000, 2, "file"},
}

// measure runs cmd (made fresh by mk) runs times after 3 warm-ups, calling
// before (untimed) ahead of each, and returns the medians.
func measure(runs int, mk func() *exec.Cmd, before func() error) (Sample, error) {
	var wall, cpu, rss []float64
	for i := -3; i < runs; i++ {
		if before != nil {
			if err := before(); err != nil {
				return Sample{}, err
			}
		}
		cmd := mk()
		start := time.Now()
		out, err := cmd.CombinedOutput()
		d := time.Since(start)
		if err != nil {
			return Sample{}, fmt.Errorf("%s: %w\n%s", strings.Join(cmd.Args, " "), err, out)
		}
		if i < 0 {
			continue
		}
		st := cmd.ProcessState
		wall = append(wall, ms(d))
		cpu = append(cpu, ms(st.UserTime()+st.SystemTime()))
		if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
			rss = append(rss, float64(ru.Maxrss)/1024) // KiB on Linux
		}
	}
	return Sample{WallMS: median(wall), CPUMS: median(cpu), RSSMB: median(rss)}, nil
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	return xs[len(xs)/2]
}

// buildHello builds a Go program that prints a line, as noggin is built.
func buildHello(dir string) (string, error) {
	src := filepath.Join(dir, "hello")
	if err := os.MkdirAll(src, 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(src, "main.go"), []byte("package main\n\nimport \"os\"\n\nfunc main() { _, _ = os.Stdout.WriteString(\"hello\\n\") }\n"), 0o644); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(src, "go.mod"), []byte("module hello\n\ngo 1.26\n"), 0o644); err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "hello-bin")
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", bin, ".")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOWORK=off", "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building hello: %w\n%s", err, out)
	}
	return bin, nil
}

func report(runs int, sizes []int, outDir string) error {
	dir, bin, err := workDir()
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(dir) }()
	hello, err := buildHello(dir)
	if err != nil {
		return err
	}
	rep := Report{Runs: runs}
	if rep.HelloWorld, err = measure(runs, func() *exec.Cmd { return exec.Command(hello) }, nil); err != nil {
		return err
	}
	for _, n := range sizes {
		generated := codec.EncodeYAML(sampledoc.Doc(n, 1))
		file := filepath.Join(dir, fmt.Sprintf("n%d.yaml", n))
		run := func(args ...string) *exec.Cmd {
			cmd := exec.Command(bin, append(args, "--noggin", file)...)
			cmd.Env = append(os.Environ(), "HOME="+dir)
			return cmd
		}
		foreign := func() error {
			_ = os.Remove(file + ".history")
			_ = os.Remove(file + ".copy")
			return os.WriteFile(file, generated, 0o644)
		}
		if err := foreign(); err != nil {
			return err
		}
		if out, err := run("note", "bench seed").CombinedOutput(); err != nil {
			return fmt.Errorf("seeding: %w\n%s", err, out)
		}
		base, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		history, err := os.ReadFile(file + ".history")
		if err != nil {
			return err
		}
		restore := func() error {
			_ = os.Remove(file + ".copy")
			if err := os.WriteFile(file+".history", history, 0o644); err != nil {
				return err
			}
			return os.WriteFile(file, base, 0o644)
		}
		res := SizeResult{Items: n, FileBytes: len(base), Verbs: map[string]Sample{}}
		res.Copy, err = measure(runs, func() *exec.Cmd {
			return exec.Command("dd", "if="+file, "of="+file+".copy", "bs=1M", "conv=fsync", "status=none")
		}, restore)
		if err != nil {
			return err
		}
		for _, v := range reportVerbs {
			s, err := measure(runs, func() *exec.Cmd { return run(v.args...) }, restore)
			if err != nil {
				return err
			}
			res.Verbs[v.name] = s
		}
		if res.ForeignPush, err = measure(runs, func() *exec.Cmd { return run(reportVerbs[1].args...) }, foreign); err != nil {
			return err
		}
		rep.Sizes = append(rep.Sizes, res)
		fmt.Fprintf(os.Stderr, "bench: %d items done\n", n)
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return err
	}
	js, _ := json.MarshalIndent(rep, "", "  ")
	if err := os.WriteFile(filepath.Join(outDir, "results.json"), append(js, '\n'), 0o644); err != nil {
		return err
	}
	md := markdown(rep)
	if err := os.WriteFile(filepath.Join(outDir, "README.md"), []byte(md), 0o644); err != nil {
		return err
	}
	png, err := chart(rep)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(outDir, "chart.png"), png, 0o644); err != nil {
		return err
	}
	fmt.Print(md)
	return nil
}

// workDir makes the temporary directory of a run (in $NOGGIN_BENCH_DIR if
// set, to measure another disk) and builds noggin into it; the caller
// removes it.
func workDir() (dir, bin string, err error) {
	if dir, err = os.MkdirTemp(os.Getenv("NOGGIN_BENCH_DIR"), "noggin-bench-"); err != nil {
		return "", "", err
	}
	if bin, err = buildNoggin(dir); err != nil {
		_ = os.RemoveAll(dir)
		return "", "", err
	}
	return dir, bin, nil
}

// buildNoggin builds the CLI as make build does.
func buildNoggin(dir string) (string, error) {
	bin := filepath.Join(dir, "noggin")
	build := exec.Command("go", "build", "-tags", "urfave_cli_no_docs,urfave_cli_no_suggest",
		"-trimpath", "-ldflags", "-s -w", "-o", bin, "./cmd/noggin")
	build.Env = append(os.Environ(), "CGO_ENABLED=0") // static, as make build
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %w\n%s", err, out)
	}
	return bin, nil
}

// check evaluates one target: the measured value, its bound, and whether
// it holds.
func (r Report) check(t Target) (got, bound float64, ok, found bool) {
	for _, s := range r.Sizes {
		if s.Items != t.Items {
			continue
		}
		switch t.Floor {
		case "file":
			var worst float64
			for _, v := range s.Verbs {
				worst = max(worst, v.RSSMB)
			}
			got, bound = worst, t.Factor*float64(s.FileBytes)/(1<<20)
		case "hello":
			got, bound = s.Verbs[t.Verb].WallMS, t.Factor*r.HelloWorld.WallMS
		default:
			got, bound = s.Verbs[t.Verb].WallMS, t.Factor*s.Copy.WallMS
		}
		return got, bound, got <= bound, true
	}
	return 0, 0, false, false
}

func markdown(r Report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# noggin CLI against the floor\n\n")
	fmt.Fprintf(&b, "Written by `make bench-report` (surfaces/cli/internal/bench). Medians of %d whole processes per cell, "+
		"after 3 warm-ups. Writes run on a generated noggin that noggin last wrote (its file and history restored before "+
		"each run); the last column is a push on the file as another tool left it (no history), which encodes every item. "+
		"The floors are measured in the same "+
		"session: a hello-world Go binary's start, and a durable copy of the same file "+
		"(`dd if=FILE of=COPY bs=1M conv=fsync`). Ratios are to the floor of the cell's size (hello-world for 10 items).\n\n", r.Runs)
	fmt.Fprintf(&b, "![items against milliseconds, log-log](chart.png)\n\n")
	fmt.Fprintf(&b, "hello-world start: **%.2f ms** (peak RSS %.1f MB)\n\n", r.HelloWorld.WallMS, r.HelloWorld.RSSMB)
	fmt.Fprintf(&b, "| items | file | durable copy |")
	for _, v := range reportVerbs {
		fmt.Fprintf(&b, " %s |", v.name)
	}
	fmt.Fprintf(&b, " peak RSS (max over verbs) | push, file of another tool |\n|---|---|---|")
	for range reportVerbs {
		fmt.Fprintf(&b, "---|")
	}
	fmt.Fprintf(&b, "---|---|\n")
	for _, s := range r.Sizes {
		floor, unit := s.Copy.WallMS, "copy"
		if s.Items <= 10 {
			floor, unit = r.HelloWorld.WallMS, "hello"
		}
		fmt.Fprintf(&b, "| %d | %s | %.1f ms |", s.Items, size(s.FileBytes), s.Copy.WallMS)
		var worst float64
		for _, v := range reportVerbs {
			m := s.Verbs[v.name]
			worst = max(worst, m.RSSMB)
			fmt.Fprintf(&b, " %.1f ms (%.2f× %s; cpu %.1f) |", m.WallMS, m.WallMS/floor, unit, m.CPUMS)
		}
		if s.FileBytes < 1<<20 { // the process itself dominates: no meaningful ratio
			fmt.Fprintf(&b, " %.1f MB |", worst)
		} else {
			fmt.Fprintf(&b, " %.1f MB (%.2f× file) |", worst, worst/(float64(s.FileBytes)/(1<<20)))
		}
		fmt.Fprintf(&b, " %.1f ms (%.2f× %s; cpu %.1f) |\n", s.ForeignPush.WallMS, s.ForeignPush.WallMS/floor, unit, s.ForeignPush.CPUMS)
	}
	fmt.Fprintf(&b, "\n## Targets\n\n| target | measured | bound | |\n|---|---|---|---|\n")
	for _, t := range targetTable {
		got, bound, ok, found := r.check(t)
		if !found {
			continue
		}
		status := "met"
		if !ok {
			status = "**missed**"
		}
		what := fmt.Sprintf("`%s`, %d items ≤ %.1f× %s", t.Verb, t.Items, t.Factor, map[string]string{
			"hello": "hello-world", "copy": "durable copy", "file": "file size"}[t.Floor])
		unit := "ms"
		if t.Floor == "file" {
			what = fmt.Sprintf("peak RSS, %d items ≤ %.0f× file size", t.Items, t.Factor)
			unit = "MB"
		}
		fmt.Fprintf(&b, "| %s | %.1f %s | %.1f %s | %s |\n", what, got, unit, bound, unit, status)
	}
	return b.String()
}

func size(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f kB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
