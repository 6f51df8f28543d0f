package servergc

import (
	"runtime/debug"
	"testing"
)

// TestSet: the servers' target applies unless $GOGC chose one.
func TestSet(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	for _, tc := range []struct {
		gogc string
		want int
	}{{"", Percent}, {"50", 100}, {"off", 100}} {
		debug.SetGCPercent(100)
		Set(func(k string) string {
			if k == "GOGC" {
				return tc.gogc
			}
			return ""
		})
		if got := debug.SetGCPercent(100); got != tc.want {
			t.Errorf("GOGC=%q: percent %d, want %d", tc.gogc, got, tc.want)
		}
	}
}
