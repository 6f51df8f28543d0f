package request

import (
	"maps"
	"slices"
	"testing"
)

// TestVerbTables: Verbs, the verb definitions and the argument tables name
// the same verbs.
func TestVerbTables(t *testing.T) {
	want := slices.Sorted(slices.Values(Verbs))
	for name, keys := range map[string][]string{
		"verbs": slices.Sorted(maps.Keys(verbs)), "params": slices.Sorted(maps.Keys(params)),
		"callParams": slices.Sorted(maps.Keys(callParams)),
	} {
		if !slices.Equal(keys, want) {
			t.Errorf("%s has %v, Verbs has %v", name, keys, want)
		}
	}
}
