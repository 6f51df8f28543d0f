package server_test

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var procedures = []string{"Show", "ShowGoto", "Push", "Add", "Move", "Goto", "Done", "Pop", "Edit", "Note",
	"Delete", "Copy", "Where", "Providers", "Snapshot", "Call"}

// FuzzHandlers sends arbitrary bodies, as Connect JSON and as binary
// protobuf, to every procedure of a real server (in-process, over
// loopback): it never panics or answers 5xx but for internal errors it
// reports as such, writes nothing outside its root, and answers a valid
// request afterwards.
func FuzzHandlers(f *testing.F) {
	// The root is the one entry of a directory of the test's own: anything
	// else in it was written outside the root.
	outside := f.TempDir()
	root := filepath.Join(outside, "root")
	if err := os.Mkdir(root, 0o755); err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{`{"location": "n.yaml", "title": "x"}`, `{"verb": "push", "arguments": {"noggin": "n.yaml", "title": 1}}`,
		`{"location": "../x.yaml"}`, `{"sourceLocation": "n.yaml", "destLocation": "` + filepath.ToSlash(filepath.Join(outside, "x.yaml")) + `"}`,
		"\x0a\x05n.yaml\x12\x01x", `[]`, ``} {
		f.Add(uint8(0), s)
		f.Add(uint8(2), s)
		f.Add(uint8(15), s)
	}
	ts := startServer(f, root)
	f.Fuzz(func(t *testing.T, which uint8, body string) {
		proc := procedures[int(which)%len(procedures)]
		ctype := "application/json"
		if which >= 128 {
			ctype = "application/proto"
		}
		resp, err := http.Post(ts.url+"/noggin.v1.NogginService/"+proc, ctype, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode >= 500 && !bytes.Contains(b, []byte(`"internal"`)) && !bytes.Contains(b, []byte(`"unavailable"`)) {
			t.Fatalf("%s %q: HTTP %d %s", proc, body, resp.StatusCode, b)
		}
		resp, err = http.Post(ts.url+"/noggin.v1.NogginService/Providers", "application/json", strings.NewReader(`{}`))
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("server unusable after %s %q: %v", proc, body, err)
		}
		resp.Body.Close()
		if entries, err := os.ReadDir(outside); err != nil || len(entries) != 1 {
			t.Fatalf("%s %q wrote outside the root: %v", proc, body, entries)
		}
	})
}
