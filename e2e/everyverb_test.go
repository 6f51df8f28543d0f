package e2e

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/noggin-go/noggin/core/request"
	"github.com/noggin-go/noggin/surfaces/rpc/pgstore/pgtest"
)

// everyVerbSteps runs every verb of core once or more; LOC and OTHER stand
// for the noggin and a second one beside it.
var everyVerbSteps = [][]string{
	{"providers"},
	{"push", "ship the redesign"},
	{"note", "kick-off on Monday"},
	{"add", "write tests", "--goto"},
	{"push", "fix", "the", "flaky", "one"},
	{"show", "/1", "--with-descendants", "--with-notes"},
	{"find", "flaky"},
	{"done"},
	{"pop", "--force"},
	{"edit", "/1", "--title", "ship the storage redesign"},
	{"move", "/1/1", "--before", "/1/2"},
	{"goto", "/1"},
	{"where"},
	{"copy", "LOC", "OTHER"},
	{"log"},
	{"push", "agent work", "--agent", "ann"},
	{"where", "--agent", "ann"},
	{"log", "--by", "ann"},
	{"changes", "--since", "crc:1:0000000000000000"},
	{"agents"},
	{"agents", "--forget", "ann"},
	{"undo"},
	{"redo"},
	{"delete", "/1/2", "--recursive"},
	{"show"},
	{"goto", "/9"},
}

// TestEveryVerbRemote: every verb's human, --json and --with-json output
// on a remote file server is the local run's (locations aside), and never
// a panic or nothing.
func TestEveryVerbRemote(t *testing.T) {
	covered := map[string]bool{}
	for _, st := range everyVerbSteps {
		covered[st[0]] = true
	}
	for _, v := range request.Verbs {
		if !covered[v] {
			t.Errorf("verb %s is not in everyVerbSteps", v)
		}
	}
	everyVerb(t, startTokenServer(t, t.TempDir()).Addr, false)
}

// TestEveryVerbPostgres: the same on the team server over PostgreSQL.
func TestEveryVerbPostgres(t *testing.T) {
	c := pgtest.Start(t, pgtest.Options{})
	srv, err := StartRPCServer(needBinary(t, RPC), "", append(processEnv(true), "HOME="+t.TempDir(), "NOGGIN_RPC_TOKEN="+remoteToken), "--store", c.DSN)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	everyVerb(t, srv.Addr, true)
}

// principalJSON is an entry's principal line in an envelope of any depth.
var principalJSON = regexp.MustCompile(`(?m)^ *"principal": "token:[0-9a-f]{8}",\n`)

// everyVerb compares the verbs' output on a remote noggin at addr with a
// local file's; on a database (db) the revisions name the states each its
// own way and are left out.
func everyVerb(t *testing.T, addr string, db bool) {
	t.Helper()
	sum := sha256.Sum256([]byte(remoteToken))
	principal := "token:" + hex.EncodeToString(sum[:4])
	tok := tokenEnv(addr)
	for mi, mode := range [][]string{nil, {"--json"}, {"--with-json"}} {
		local := t.TempDir()
		lname, lother := filepath.Join(local, "n.yaml"), filepath.Join(local, "o.yaml")
		name := []string{"h", "j", "w"}[mi] + ".yaml"
		rname, rother := "http://"+addr+"/"+name, "http://"+addr+"/o"+name
		norm := strings.NewReplacer(rname, "LOC", rother, "OTHER", lname, "LOC", lother, "OTHER")
		for _, st := range everyVerbSteps {
			args := func(loc, other string) []string {
				a := append([]string{"--noggin", loc}, mode...)
				for _, w := range st {
					a = append(a, strings.NewReplacer("LOC", loc, "OTHER", other).Replace(w))
				}
				return a
			}
			want := runCLI(t, local, nil, args(lname, lother)...)
			got := runCLI(t, local, tok, args(rname, rother)...)
			if strings.Contains(got, "panic:") || strings.HasPrefix(got, "[exit") {
				t.Errorf("%v %v: %q", mode, st, got)
			}
			if db {
				got = string(revisionToken.ReplaceAll(withoutRevision([]byte(got)), []byte("REV")))
				want = string(revisionToken.ReplaceAll(withoutRevision([]byte(want)), []byte("REV")))
			}
			// A remote write's history names who the server let in (the
			// token's fingerprint); a local one names nobody.
			if st[0] == "log" && !strings.Contains(got, principal) {
				t.Errorf("%v %v: the remote history does not name %s:\n%s", mode, st, principal, got)
			}
			got = strings.ReplaceAll(got, " ("+principal+")", "")
			got = principalJSON.ReplaceAllString(got, "")
			if norm.Replace(got) != norm.Replace(want) {
				t.Errorf("%v %v: remote\n%s\nlocal\n%s", mode, st, got, want)
			}
		}
	}
}
