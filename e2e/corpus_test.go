package e2e

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"
)

// TestCorpusCoverage checks that the corpus covers what the e2e issue asks
// for: at least 150 scenarios; every verb on all three surfaces; every
// option of every verb; every error code reachable on all three surfaces
// in an unrestricted step, and the surface-specific ones somewhere; the
// path forms; a 1,000-item noggin.
func TestCorpusCoverage(t *testing.T) {
	all, err := LoadScenarios("testdata/scenarios")
	if err != nil {
		t.Fatal(err)
	}
	if len(all) < 150 {
		t.Errorf("%d scenarios, want at least 150", len(all))
	}
	triVerbs := map[string]bool{}
	options := map[string]bool{}
	triCodes := map[string]bool{}
	anyCodes := map[string]bool{}
	paths := map[string]bool{}
	big := false
	for _, s := range all {
		for _, sec := range s.Sections {
			if sec.Kind == KindGenerate && sec.Items >= 1000 {
				big = true
			}
		}
		for _, sec := range s.Steps() {
			st := sec.Step
			if st.Surfaces == nil {
				triVerbs[st.Verb] = true
			}
			for _, o := range st.Opts {
				options[st.Verb+" "+o.Key] = true
				if o.Key == "path" || o.Key == "goto" || o.Key == "into" || o.Key == "before" || o.Key == "after" {
					paths[o.Val] = true
				}
			}
			if TextForm(st) { // the CLI's words, not an envelope
				continue
			}
			var env struct {
				Error *struct {
					Code string `json:"code"`
				} `json:"error"`
			}
			if err := json.Unmarshal(sec.Body, &env); err != nil {
				t.Errorf("%s: step `%s`: golden is not JSON: %v", s.Name, st.Line, err)
				continue
			}
			if env.Error != nil {
				anyCodes[env.Error.Code] = true
				if st.Surfaces == nil {
					triCodes[env.Error.Code] = true
				}
			}
		}
	}
	for v := range verbOptions {
		if !triVerbs[v] && surfaceVerbs[v] == "" {
			t.Errorf("verb %s has no step that runs on all three surfaces", v)
		}
		for _, o := range verbOptions[v] {
			if !options[v+" "+o] {
				t.Errorf("option %s of %s is never used", o, v)
			}
		}
	}
	for _, c := range []string{"no-active-item", "no-provider", "path-not-found", "cycle", "option-misused",
		"goto-unresolved", "has-descendants", "open-descendants", "invalid-note", "invalid-document",
		"unsupported-schema", "lock-timeout", "io", "placement-missing", "text-required", "nothing-to-edit",
		"goto-unsupported", "path-required", "pop-no-path", "title-required", "source-required", "dest-required",
		"noggin-error", "query-required", "invalid-limit", "undo-conflict", "nothing-to-undo", "nothing-to-redo",
		"history-unavailable"} {
		if !triCodes[c] {
			t.Errorf("error code %s is reachable on all three surfaces but no unrestricted step shows it", c)
		}
	}
	for _, c := range []string{"goto-path-required", "location-refused", "unknown-argument"} {
		if !anyCodes[c] {
			t.Errorf("error code %s appears in no step", c)
		}
	}
	for _, p := range []string{"/1/2", ".", "..", "-", "+", "-/1", "+/1", "+/", "1", "2/1", "../1", "01", "/01/002", "/1/", "//", "/", "../..", "./2/1"} {
		if !paths[p] {
			t.Errorf("path form %q is never used", p)
		}
	}
	if !big {
		t.Error("no 1,000-item noggin")
	}
	var codes []string
	for c := range anyCodes {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	t.Logf("%d scenarios; error codes shown: %s", len(all), strings.Join(codes, ", "))
}

// restricted lists every scenario with steps that run on some surfaces
// only, and why: a step may be restricted only when its input cannot be
// expressed on the other surfaces.
// surfaceVerbs are verbs whose answer depends on the surface, not the input.
var surfaceVerbs = map[string]string{
	"providers": "the clients (CLI, noggin-mcp) list http/https (remote noggins); the RPC server serves only its own files",
}

var restricted = map[string]string{
	"providers":                `the clients (CLI, noggin-mcp) list http/https (remote noggins); the RPC server serves only its own files`,
	"add-goto-falsy":           `a falsy goto ("", false): the CLI's --goto= means goto true`,
	"edit-goto-falsy":          `a falsy goto ("", false): the CLI's --goto= means goto true`,
	"edit-done-and-open":       `done and open together: MCP and RPC Call take one state ("done" or "open")`,
	"show-goto":                `noggin_show is read-only (readOnlyHint), so MCP has no show goto; the mcp-alt steps reach the same file`,
	"show-goto-parent":         `noggin_show is read-only (readOnlyHint), so MCP has no show goto; the mcp-alt steps reach the same file`,
	"show-goto-same":           `noggin_show is read-only (readOnlyHint), so MCP has no show goto`,
	"show-goto-unresolved":     `noggin_show is read-only (readOnlyHint), so MCP has no show goto`,
	"show-no-active-goto":      `noggin_show is read-only (readOnlyHint), so MCP has no show goto`,
	"storage-rpc-outside-root": `only the e2e RPC server runs with --root`,
	"push-unknown-argument":    `an argument a verb does not take: the CLI's flags are global (docs/cli.md) and it has no such input`,
	"history-usage":            `an argument undo and redo do not take: the CLI's flags are global and it has no such input`,
	"agents-cursors":           `the CLI's note takes @KEY as its path only for a key the noggin has, which the harness cannot see: the cli-alt step notes the same item by position`,
}

// TestRestrictedSteps checks that every surface-restricted step is in a
// scenario of the restricted list, and that the list has no stale entry.
func TestRestrictedSteps(t *testing.T) {
	all, err := LoadScenarios("testdata/scenarios")
	if err != nil {
		t.Fatal(err)
	}
	n, used := 0, map[string]bool{}
	for _, s := range all {
		for _, sec := range s.Steps() {
			if sec.Step.Surfaces == nil {
				continue
			}
			n++
			used[s.Name] = true
			if restricted[s.Name] == "" {
				t.Errorf("%s: step `%s` is restricted without a reason in the restricted list", s.Name, sec.Step.Line)
			}
		}
	}
	for name := range restricted {
		if !used[name] {
			t.Errorf("restricted list names %s, which has no restricted step", name)
		}
	}
	t.Logf("%d surface-restricted steps in %d scenarios", n, len(used))
}
