// Command bench times whole invocations of the noggin binary. With
// -report DIR (make bench-report) it measures them against their floor and
// writes a Markdown table, a chart and the raw numbers (see report.go).
// Without (make bench-cli): it builds cmd/noggin, generates 10-, 1k- and 10k-item noggins
// (YAML written through core/codec), runs `show --json`, `push`, `note` and
// `done` on each (every run on a fresh copy of the generated file; the copy
// is not timed) and prints the median wall time per verb and size.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/noggin-go/noggin/core/sampledoc"

	"github.com/noggin-go/noggin/core/codec"
)

func main() {
	runs := flag.Int("runs", 30, "timed runs per verb and size")
	out := flag.String("report", "", "write the floor report (README.md, chart.png, results.json) into this directory")
	sizes := flag.String("sizes", "10,10000,100000", "noggin sizes of the report")
	readme := flag.String("readme", "", "with -report, also rewrite the performance section of this README")
	tok := flag.Bool("tokens", false, "measure answer bytes (tools/list, each tool on four noggins) into -report's tokens.md, or stdout")
	gen := flag.Int("gen", 0, "write the generated noggin of this many items to the file named by the argument, and exit")
	flag.Parse()
	var err error
	switch {
	case *gen > 0:
		err = os.WriteFile(flag.Arg(0), codec.EncodeYAML(sampledoc.Doc(*gen, 1)), 0o644)
	case *tok:
		err = tokens(*out)
	case *out != "":
		var ns []int
		for _, f := range strings.Split(*sizes, ",") {
			var n int
			if _, err := fmt.Sscan(f, &n); err != nil || n < 1 {
				fmt.Fprintln(os.Stderr, "bench: -sizes: not a size:", f)
				os.Exit(2)
			}
			ns = append(ns, n)
		}
		err = report(*runs, ns, *out, *readme)
	default:
		err = run(*runs)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

type verb struct {
	name string
	args []string
}

var verbs = []verb{
	{"show --json", []string{"show", "--json"}},
	{"push", []string{"push", "bench item"}},
	{"note", []string{"note", "a bench note"}},
	{"done", []string{"done", "--force"}}, // the generated cursor may have open children
	// find reads every title and note: it must cost no more than show.
	{"find --json", []string{"find", "--json", "flaky", "storage"}},
}

// targets are the median targets, per "verb/size".
var targets = map[string]time.Duration{
	"show --json/10": 12 * time.Millisecond, "push/10": 12 * time.Millisecond,
	"note/10": 12 * time.Millisecond, "done/10": 12 * time.Millisecond,
	"show --json/10000": 45 * time.Millisecond, "push/10000": 60 * time.Millisecond,
}

func run(runs int) error {
	dir, bin, err := workDir()
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(dir) }()
	sizes := []int{10, 1000, 10000}
	results := map[string]time.Duration{}
	cpu := map[string]time.Duration{}
	// The floor: a process that starts, prints its version and exits.
	var bw, bc []time.Duration
	for i := -3; i < runs; i++ {
		cmd := exec.Command(bin, "--version")
		start := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("--version: %w\n%s", err, out)
		}
		if i >= 0 {
			bw = append(bw, time.Since(start))
			bc = append(bc, cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime())
		}
	}
	slices.Sort(bw)
	slices.Sort(bc)
	for _, n := range sizes {
		base := codec.EncodeYAML(sampledoc.Doc(n, 1))
		file := filepath.Join(dir, fmt.Sprintf("n%d.yaml", n))
		for _, v := range verbs {
			var times, cpus []time.Duration
			for i := -3; i < runs; i++ { // 3 warm-up runs
				if err := os.WriteFile(file, base, 0o644); err != nil {
					return err
				}
				cmd := exec.Command(bin, append(v.args, "--noggin", file)...)
				cmd.Env = append(os.Environ(), "HOME="+dir)
				start := time.Now()
				out, err := cmd.CombinedOutput()
				d := time.Since(start)
				if err != nil {
					return fmt.Errorf("%s on %d items: %w\n%s", v.name, n, err, out)
				}
				if i >= 0 {
					times = append(times, d)
					cpus = append(cpus, cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime())
				}
			}
			slices.Sort(times)
			slices.Sort(cpus)
			results[fmt.Sprintf("%s/%d", v.name, n)] = times[len(times)/2]
			cpu[fmt.Sprintf("%s/%d", v.name, n)] = cpus[len(cpus)/2]
		}
	}
	fmt.Printf("noggin CLI: medians of %d whole invocations (fresh copy of the file each run)\n", runs)
	fmt.Printf("wall = elapsed time around fork/exec/wait; cpu = user+sys time of the process\n\n")
	fmt.Printf("| %-8s |", "items")
	for _, v := range verbs {
		fmt.Printf(" %-13s |", v.name+" ms")
	}
	fmt.Printf("\n|%s|", strings.Repeat("-", 10))
	for range verbs {
		fmt.Printf("%s|", strings.Repeat("-", 15))
	}
	fmt.Println()
	fmt.Printf("| %-8s |", "")
	for range verbs {
		fmt.Printf(" %-13s |", "wall / cpu")
	}
	fmt.Println()
	for _, n := range sizes {
		fmt.Printf("| %-8d |", n)
		for _, v := range verbs {
			k := fmt.Sprintf("%s/%d", v.name, n)
			fmt.Printf(" %5.1f / %5.1f |", ms(results[k]), ms(cpu[k]))
		}
		fmt.Println()
	}
	fmt.Printf("\nfloor (noggin --version, no file): wall %.1f ms, cpu %.1f ms\n\n", ms(bw[len(bw)/2]), ms(bc[len(bc)/2]))
	keys := make([]string, 0, len(targets))
	for k := range targets {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	failed := 0
	for _, n := range sizes {
		f, sh := results[fmt.Sprintf("find --json/%d", n)], results[fmt.Sprintf("show --json/%d", n)]
		status := "ok"
		if n == 10000 && f > sh {
			status = "MISSED"
			failed++
		}
		fmt.Printf("find --json on %d items vs show --json: %.1f ms vs %.1f ms  %s\n", n, ms(f), ms(sh), status)
	}
	for _, k := range keys {
		got, want := results[k], targets[k]
		status := "ok"
		if got > want {
			status = "MISSED"
			failed++
		}
		fmt.Printf("target %-18s ≤ %3.0f ms: wall %6.1f ms, cpu %6.1f ms  %s (wall)\n", k, ms(want), ms(got), ms(cpu[k]), status)
	}
	if failed > 0 {
		fmt.Printf("\n%d target(s) missed\n", failed)
	}
	return nil
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
