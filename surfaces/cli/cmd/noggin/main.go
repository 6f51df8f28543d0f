// Command noggin is the working-memory tree CLI (spec/cli.md).
package main

import (
	"os"

	"github.com/noggin-go/noggin/surfaces/cli/internal/app"
)

func main() {
	os.Exit(app.Main(os.Args[1:], os.Stdout, os.Stderr, os.Getenv))
}
