//go:build !linux

package store

import "os"

// createLockAt is not available here; locks use plain mkdir.
func createLockAt(fsys, *os.File, string) (*lock, error) { return nil, errNoAtomicRename }
