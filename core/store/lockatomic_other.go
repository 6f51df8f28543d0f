//go:build !linux

package store

// renameExclusive is not available here; locks use plain mkdir.
func renameExclusive(oldpath, newpath string) error { return errNoAtomicRename }
