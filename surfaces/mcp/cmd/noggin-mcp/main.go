// Command noggin-mcp is the noggin MCP server: the noggin working-memory
// tools for coding agents, over stdio (default) or streamable HTTP.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/noggin-go/noggin/surfaces/mcp/internal/app"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := app.Main(ctx, app.Env{
		Args:   os.Args[1:],
		Getenv: os.Getenv,
		Stdin:  os.Stdin,
		Stdout: os.Stdout,
		Stderr: os.Stderr,
	})
	stop()
	os.Exit(code)
}
