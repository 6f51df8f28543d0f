// Package buildinfo says which build of noggin is running: its version,
// commit and build date. Release builds (make dist) set them with
//
//	-ldflags "-X github.com/noggin-go/noggin/core/buildinfo.version=v1.2.3
//	          -X github.com/noggin-go/noggin/core/buildinfo.commit=<sha>
//	          -X github.com/noggin-go/noggin/core/buildinfo.date=<RFC 3339>"
//
// Other builds take what the Go toolchain recorded: the module version of
// `go install …@v1.2.3`, and the commit (and its time) of a build inside
// a git checkout.
package buildinfo

import (
	"runtime/debug"
	"strings"
)

// Set by release builds with -ldflags -X.
var version, commit, date string

// Info identifies a build. Empty fields are unknown.
type Info struct {
	// Version is a release version ("v1.2.3"), or "devel".
	Version string
	// Commit is the git commit it was built from, "-dirty" appended when
	// the checkout had local changes.
	Commit string
	// Date is when it was built (release builds), else when its commit
	// was made; DateIsCommit tells which.
	Date         string
	DateIsCommit bool
}

// Get returns the running build's Info.
func Get() Info {
	bi, _ := debug.ReadBuildInfo()
	return from(bi, version, commit, date)
}

// from combines the linker-set values (which win) with the Go build
// information (nil when there is none).
func from(bi *debug.BuildInfo, version, commit, date string) Info {
	i := Info{Version: version, Commit: commit, Date: date}
	if bi != nil {
		if i.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			i.Version = bi.Main.Version
		}
		var rev, at string
		dirty := false
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.time":
				at = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
		if i.Commit == "" && rev != "" {
			i.Commit = rev[:min(len(rev), 12)]
			if dirty {
				i.Commit += "-dirty"
			}
		}
		if i.Date == "" && at != "" {
			i.Date, i.DateIsCommit = at, true
		}
	}
	if i.Version == "" {
		i.Version = "devel"
	}
	return i
}

// String is the version line's text after the program name:
// "v1.2.3 (commit 0123456789ab, built 2026-12-03T10:00:00Z)", or just the
// version when nothing else is known.
func (i Info) String() string {
	var extra []string
	if i.Commit != "" {
		extra = append(extra, "commit "+i.Commit)
	}
	if i.Date != "" {
		word := "built "
		if i.DateIsCommit {
			word = "committed "
		}
		extra = append(extra, word+i.Date)
	}
	if len(extra) == 0 {
		return i.Version
	}
	return i.Version + " (" + strings.Join(extra, ", ") + ")"
}
