//go:build !linux

package store

import "os"

// mapFile never maps outside Linux: the file is read.
func mapFile(*os.File, int) ([]byte, bool) { return nil, false }

func mapFileLazily(*os.File, int) ([]byte, bool) { return nil, false }

func unmapFile([]byte) {}

func dropPages([]byte) {}
