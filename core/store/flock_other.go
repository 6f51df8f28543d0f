//go:build !unix

package store

import (
	"errors"
	"os"
)

// flock: no kernel locks here; locks follow the original's rule alone.
func flock(*os.File) error { return errors.ErrUnsupported }

// writable: a file that may not be written fails at the rename here.
func writable(string) error { return nil }
