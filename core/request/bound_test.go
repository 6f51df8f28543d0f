package request_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/request"
)

// flat is a noggin of n roots, the middle one active, each with a note.
func flat(n int) string { return flatNotes(n, "") }

// flatNotes is flat with pad added to every note.
func flatNotes(n int, pad string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "schemaVersion: 1\nactive: k%d\nitems:\n", n/2)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "  - {key: k%d, parentKey: null, title: item number %d, done: false, createdAt: '2026-01-01T00:00:00.000Z', notes: [{timestamp: '2026-01-01T00:00:00.000Z', text: a note of item %d%s}]}\n", i, i, i, pad)
	}
	return b.String()
}

// TestBudget: a view narrows itself, step by step, until its answer fits,
// and says how far it went.
func TestBudget(t *testing.T) {
	cases := []struct {
		name            string
		roots           int
		pad             int
		args            string
		narrowed        string
		window, maxSize int
	}{
		{"a view under the budget is whole", 10, 0, `"maxBytes": 8000`, "", 0, 8000},
		{"a wide row narrows to a window", 1000, 0, `"maxBytes": 8000`, "window", 16, 8000},
		{"a tight budget takes a narrow window", 1000, 0, `"maxBytes": 1100`, "window", 4, 1100},
		{"long notes are left out", 1000, 1000, `"maxBytes": 1100`, "notes", 1, 1100},
		{"what cannot fit leaves every row out", 3, -2000, `"maxBytes": 1024`, "items", 1, 1024},
		{"a window asked for is kept when it fits", 1000, 0, `"window": 5, "maxBytes": 8000`, "", 5, 8000},
		{"no budget: the whole row", 1000, 0, `"maxBytes": 0`, "", 0, 1 << 30},
		{"a window alone", 1000, 0, `"window": 3`, "", 3, 1 << 30},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// A write answers the new item's view; a pad shows the active
			// item, whose note it lengthens (or, negative, whose title).
			body := flatNotes(c.roots, strings.Repeat("x", max(c.pad, 0)))
			call := `"title": "x", "after": "/` + fmt.Sprint(c.roots/2) + `", `
			tool := "noggin_add"
			if c.pad != 0 {
				tool, call = "noggin_show", ""
			}
			if c.pad < 0 {
				body = strings.Replace(body, "title: item number", "title: "+strings.Repeat("y", -c.pad), 1)
				call = `"path": "/1", `
			}
			file := writeFixture(t, body)
			r := testRunner(t)
			res := r.RunJSON(context.Background(), tool, []byte(`{"noggin": "`+file+`", `+call+c.args+`}`))
			env := res.Envelope
			if !env.OK() {
				t.Fatal(env.Message())
			}
			compact := env.Compact()
			if len(compact) > c.maxSize {
				t.Errorf("answer is %d bytes, over %d", len(compact), c.maxSize)
			}
			js := string(compact)
			if got := between(js, `"narrowed":"`, `"`); got != c.narrowed {
				t.Errorf("narrowed %q, want %q", got, c.narrowed)
			}
			if got := between(js, `"window":`, `,`); got != fmt.Sprint(c.window) && !(c.window == 0 && got == "") {
				t.Errorf("window %q, want %d", got, c.window)
			}
			// What a window left out is counted: kept + omitted = every root.
			back, err := request.DecodeEnvelope(env.Encode())
			if err != nil {
				t.Fatal(err)
			}
			if string(back.Compact()) != js {
				t.Errorf("the envelope does not read back as itself:\n%s\n%s", back.Compact(), js)
			}
			if before, after := between(js, `"omittedBefore":`, `,`), between(js, `"omittedAfter":`, `,`); c.window > 0 && c.narrowed != "items" && before+after == "" {
				t.Errorf("a window left nothing out:\n%.400s", js)
			}
		})
	}
}

// between is the text of s after the first prefix, up to sep ("" if none).
func between(s, prefix, sep string) string {
	_, rest, ok := strings.Cut(s, prefix)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(rest, sep)
	return v
}

// TestBudgetDefault: a runner's DefaultMaxBytes (noggin-mcp's) applies to
// views when a call gives none, and maxBytes 0 lifts it.
func TestBudgetDefault(t *testing.T) {
	file := writeFixture(t, flat(1000))
	r := testRunner(t)
	r.DefaultMaxBytes = request.AgentBudget
	show := func(args string) int {
		res := r.RunJSON(context.Background(), "noggin_show", []byte(`{"noggin": "`+file+`"`+args+`}`))
		if !res.Envelope.OK() {
			t.Fatal(res.Envelope.Message())
		}
		return len(res.Envelope.Compact())
	}
	if n := show(""); n > request.AgentBudget {
		t.Errorf("default answer is %d bytes, over %d", n, request.AgentBudget)
	}
	if n := show(`, "maxBytes": 0`); n < 100_000 {
		t.Errorf("maxBytes 0 answers %d bytes, want the whole view", n)
	}
	// A verb without a view takes no maxBytes and is not given one.
	if res := r.RunJSON(context.Background(), "noggin_where", []byte(`{"noggin": "`+file+`"}`)); !res.Envelope.OK() {
		t.Errorf("where: %s", res.Envelope.Message())
	}
}

