//go:build !linux

package mmap

import "os"

// Map never maps outside Linux: the file is read.
func Map(*os.File, int) ([]byte, bool) { return nil, false }

// Unmap does nothing outside Linux.
func Unmap([]byte) {}

// Drop does nothing outside Linux.
func Drop([]byte) {}
