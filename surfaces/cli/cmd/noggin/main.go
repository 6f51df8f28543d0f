// A noggin invocation lives for milliseconds: no periodic GOMAXPROCS
// re-check, no naming of memory mappings (syscalls at every start).
//
//go:debug updatemaxprocs=0
//go:debug decoratemappings=0

// Command noggin is the working-memory tree CLI (docs/cli.md).
package main

import (
	"os"

	"github.com/noggin-go/noggin/surfaces/cli/internal/app"
)

func main() {
	app.OneShot(os.Getenv)
	// Ctrl-C (or a TERM) while the verb waits for the noggin's lock, a
	// remote server or changes stops it with nothing written; once the
	// write has begun it completes (interrupt.go).
	code := app.Main(newInterruptContext(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	os.Exit(code)
}
