package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/noggin-go/noggin/core/codec"
	"github.com/noggin-go/noggin/core/noggin"
)

// TestAgentsConcurrent: eight agents — three CLI processes, three
// noggin-mcp servers and two RPC callers — each work their own root of one
// noggin at the same time, by key and by their own cursors: push a child,
// note it (relative: the agent's cursor), pop it, note their root by key.
// Afterwards every write is on the item its agent meant (a child's notes
// are its own, the root's notes are in order), every cursor is back on
// its root, the shared active item never moved, and nothing is lost: 8 ×
// 4 × rounds writes (about 2,000; a tenth with -short).
func TestAgentsConcurrent(t *testing.T) {
	rounds := 62
	if testing.Short() {
		rounds = 6
	}
	dir, err := os.MkdirTemp(suite.tmp, "agents-") // fresh per run (-count)
	if err != nil {
		t.Fatal(err)
	}
	const agents = 8
	var fixture strings.Builder
	fixture.WriteString("schemaVersion: 1\nactive: null\nitems:\n")
	for i := range agents {
		fmt.Fprintf(&fixture, "  - key: k-a%d\n    parentKey: null\n    title: agent %d\n    done: false\n    createdAt: '2026-01-01T00:00:00.000Z'\n    notes: []\n", i, i)
	}
	file := filepath.Join(dir, "shared.yaml")
	if err := os.WriteFile(file, []byte(fixture.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(processEnv(false), "NOGGIN_CLOCK="+Clock)
	srv, err := StartRPCServer(needBinary(t, RPC), dir, env)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	rpcs, err := NewRPCSurface(srv.Addr)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	mcps, err := StartMCP(ctx, needBinary(t, MCP), dir, env)
	if err != nil {
		t.Fatal(err)
	}
	defer mcps.Close()
	cli := &CLISurface{Bin: needBinary(t, CLI), Dir: dir, Env: env}
	names := make([]string, agents)
	surfaces := make([]Surface, agents)
	for i := range agents {
		switch {
		case i < 3:
			names[i], surfaces[i] = fmt.Sprintf("cli-%d", i), cli
		case i < 6:
			names[i] = fmt.Sprintf("mcp-%d", i)
			if surfaces[i], err = mcps.As(ctx, names[i]); err != nil { // started before the agents go
				t.Fatal(err)
			}
		default:
			names[i], surfaces[i] = fmt.Sprintf("rpc-%d", i), rpcs
		}
	}
	scn := &Scenario{Name: "."}
	var mu sync.Mutex
	var failures []string
	do := func(i int, line string) {
		st, err := ParseStep(line + " noggin=shared.yaml agent=" + names[i])
		if err == nil {
			var o *Outcome
			if path := st.Str("path"); surfaces[i] == cli && st.Verb == "note" && strings.HasPrefix(path, "@") {
				// The CLI takes a first word @KEY as note's path when the
				// noggin has that key, which the harness cannot see.
				text, rerr := cli.Run(ctx, []string{"--json", "--noggin", "shared.yaml", "--agent", names[i], "note", path, st.Str("text")})
				o = &Outcome{Text: text, Err: rerr}
			} else {
				o = surfaces[i].Do(ctx, scn, st)
			}
			if err = o.Err; err == nil {
				if code, cerr := envelopeExit(o.Text); cerr != nil || code != 0 {
					err = fmt.Errorf("%s", o.Text)
				}
			}
		}
		if err != nil {
			mu.Lock()
			failures = append(failures, fmt.Sprintf("%s %s: %v", names[i], line, err))
			mu.Unlock()
		}
	}
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range agents {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			do(i, fmt.Sprintf("goto path=@k-a%d", i))
			for r := range rounds {
				do(i, fmt.Sprintf("push title=a%d-%03d", i, r))
				do(i, fmt.Sprintf("note text=n%d-%03d", i, r))
				do(i, "pop")
				do(i, fmt.Sprintf("note path=@k-a%d text=k%d-%03d", i, i, r))
			}
		}()
	}
	close(start)
	wg.Wait()
	for _, f := range failures {
		t.Error(f)
	}

	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := codec.DecodeYAML(data)
	if err != nil {
		t.Fatalf("the file does not parse: %v", err)
	}
	if doc.Active != "" {
		t.Errorf("the shared active item moved to %s", doc.Active)
	}
	byKey := map[string]*noggin.Item{}
	kids := map[string][]*noggin.Item{}
	for _, it := range doc.Items {
		byKey[it.Key] = it
		kids[it.ParentKey] = append(kids[it.ParentKey], it)
	}
	cursors := map[string]string{}
	for _, c := range doc.Cursors() {
		cursors[c.Agent] = c.Key
	}
	for i, name := range names {
		root := fmt.Sprintf("k-a%d", i)
		if cursors[name] != root {
			t.Errorf("%s's cursor is %q, want its root %s", name, cursors[name], root)
		}
		var notes []string
		for _, n := range byKey[root].Notes {
			notes = append(notes, n.Text)
		}
		var want []string
		for r := range rounds {
			want = append(want, fmt.Sprintf("k%d-%03d", i, r))
		}
		if strings.Join(notes, " ") != strings.Join(want, " ") {
			t.Errorf("%s's root notes:\n%q\nwant\n%q", name, notes, want)
		}
		if got := len(kids[root]); got != rounds {
			t.Errorf("%s's root has %d children, want %d", name, got, rounds)
		}
		for r, kid := range kids[root] {
			title := fmt.Sprintf("a%d-%03d", i, r)
			if kid.Title != title || !kid.Done || len(kid.Notes) != 2 ||
				kid.Notes[0].Text != fmt.Sprintf("n%d-%03d", i, r) || kid.Notes[1].Text != "closed" || len(kids[kid.Key]) != 0 {
				t.Errorf("%s's child %d: %q done=%v notes %v, want %s closed with its own note", name, r, kid.Title, kid.Done, kid.Notes, title)
			}
		}
	}
	if want := agents * (1 + rounds); len(doc.Items) != want {
		t.Errorf("%d items, want %d", len(doc.Items), want)
	}
	t.Logf("%d agents, %d writes each, %d items", agents, 1+4*rounds, len(doc.Items))
}
