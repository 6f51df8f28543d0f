package request_test

import (
	"context"
	"regexp"
	"testing"

	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/request"
)

// cliFlags are the CLI's flags (surfaces/cli): a message may name only these.
var cliFlags = map[string]bool{
	"--title": true, "--before": true, "--after": true, "--into": true, "--goto": true, "--done": true,
	"--open": true, "--force": true, "--close-all": true, "--recursive": true, "--no-children": true,
	"--with-descendants": true, "--with-all": true, "--with-siblings": true, "--with-notes": true,
}

// TestMessagesNameRealOptions: every message that names an option names
// it in a form that exists — a CLI flag, or an argument of the structured
// calls — so that an agent following it does not get the same error again.
func TestMessagesNameRealOptions(t *testing.T) {
	args := map[string]bool{}
	for _, v := range request.Verbs {
		for _, p := range request.Params(v) {
			args[p.Name] = true
		}
	}
	var msgs []string
	for _, e := range []*noggin.Error{
		noggin.NewError(noggin.CodePlacementMissing, noggin.F("verb", "move")),
		noggin.NewError(noggin.CodeNothingToEdit, noggin.F("verb", "edit")),
		noggin.NewErrorDetail(noggin.CodeOptionMisused, "force", noggin.F("verb", "edit")),
		noggin.NewErrorDetail(noggin.CodeOptionMisused, "closeAll", noggin.F("verb", "edit")),
		noggin.NewError(noggin.CodeGotoUnsupported, noggin.F("verb", "done")),
		noggin.NewError(noggin.CodeGotoBaseMissing, noggin.F("verb", "add")),
		noggin.NewError(noggin.CodeGotoPathRequired, noggin.F("verb", "add")),
		noggin.NewError(noggin.CodeHasDescendants, noggin.F("verb", "delete"), noggin.F("path", "/1"), noggin.F("descendantCount", 1)),
		noggin.NewError(noggin.CodeOpenDescendants, noggin.F("verb", "done"), noggin.F("path", "/1"), noggin.F("title", "t"), noggin.F("openCount", 1)),
	} {
		msgs = append(msgs, e.MessageFor(""))
	}
	file := writeFixture(t, fixture)
	for _, req := range []request.Request{
		{Verb: "push"}, {Verb: "add", Title: s("x"), Before: s("/1"), After: s("/1")},
		{Verb: "show", NoChildren: on, WithAll: on},
	} {
		req.Location = s(file)
		msgs = append(msgs, testRunner(t).Run(context.Background(), &req).Envelope.Message())
	}
	flag := regexp.MustCompile(`--[a-z-]+`)
	camel := regexp.MustCompile(`\b[a-z]+[A-Z][A-Za-z]*\b`)
	for _, m := range msgs {
		for _, f := range flag.FindAllString(m, -1) {
			if !cliFlags[f] {
				t.Errorf("%q names %s, which the CLI does not have", m, f)
			}
		}
		for _, a := range camel.FindAllString(m, -1) {
			if !args[a] {
				t.Errorf("%q names %s, which no tool takes", m, a)
			}
		}
	}
}
