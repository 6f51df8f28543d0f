package app

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/noggin-go/noggin/core/codec"
	"github.com/noggin-go/noggin/core/sampledoc"
	"github.com/noggin-go/noggin/surfaces/rpc/pgstore/pgtest"
)

// TestImportExport runs the import and export commands against a
// throwaway cluster: a YAML file goes in and comes back out byte for byte,
// also as JSON; names that are taken, missing or refused fail clearly.
func TestImportExport(t *testing.T) {
	c := pgtest.Start(t, pgtest.Options{})
	dir := t.TempDir()
	src := filepath.Join(dir, "team.yaml")
	want := codec.EncodeYAML(sampledoc.Doc(300, 3))
	if err := os.WriteFile(src, want, 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"NOGGIN_RPC_STORE": c.DSN}
	run := func(args ...string) (int, string) {
		var out, errb bytes.Buffer
		code := Main(context.Background(), args, func(k string) string { return env[k] }, &out, &errb)
		return code, out.String() + errb.String()
	}
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"import", src, "team.yaml"}, 0, "imported"},
		{[]string{"import", src, "./team.yaml"}, 1, "exists"},
		{[]string{"import", "--replace", src, "team.yaml"}, 0, "(300 items)"},
		{[]string{"import", src, "/abs.yaml"}, 2, "relative"},
		{[]string{"import", filepath.Join(dir, "missing.yaml"), "m.yaml"}, 0, "(0 items)"},
		{[]string{"import", src}, 2, "usage"},
		{[]string{"export", "team.yaml", filepath.Join(dir, "out.yaml")}, 0, "exported"},
		{[]string{"export", "team.yaml", filepath.Join(dir, "out.json")}, 0, "exported"},
		{[]string{"export", "nothing.yaml", filepath.Join(dir, "x.yaml")}, 1, "no noggin"},
		{[]string{"export", "--store", "", "team.yaml", "x"}, 0, "exported"},
		{[]string{"serve", "--store", c.DSN, "--root", dir}, 2, "exclude"},
		{[]string{"export", "\x1b[31mred.yaml", filepath.Join(dir, "x.yaml")}, 1, `\x1b[31mred.yaml`},
	} {
		if tc.args[0] == "export" && tc.args[1] == "--store" {
			tc.args = []string{"export", "--store", c.DSN, "team.yaml", filepath.Join(dir, "x.yaml")}
		}
		if code, out := run(tc.args...); code != tc.code || !strings.Contains(out, tc.msg) || strings.Contains(out, "\x1b") {
			t.Errorf("%v: exit %d, output %q", tc.args, code, out)
		}
	}
	got, _ := os.ReadFile(filepath.Join(dir, "out.yaml"))
	if !bytes.Equal(got, want) {
		t.Fatal("export of the imported file differs from it")
	}
	j, _ := os.ReadFile(filepath.Join(dir, "out.json"))
	if doc, err := codec.DecodeJSON(j); err != nil || !bytes.Equal(codec.EncodeYAML(doc), want) {
		t.Fatalf("JSON export: %v", err)
	}
	delete(env, "NOGGIN_RPC_STORE")
	if code, out := run("export", "team.yaml", "x.yaml"); code != 2 || !strings.Contains(out, "NOGGIN_RPC_STORE") {
		t.Errorf("export without a database: %d %q", code, out)
	}
}
