package e2e

import (
	"bytes"
	"fmt"
	"strings"
)

// Mismatch is one failed comparison, printable as a readable report.
type Mismatch struct {
	Scenario string
	// Step is the 1-based step number (0 for the final files).
	Step    int
	Line    string // the step line, or the file name for finals
	Surface string // "cli", "mcp", "rpc", "mixed"
	// Against names what it was compared with ("golden", or another surface).
	Against   string
	Want, Got []byte
}

func (m Mismatch) String() string {
	var b strings.Builder
	if m.Step > 0 {
		fmt.Fprintf(&b, "scenario %s, step %d `%s`, surface %s: envelope differs from %s\n", m.Scenario, m.Step, m.Line, m.Surface, m.Against)
	} else {
		fmt.Fprintf(&b, "scenario %s, final file %s, surface %s: differs from %s\n", m.Scenario, m.Line, m.Surface, m.Against)
	}
	b.WriteString(ByteDiff(m.Against, m.Surface, m.Want, m.Got))
	return b.String()
}

// ByteDiff renders a readable diff of two byte strings: where they first
// differ (byte offset, line, column, the bytes around it) and a line diff
// with a little context.
func ByteDiff(wantName, gotName string, want, got []byte) string {
	if bytes.Equal(want, got) {
		return ""
	}
	var b strings.Builder
	i := 0
	for i < len(want) && i < len(got) && want[i] == got[i] {
		i++
	}
	line := bytes.Count(want[:i], []byte("\n")) + 1
	col := i - bytes.LastIndexByte(want[:i], '\n')
	fmt.Fprintf(&b, "  first difference at byte %d (line %d, column %d): %s has %s, %s has %s\n",
		i, line, col, wantName, around(want, i), gotName, around(got, i))
	if len(want) != len(got) {
		fmt.Fprintf(&b, "  lengths: %s %d bytes, %s %d bytes\n", wantName, len(want), gotName, len(got))
	}
	fmt.Fprintf(&b, "  --- %s\n  +++ %s\n", wantName, gotName)
	b.WriteString(lineDiff(splitLines(want), splitLines(got)))
	return b.String()
}

func around(s []byte, i int) string {
	if i >= len(s) {
		return "<end of input>"
	}
	end := i + 12
	if end > len(s) {
		end = len(s)
	}
	return fmt.Sprintf("%q", s[i:end])
}

func splitLines(s []byte) []string {
	if len(s) == 0 {
		return nil
	}
	parts := strings.SplitAfter(string(s), "\n")
	if parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return parts
}

// lineDiff is a small LCS line diff with two lines of context; very long
// inputs are cut to the region around their first difference.
func lineDiff(a, b []string) string {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	const maxMid = 400
	if len(ma) > maxMid {
		ma = ma[:maxMid]
	}
	if len(mb) > maxMid {
		mb = mb[:maxMid]
	}
	// LCS table over the middle.
	n, m := len(ma), len(mb)
	dp := make([][]int, n+1)
	for i := range dp {
		dp[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if ma[i] == mb[j] {
				dp[i][j] = dp[i+1][j+1] + 1
			} else {
				dp[i][j] = max(dp[i+1][j], dp[i][j+1])
			}
		}
	}
	var out strings.Builder
	show := func(prefix, l string) {
		l = strings.TrimSuffix(l, "\n")
		out.WriteString("  " + prefix + visible(l) + "\n")
	}
	ctxStart := max(pre-2, 0)
	if ctxStart > 0 {
		fmt.Fprintf(&out, "  @@ line %d @@\n", ctxStart+1)
	}
	for _, l := range a[ctxStart:pre] {
		show(" ", l)
	}
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && ma[i] == mb[j]:
			show(" ", ma[i])
			i++
			j++
		case i < n && (j == m || dp[i+1][j] >= dp[i][j+1]):
			show("-", ma[i])
			i++
		default:
			show("+", mb[j])
			j++
		}
	}
	tail := a[len(a)-suf:]
	if len(tail) > 2 {
		tail = tail[:2]
	}
	for _, l := range tail {
		show(" ", l)
	}
	return out.String()
}

// visible makes trailing spaces and control characters visible.
func visible(l string) string {
	var b strings.Builder
	for _, r := range l {
		switch {
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteRune(r)
		}
	}
	s := b.String()
	if t := strings.TrimRight(s, " "); len(t) != len(s) {
		s = t + strings.Repeat("·", len(s)-len(t))
	}
	return s
}

