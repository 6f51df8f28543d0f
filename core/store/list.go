package store

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/noggin-go/noggin/core/noggin"
)

// List names the noggin files under the cache's root directory (Options.Root):
// the .yaml, .yml and .json files, as slash paths relative to it, sorted,
// at most max of them. Hidden files and directories, and the files a store
// keeps beside a noggin (history, lock, temporary files), are left out;
// symbolic links are not followed. The walk looks at most at listVisits
// entries, so that a root holding a large tree answers at once (truncated).
func (c *Cache) List(ctx context.Context, max int) ([]string, bool, error) {
	if c.opts.Root == "" {
		return nil, false, errors.New("list: the store has no root directory")
	}
	root, err := os.OpenRoot(c.opts.Root)
	if err != nil {
		return nil, false, err
	}
	defer func() { _ = root.Close() }()
	var names []string
	truncated, visits := false, 0
	err = fs.WalkDir(root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable directory lists nothing
		}
		if cerr := noggin.Cancelled(ctx); cerr != nil {
			return cerr
		}
		if visits++; visits > listVisits {
			truncated = true
			return fs.SkipAll
		}
		name := d.Name()
		if p != "." && strings.HasPrefix(name, ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() || !d.Type().IsRegular() || !isNogginName(name) {
			return nil
		}
		if len(names) == max {
			truncated = true
			return fs.SkipAll
		}
		names = append(names, p)
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	slices.Sort(names)
	return names, truncated, nil
}

// listVisits is the most directory entries List looks at (a variable for
// the tests).
var listVisits = 20000

// isNogginName reports whether a file name is a noggin's (.yaml, .yml or
// .json; a write's temporary file, NAME.tmp-PID-TIME, is not).
func isNogginName(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}
