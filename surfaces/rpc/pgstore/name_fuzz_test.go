package pgstore_test

import (
	"path"
	"strings"
	"testing"

	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/surfaces/rpc/pgstore"
)

// FuzzName: every location is either refused with a location code or
// named by a clean relative path that stays among the server's noggins.
// (Naming is not idempotent, as paths are not: "./ 0" names " 0", while
// the location " 0" is trimmed to "0".)
func FuzzName(f *testing.F) {
	for _, s := range []string{"team.yaml", " ./a/../b.yaml ", "/etc/passwd", "~", "~/x", "../x", "a/../../x",
		"memory://x", "FILE:///x", "", " \t", "a\x00b", "\ufeffteam.yaml", "a//b/./c", "..", ".", "x/..", "\u0085"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, loc string) {
		name, err := pgstore.Name(loc)
		if err != nil {
			switch code := noggin.Wrap(err).Code; code {
			case noggin.CodeNoLocation, noggin.CodeNoProvider, noggin.CodeLocationRefused:
			default:
				t.Fatalf("Name(%q): code %s", loc, code)
			}
			return
		}
		if name == "" || path.Clean(name) != name || strings.HasPrefix(name, "/") || name == ".." ||
			strings.HasPrefix(name, "../") || strings.ContainsRune(name, 0) || name == "." {
			t.Fatalf("Name(%q) = %q", loc, name)
		}
	})
}