// TestCopyBudget: a copy over the budget leaves its key mapping out and
// says so; copied still counts every item, and the answer reads back.
func TestCopyBudget(t *testing.T) {
	cases := []struct {
		name     string
		args     string
		narrowed string
		mapped   int
	}{
		{"no budget: the whole mapping", `"maxBytes": 0`, "", 300},
		{"a budget it fits: the whole mapping", `"maxBytes": 100000`, "", 300},
		{"over the budget: the mapping is left out", `"maxBytes": 1024`, "mapping", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			from := writeFixture(t, flat(300))
			to := writeFixture(t, "")
			r := testRunner(t)
			env := r.RunJSON(context.Background(), "noggin_copy", []byte(`{"from": "`+from+`", "to": "`+to+`", `+c.args+`}`)).Envelope
			if !env.OK() {
				t.Fatal(env.Message())
			}
			back, err := request.DecodeEnvelope(env.Encode())
			if err != nil {
				t.Fatal(err)
			}
			cr, ok := back.Data.(*noggin.CopyResult)
			if !ok {
				t.Fatalf("data is %T", back.Data)
			}
			if cr.Copied != 300 || len(cr.Mapping) != c.mapped || cr.Narrowed != c.narrowed {
				t.Errorf("copied %d, %d mapped, narrowed %q; want 300, %d, %q", cr.Copied, len(cr.Mapping), cr.Narrowed, c.mapped, c.narrowed)
			}
			if c.narrowed != "" && len(env.Compact()) > 1024 {
				t.Errorf("answer is %d bytes, over 1024", len(env.Compact()))
			}
		})
	}
}

func TestViewOptionErrors(t *testing.T) {
	file := writeFixture(t, fixture)
	cases := []struct {
		name, args, code, msg string
	}{
		{"window zero", `"window": 0`, "invalid-option", "show: window must be a whole number of at least 1, not '0'"},
		{"window not whole", `"window": 1.5`, "invalid-argument", ""},
		{"maxBytes under the smallest", `"maxBytes": 10`, "invalid-option", "show: maxBytes must be 0 (no cap) or a whole number of at least 1024, not '10'"},
		{"maxBytes negative", `"maxBytes": -1`, "invalid-option", ""},
		{"format unknown", `"format": "yaml"`, "invalid-option", "show: format must be json or text, not 'yaml'"},
		{"format of another type", `"format": 1`, "invalid-argument", ""},
		{"window on a verb without a view", `"window": 2`, "unknown-argument", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tool := "noggin_show"
			if strings.Contains(c.name, "without a view") {
				tool = "noggin_where"
			}
			res := testRunner(t).RunJSON(context.Background(), tool, []byte(`{"noggin": "`+file+`", `+c.args+`}`))
			code, msg := outcome(res)
			if code != c.code || c.msg != "" && msg != c.msg {
				t.Errorf("got %s %q, want %s %q", code, msg, c.code, c.msg)
			}
		})
	}
}

// TestFormatText: format text answers the CLI's text of the verb, and a
// budget measures that text.
func TestFormatText(t *testing.T) {
	file := writeFixture(t, fixture)
	r := testRunner(t)
	res := r.RunJSON(context.Background(), "noggin_show", []byte(`{"noggin": "`+file+`", "format": "text"}`))
	if want := "/1 📍 root\n  /1/1 alpha\n  /1/2 beta\n"; string(res.Text) != want {
		t.Errorf("text %q, want %q", res.Text, want)
	}
	if res = r.RunJSON(context.Background(), "noggin_show", []byte(`{"noggin": "`+file+`"}`)); res.Text != nil {
		t.Errorf("json answer has text %q", res.Text)
	}
	if res = r.RunJSON(context.Background(), "noggin_goto", []byte(`{"noggin": "`+file+`", "path": "/9", "format": "text"}`)); res.Text != nil || res.Envelope.OK() {
		t.Errorf("an error answers text %q", res.Text)
	}
	big := writeFixture(t, flat(1000))
	res = r.RunJSON(context.Background(), "noggin_show", []byte(`{"noggin": "`+big+`", "format": "text", "maxBytes": 2000}`))
	if len(res.Text) > 2000 || !strings.Contains(string(res.Text), "… ") {
		t.Errorf("text of %d bytes over the budget or without its counts:\n%.300s", len(res.Text), res.Text)
	}
}
