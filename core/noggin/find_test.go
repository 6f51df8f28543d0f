package noggin

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// findTree has titles and notes that exercise folding and word matching.
const findTree = `Spike STORAGE note=benchmarks
  write the spec done note=Straße
  storage tests
    KELVIN scale note=k-means
ship redesign
  review storage RFC done
orphan-free`

func TestFind(t *testing.T) {
	cases := []struct {
		name string
		o    FindOpts
		want string // "path title [notes]" lines, then "total N"
		code string
	}{
		{name: "case-insensitive, tree order", o: FindOpts{Query: "storage"},
			want: "/1 Spike STORAGE []\n/1/2 storage tests []\n/2/1 review storage RFC []\ntotal 3"},
		{name: "every word must match", o: FindOpts{Query: "storage  TESTS"}, want: "/1/2 storage tests []\ntotal 1"},
		{name: "words in title and notes", o: FindOpts{Query: "spike benchmarks"}, want: "/1 Spike STORAGE [" + findStamp + "]\ntotal 1"},
		{name: "notes only", o: FindOpts{Query: "STRASSE"}, want: "total 0"},
		{name: "simple folding of ß", o: FindOpts{Query: "straSSe"}, want: "total 0"},
		{name: "unicode folding", o: FindOpts{Query: "straße"}, want: "/1/1 write the spec [" + findStamp + "]\ntotal 1"},
		{name: "Kelvin sign folds to k", o: FindOpts{Query: "\u212aelvin"}, want: "/1/2/1 KELVIN scale []\ntotal 1"},
		{name: "open only", o: FindOpts{Query: "storage", Open: true}, want: "/1 Spike STORAGE []\n/1/2 storage tests []\ntotal 2"},
		{name: "done only", o: FindOpts{Query: "storage", Done: true}, want: "/2/1 review storage RFC []\ntotal 1"},
		{name: "under a path", o: FindOpts{Query: "storage", Under: "/1"}, want: "/1/2 storage tests []\ntotal 1"},
		{name: "under a relative path", o: FindOpts{Query: "s", Under: "2"}, want: "/1/2/1 KELVIN scale [" + findStamp + "]\ntotal 1"},
		{name: "limit keeps the total", o: FindOpts{Query: "storage", Limit: 1}, want: "/1 Spike STORAGE []\ntotal 3"},
		{name: "blank query", o: FindOpts{Query: " \u3000 "}, code: CodeQueryRequired},
		{name: "open and done", o: FindOpts{Query: "x", Open: true, Done: true}, code: CodeNogginError},
		{name: "under a missing path", o: FindOpts{Query: "x", Under: "/9"}, code: CodePathNotFound},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			doc := tree(strings.ReplaceAll(findTree, "2026-01-01", "2026-01-01"))
			doc.Active = "k1"
			r, err := fixedEngine().Find(context.Background(), newMem(doc), tc.o)
			if tc.code != "" {
				if Wrap(err).Code != tc.code {
					t.Fatalf("err = %v, want %s", err, tc.code)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			for _, m := range r.Matches {
				fmt.Fprintf(&b, "%s %s %v\n", m.Path, m.Title, m.Notes)
			}
			fmt.Fprintf(&b, "total %d", r.Total)
			if b.String() != tc.want {
				t.Errorf("got\n%s\nwant\n%s", b.String(), tc.want)
			}
		})
	}
}

const findStamp = "2026-01-01T00:00:00.000Z"
