package request

import (
	"maps"
	"slices"
	"testing"
)

// TestVerbTable: each verb is defined once, runs one way, and names each
// argument once; the RPC Call table covers the same verbs.
func TestVerbTable(t *testing.T) {
	seen := map[string]bool{}
	for _, v := range verbTable {
		if seen[v.Name] {
			t.Errorf("%s is defined twice", v.Name)
		}
		seen[v.Name] = true
		if (v.run == nil) == (v.global == nil) {
			t.Errorf("%s: exactly one of run and global must be set", v.Name)
		}
		names := map[string]bool{}
		for _, p := range v.Params {
			if names[p.Name] {
				t.Errorf("%s names %s twice", v.Name, p.Name)
			}
			names[p.Name] = true
		}
		if v.run != nil && !names["noggin"] {
			t.Errorf("%s opens a noggin but takes no noggin argument", v.Name)
		}
	}
	if got, want := slices.Sorted(maps.Keys(callParams)), slices.Sorted(slices.Values(Verbs)); !slices.Equal(got, want) {
		t.Errorf("callParams has %v, Verbs has %v", got, want)
	}
}