// Outcome is what one surface produced for one step.
type Outcome struct {
	// Text is the envelope JSON text, without a trailing newline.
	Text []byte
	// Err is a harness-level failure (process died, exit code and envelope
	// disagree, output on the wrong stream, …).
	Err error
}

// RunResult is one scenario run in one mode.
type RunResult struct {
	Mode string
	// Steps[i] is the outcome of step i, or nil when the step does not run
	// in this mode.
	Steps []*Outcome
	// Surfaces[i] names the surface that ran step i.
	Surfaces []string
	// Files are the scenario directory's files after the run.
	Files map[string][]byte
	// Err is a setup failure.
	Err error
}

// Compare checks the runs of one scenario against each other and against
// the golden bodies. norm turns raw bytes into golden form (placeholders).
// It returns every mismatch, in step order.
func Compare(s *Scenario, runs []*RunResult, norm func([]byte) []byte) []string {
	var out []string
	steps := s.Steps()
	for _, r := range runs {
		if r.Err != nil {
			out = append(out, fmt.Sprintf("scenario %s, mode %s: %v", s.Name, r.Mode, r.Err))
		}
	}
	for i, sec := range steps {
		// Reference: the first run that has this step.
		var ref *RunResult
		for _, r := range runs {
			if r.Err == nil && i < len(r.Steps) && r.Steps[i] != nil {
				if r.Steps[i].Err != nil {
					out = append(out, fmt.Sprintf("scenario %s, step %d `%s`, surface %s: %v", s.Name, i+1, sec.Step.Line, label(r, i), r.Steps[i].Err))
					continue
				}
				got := append(norm(r.Steps[i].Text), '\n')
				if !s.Generated && !bytes.Equal(got, sec.Body) {
					out = append(out, Mismatch{Scenario: s.Name, Step: i + 1, Line: sec.Step.Line, Surface: label(r, i), Against: "golden", Want: sec.Body, Got: got}.String())
				}
				if ref == nil {
					ref = r
				} else if want := norm(ref.Steps[i].Text); !bytes.Equal(want, got[:len(got)-1]) {
					// Raw bytes, except that a file below the work
					// directory is named relative to it (see Normalizer).
					out = append(out, Mismatch{Scenario: s.Name, Step: i + 1, Line: sec.Step.Line, Surface: label(r, i), Against: label(ref, i), Want: want, Got: got[:len(got)-1]}.String())
				}
			}
		}
	}
	// Final files: against the golden, then against each other.
	want := map[string]*Section{}
	for _, f := range s.Finals() {
		want[f.Name] = f
	}
	var ref *RunResult
	for _, r := range runs {
		if r.Err != nil {
			continue
		}
		for name, f := range want {
			if s.altHistory(r, name) {
				continue
			}
			data, ok := r.Files[name]
			if !ok {
				out = append(out, fmt.Sprintf("scenario %s, final file %s, surface %s: missing", s.Name, name, r.Mode))
				continue
			}
			got := norm(data)
			if f.Sha {
				got = []byte(HashLine(got))
			}
			if !bytes.Equal(got, f.Body) {
				out = append(out, Mismatch{Scenario: s.Name, Line: name, Surface: r.Mode, Against: "golden", Want: f.Body, Got: got}.String())
			}
		}
		for name := range r.Files {
			if _, ok := want[name]; !ok && !s.Generated {
				out = append(out, fmt.Sprintf("scenario %s, final file %s, surface %s: unexpected file", s.Name, name, r.Mode))
			}
		}
		if ref == nil {
			ref = r
			continue
		}
		for name, data := range r.Files {
			if s.altHistory(r, name) || s.altHistory(ref, name) {
				continue
			}
			if rd, ok := ref.Files[name]; ok && !bytes.Equal(norm(rd), norm(data)) {
				out = append(out, Mismatch{Scenario: s.Name, Line: name, Surface: r.Mode, Against: ref.Mode, Want: rd, Got: data}.String())
			}
		}
	}
	return out
}

func label(r *RunResult, i int) string {
	if r.Mode == "mixed" && i < len(r.Surfaces) {
		return "mixed/" + r.Surfaces[i]
	}
	return r.Mode
}

// altHistory reports whether file name of run r is a history written with
// a substitute step (e.g. MCP's goto for show --goto): it names another
// verb, so it is held neither to the golden nor to the other runs.
func (s *Scenario) altHistory(r *RunResult, name string) bool {
	if !strings.HasSuffix(name, ".history") || r.Mode != MCP {
		return false
	}
	for _, sec := range s.Steps() {
		if sec.Step.Alt {
			return true
		}
	}
	return false
}
