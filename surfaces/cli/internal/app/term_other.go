//go:build !linux

package app

import "os"

// readNoEcho: without termios here, the token is read as typed.
func readNoEcho(f *os.File) (string, error) { return readLine(f) }
