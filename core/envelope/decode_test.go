package envelope

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDecodeRoundTrip: every golden envelope of core and of the e2e corpus
// decodes into typed data that encodes to the same bytes again.
func TestDecodeRoundTrip(t *testing.T) {
	var envs [][]byte
	files, _ := filepath.Glob("../testdata/golden/*/*.json")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		envs = append(envs, b)
	}
	scenarios, _ := filepath.Glob("../../e2e/testdata/scenarios/*.txtar")
	for _, f := range scenarios {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, part := range strings.Split(string(b), "\n-- ") {
			if _, body, ok := strings.Cut(part, " --\n"); ok && strings.HasPrefix(body, "{\n  \"status\"") {
				envs = append(envs, []byte(body))
			}
		}
	}
	if len(envs) < 500 {
		t.Fatalf("only %d envelopes found", len(envs))
	}
	for _, b := range envs {
		env, err := Decode(b)
		if err != nil {
			t.Fatalf("%v:\n%s", err, b)
		}
		b = append(bytes.TrimRight(b, "\n"), '\n')
		if got := env.Encode(); !bytes.Equal(got, b) {
			t.Fatalf("round trip differs:\nwant %s\ngot  %s", b, got)
		}
	}
	t.Logf("%d envelopes round-tripped", len(envs))
}

func TestDecodeRefuses(t *testing.T) {
	for _, b := range []string{``, `[]`, `{"status": "ok"}`, `{"status": "ok", "envelopeVersion": 2, "verb": "show", "data": null}`,
		`{"status": "error", "envelopeVersion": 3, "verb": "show", "error": {}}`, `{"status": "ok", "envelopeVersion": 3, "verb": "show", "data": null} x`,
		`{"status": "maybe", "envelopeVersion": 3, "verb": "show"}`} {
		if _, err := Decode([]byte(b)); err == nil {
			t.Errorf("Decode(%q) accepted", b)
		}
	}
}
