package client_test

import (
	"context"
	"net/http"
	"os"

	"connectrpc.com/connect"

	"github.com/noggin-go/noggin/core/envelope"
	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/surfaces/rpc/client"
)

// A push over RPC, printed as the CLI's --json envelope.
func ExampleNew() {
	c := client.New(http.DefaultClient, "http://127.0.0.1:7777", client.WithToken(os.Getenv("NOGGIN_RPC_TOKEN")))
	v, err := c.Push(context.Background(), "work.yaml", noggin.PushOpts{Title: "spike storage"})
	os.Stdout.Write(envelope.Result("push", v, err).Encode())
}

// The same service over gRPC (HTTP/2 without TLS).
func ExampleH2CClient() {
	c := client.New(client.H2CClient(), "http://127.0.0.1:7777",
		client.WithConnectOptions(connect.WithGRPC()))
	w, err := c.Watch(context.Background(), "work.yaml")
	if err != nil {
		return
	}
	defer w.Close()
	for {
		ev, err := w.Next()
		if err != nil {
			return
		}
		_ = ev.Changes // added/removed/moved/updated/activeChanged, then ev.Doc
	}
}
