// Command replace is the report's replace floor (make bench-report): a
// process that writes a copy of a noggin file beside the file it replaces,
// fsyncs it, renames it over that file (which holds the previous version,
// freed by the rename) and fsyncs the directory: the least a crash-safe
// write of the noggin costs.
//
//	replace NOGGIN TARGET
package main

import (
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	if err := replace(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func replace(src, target string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	tmp := target + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		_ = f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		_ = f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, target); err != nil {
		return err
	}
	dir, err := os.Open(filepath.Dir(target))
	if err != nil {
		return err
	}
	defer dir.Close()
	return dir.Sync()
}
