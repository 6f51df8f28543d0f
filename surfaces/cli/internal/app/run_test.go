package app

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestMainInProcess drives Main in-process (the end-to-end scripts in
// testdata/script cover the built binary byte for byte).
func TestMainInProcess(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{
		"NOGGIN":       filepath.Join(dir, "n.yaml"),
		"NOGGIN_CLOCK": "2026-01-02T03:04:05.678Z",
		"NOGGIN_KEYS":  "sequential",
	}
	getenv := func(k string) string { return env[k] }
	tests := []struct {
		argv         string
		code         int
		stdout       string // exact unless prefixed by "~" (contains)
		stderrPrefix string
	}{
		{"push|root", 0, "/1 📍 root\n", ""},
		{"add|kid|--goto", 0, "/1 root\n  /1/1 📍 kid\n", ""},
		{"note|hello", 0, "/1 root\n  /1/1 📍 kid ✏️\n", ""},
		{"show|..|--with-notes", 0, "/1 root\n  /1/1 📍 kid ✏️\n  notes: (none)\n", ""},
		{"pop", 0, "/1 📍 root\n  /1/1 ✅ kid ✏️\n", ""},
		{"delete|/1", 1, "", "noggin: delete: /1 has 1 descendant(s)"},
		{"delete|/1|--recursive", 0, "deleted /1 and 1 descendant(s)\n(tree is now empty)\n", ""},
		{"show|--json", 0, "~\"data\": null", ""},
		{"where", 0, env["NOGGIN"] + "\n", ""},
		{"providers", 0, "scheme\n------\nfile  \nhttp  \nhttps \n", ""},
		{"", 0, "~working-memory tree CLI", ""},
		{"help|--json", 0, "~Verbs:", ""},
		{"help|push", 0, "~noggin push", ""},
		{"--version", 0, "~noggin version ", ""},
		{"completion|fish", 0, "~complete -c noggin", ""},
		{"push|x|--bogus|--json", 2, "", "{\n  \"status\": \"error\""},
		{"push|x|--bogus", 2, "", "noggin: unknown flag: --bogus\n"},
		{"frob", 2, "", "noggin: unknown verb 'frob' (the verbs: push, "},
		{"push|" + strings.Repeat("a", 4<<20+1), 2, "", "noggin: push: arguments is 4194305 bytes, over the limit of 4194304 bytes; nothing was written\n"},
		{"note|" + strings.Repeat("a", 2<<20) + "|" + strings.Repeat("a", 2<<20), 2, "", "noggin: note: arguments is 4194305 bytes"},
	}
	for _, tt := range tests {
		var argv []string
		if tt.argv != "" {
			argv = strings.Split(tt.argv, "|")
		}
		var stdout, stderr bytes.Buffer
		code := Main(context.Background(), argv, strings.NewReader(""), &stdout, &stderr, getenv)
		if code != tt.code {
			t.Errorf("%q: exit %d, want %d (stderr %q)", argv, code, tt.code, stderr.String())
		}
		if want, ok := strings.CutPrefix(tt.stdout, "~"); ok {
			if !strings.Contains(stdout.String(), want) {
				t.Errorf("%q: stdout %q does not contain %q", argv, stdout.String(), want)
			}
		} else if stdout.String() != tt.stdout {
			t.Errorf("%q: stdout %q, want %q", argv, stdout.String(), tt.stdout)
		}
		if !strings.HasPrefix(stderr.String(), tt.stderrPrefix) || (tt.stderrPrefix == "" && stderr.Len() > 0) {
			t.Errorf("%q: stderr %q, want prefix %q", argv, stderr.String(), tt.stderrPrefix)
		}
	}
}
