package server_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/request"
	"github.com/noggin-go/noggin/surfaces/rpc/client"
)

// TestClientHasEveryVerb: the typed Go client has a method for each of
// core's verbs (a new verb without one fails here), named as its RPC.
func TestClientHasEveryVerb(t *testing.T) {
	shared := map[string]string{"redo": "Undo"} // Undo(ctx, location, redo bool)
	typ := reflect.TypeFor[*client.Client]()
	for _, v := range request.Verbs {
		name := shared[v]
		if name == "" {
			name = strings.ToUpper(v[:1]) + v[1:]
		}
		if _, ok := typ.MethodByName(name); !ok {
			t.Errorf("verb %s: the Go client has no method %s", v, name)
		}
	}
}

// TestClientAgents: the typed Agents lists the cursors and forgets one.
func TestClientAgents(t *testing.T) {
	ts := startServer(t, "")
	c := ts.client(t, "connect")
	ctx := context.Background()
	const loc = "agents.yaml"
	if _, err := c.Push(ctx, loc, noggin.PushOpts{Title: "shared"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CallAs(ctx, "ada", "push", map[string]any{"noggin": loc, "title": "hers"}); err != nil {
		t.Fatal(err)
	}
	res, err := c.Agents(ctx, loc, noggin.AgentsOpts{})
	if err != nil || len(res.Agents) != 1 || res.Agents[0].Agent != "ada" || res.Agents[0].Title != "hers" {
		t.Fatalf("agents: %+v, %v", res, err)
	}
	res, err = c.Agents(ctx, loc, noggin.AgentsOpts{Forget: "ada"})
	if err != nil || res.Forgotten != "ada" || len(res.Agents) != 0 {
		t.Fatalf("agents --forget ada: %+v, %v", res, err)
	}
	if _, err := c.Agents(ctx, loc, noggin.AgentsOpts{Forget: "ada"}); noggin.Wrap(err).Code != noggin.CodeUnknownAgent {
		t.Fatalf("forgetting again: %v, want unknown-agent", err)
	}
}
