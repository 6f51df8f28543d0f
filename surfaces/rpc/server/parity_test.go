package server_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// post sends a Connect JSON request and returns the status and body.
func post(t *testing.T, ts *testServer, method, body string) (int, string) {
	t.Helper()
	resp, err := http.Post(ts.url+"/noggin.v1.NogginService/"+method, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// callEnvelope runs the Call method and returns the envelope it carries.
func callEnvelope(t *testing.T, ts *testServer, verb, args string) string {
	t.Helper()
	code, body := post(t, ts, "Call", `{"verb": "`+verb+`", "arguments": `+args+`}`)
	if code != 200 {
		t.Fatalf("Call %s %s: HTTP %d %s", verb, args, code, body)
	}
	var r struct {
		Envelope string `json:"envelope"`
	}
	if err := json.Unmarshal([]byte(body), &r); err != nil {
		t.Fatal(err)
	}
	return r.Envelope
}

// TestTypedArgumentsFollowCore: the typed RPCs go through core's request
// layer: titles are trimmed with JavaScript semantics, an empty title is
// title-required, a misspelt JSON field is an error naming it, and a lone
// surrogate is U+FFFD.
func TestTypedArgumentsFollowCore(t *testing.T) {
	root := t.TempDir()
	ts := startServer(t, root)
	cases := []struct {
		method, body string
		status       int
		want         string
	}{
		{"Push", `{"location": "n.yaml", "title": "\ufeffbom"}`, 200, `"title":"bom"`},
		{"Add", `{"location": "n.yaml", "title": "  padded  child"}`, 200, `"title":"padded  child"`},
		{"Push", `{"location": "n.yaml", "title": "\u0085"}`, 200, "\"title\":\"\u0085\""},
		{"Push", `{"location": "n.yaml"}`, 400, `title required`},
		{"Add", `{"location": "n.yaml", "title": "\u3000"}`, 400, `title required`},
		{"Push", `{"location": "n.yaml", "tittle": "typo"}`, 400, `unknown field \"tittle\"`},
		// JSON allows lone surrogates, protobuf strings do not: U+FFFD, as in typed answers.
		{"Push", `{"location": "n.yaml", "title": "a\ud800b"}`, 200, "\"title\":\"a\uFFFDb\""},
		{"Note", `{"location": "n.yaml", "text": "\udc00 alone"}`, 200, "\"text\":\"\uFFFD alone\""},
		{"Call", `{"verb": "push", "arguments": {}, "extra": 1}`, 400, `unknown field \"extra\"`},
	}
	for _, c := range cases {
		code, body := post(t, ts, c.method, c.body)
		if code != c.status || !strings.Contains(body, c.want) {
			t.Errorf("%s %s: HTTP %d %s; want %d with %s", c.method, c.body, code, body, c.status, c.want)
		}
	}
	data, err := os.ReadFile(filepath.Join(root, "n.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(string(data), "- key:"); got != 4 {
		t.Errorf("%d items written, want 4:\n%s", got, data)
	}
}

// TestCallReturnsServerEnvelope: Call answers the canonical envelope bytes
// for successes and failures alike, with unknown arguments named.
func TestCallReturnsServerEnvelope(t *testing.T) {
	ts := startServer(t, t.TempDir())
	env := callEnvelope(t, ts, "push", `{"noggin": "c.yaml", "title": "  first  "}`)
	if !strings.HasPrefix(env, "{\n  \"status\": \"ok\",\n  \"envelopeVersion\": 3,\n  \"verb\": \"push\"") || !strings.Contains(env, `"title": "first"`) {
		t.Errorf("push envelope:\n%s", env)
	}
	for _, c := range []struct{ verb, args, code string }{
		{"push", `{"noggin": "c.yaml", "tittle": "x"}`, "unknown-argument"},
		{"push", `{"noggin": "c.yaml", "title": "\u3000"}`, "title-required"},
		{"note", `{"noggin": "c.yaml", "text": " "}`, "text-required"},
		{"edit", `{"noggin": "c.yaml"}`, "nothing-to-edit"},
		{"move", `{"noggin": "c.yaml"}`, "placement-missing"},
		{"pop", `{"noggin": "c.yaml", "path": "/1"}`, "pop-no-path"},
		{"delete", `{"noggin": "c.yaml", "path": "/1", "goto": true}`, "goto-unsupported"},
		{"bogus", `{}`, "noggin-error"},
	} {
		env := callEnvelope(t, ts, c.verb, c.args)
		if !strings.Contains(env, `"code": "`+c.code+`"`) || !bytes.HasSuffix([]byte(env), []byte("}")) {
			t.Errorf("%s %s:\n%s\nwant code %s", c.verb, c.args, env, c.code)
		}
	}
	if env := callEnvelope(t, ts, "show", `{"noggin": "c.yaml", "goto": "/1"}`); !strings.Contains(env, `"status": "ok"`) {
		t.Errorf("show with goto over Call:\n%s", env)
	}
}
