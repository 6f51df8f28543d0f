//go:build !unix

package store

import (
	"io/fs"
	"os"
)

// openFile is os.OpenFile (see open_unix.go).
func openFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	return os.OpenFile(name, flag, perm)
}

// readFile is os.ReadFile.
func readFile(name string) ([]byte, error) { return os.ReadFile(name) }

// writeFile is os.WriteFile.
func writeFile(name string, data []byte, perm fs.FileMode) error {
	return os.WriteFile(name, data, perm)
}
