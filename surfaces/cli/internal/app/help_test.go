package app

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

// TestVerbHelpSaysItsOwnFlags: a verb's help says what each of its flags
// does for that verb alone: no "edit: …; find: …" meanings of other verbs.
func TestVerbHelpSaysItsOwnFlags(t *testing.T) {
	var names []string
	for _, v := range verbDefs {
		names = append(names, v.name)
	}
	names = append(names, "verbs that print a view")
	others := regexp.MustCompile(`(^|[ ;(])(` + strings.Join(names, "|") + `)(, [a-z]+)*: `)
	for _, v := range verbDefs {
		if v.name == "help" {
			continue
		}
		t.Run(v.name, func(t *testing.T) {
			var b bytes.Buffer
			writeVerbHelp(&b, v.name)
			_, opts, _ := strings.Cut(b.String(), "OPTIONS:")
			for _, line := range strings.Split(opts, "\n") {
				if m := others.FindString(line); m != "" {
					t.Errorf("help %s: %q speaks of %q", v.name, strings.TrimSpace(line), strings.TrimSpace(m))
				}
			}
		})
	}
}
