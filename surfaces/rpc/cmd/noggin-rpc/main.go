// Command noggin-rpc serves noggin over Connect, gRPC and gRPC-Web.
//
//	noggin-rpc serve [--addr 127.0.0.1:7777] [--root DIR] [--token-file F] [--max-bytes N]
//
// See the package app and the surface's README for the flags.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/noggin-go/noggin/surfaces/rpc/internal/app"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := app.Main(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
