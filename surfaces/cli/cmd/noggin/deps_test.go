package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoHeavyDeps keeps the CLI binary free of the transports of the other
// surfaces: protobuf, Connect, the MCP SDK and net/http cost start-up time,
// and the CLI is started hundreds of times a day. A remote noggin is
// reached with Connect's JSON protocol in one hand-written HTTP/1.1 POST
// (surfaces/rpc/remote) instead.
func TestNoHeavyDeps(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	forbidden := []string{
		"google.golang.org/protobuf",
		"google.golang.org/grpc",
		"connectrpc.com/",
		"github.com/modelcontextprotocol/",
		"net/http",
	}
	for _, pkg := range strings.Fields(string(out)) {
		for _, f := range forbidden {
			if pkg == f || strings.HasPrefix(pkg, f) {
				t.Errorf("noggin links %s", pkg)
			}
		}
	}
}
