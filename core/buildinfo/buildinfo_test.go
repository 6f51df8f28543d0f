package buildinfo

import (
	"runtime/debug"
	"testing"
)

func TestFrom(t *testing.T) {
	vcs := &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.time", Value: "2026-12-03T10:00:00Z"},
		{Key: "vcs.modified", Value: "true"},
	}}
	for _, tc := range []struct {
		name                  string
		bi                    *debug.BuildInfo
		version, commit, date string
		want                  string
	}{
		{"nothing known", nil, "", "", "", "devel"},
		{"go build outside git", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "", "", "", "devel"},
		{"go install @version", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, "", "", "", "v1.2.3"},
		{"go build in a dirty checkout", vcs, "", "", "", "devel (commit 0123456789ab-dirty, committed 2026-12-03T10:00:00Z)"},
		{"release build", vcs, "v1.2.3", "fedcba987654", "2026-12-04T08:00:00Z", "v1.2.3 (commit fedcba987654, built 2026-12-04T08:00:00Z)"},
	} {
		if got := from(tc.bi, tc.version, tc.commit, tc.date).String(); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
