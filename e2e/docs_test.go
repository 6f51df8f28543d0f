package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/request"
	nogginv1 "github.com/noggin-go/noggin/surfaces/rpc/gen/noggin/v1"
)

// docExample is one ```console block of docs/: commands ("$ noggin …")
// each followed by the output it must print (stdout, then stderr; a
// failing command ends with "[exit N]").
type docExample struct {
	file      string
	line      int // of the opening fence
	start     int // byte offset of the block's body in the file
	end       int
	commands  []string
	outputs   []string
	rendering string
}

var consoleBlock = regexp.MustCompile("(?ms)^```console\n(.*?)^```$")

func loadDocExamples(t *testing.T) (map[string][]byte, []*docExample) {
	t.Helper()
	files, err := filepath.Glob("../docs/*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no docs: %v", err)
	}
	texts := map[string][]byte{}
	var out []*docExample
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts[f] = b
		for _, m := range consoleBlock.FindAllSubmatchIndex(b, -1) {
			ex := &docExample{file: f, line: bytes.Count(b[:m[0]], []byte("\n")) + 1, start: m[2], end: m[3]}
			for _, l := range strings.SplitAfter(string(b[m[2]:m[3]]), "\n") {
				if cmd, ok := strings.CutPrefix(l, "$ "); ok {
					ex.commands = append(ex.commands, strings.TrimSuffix(cmd, "\n"))
					ex.outputs = append(ex.outputs, "")
				} else if len(ex.commands) > 0 {
					ex.outputs[len(ex.outputs)-1] += l
				}
			}
			out = append(out, ex)
		}
	}
	return texts, out
}

// TestDocsExamples runs every console example of docs/ with the noggin
// binary in a fresh directory (one noggin per block, the determinism seam
// set) and checks that each command prints exactly what the docs show.
// With -update it rewrites the outputs in the docs instead.
func TestDocsExamples(t *testing.T) {
	bin := needBinary(t, CLI)
	texts, examples := loadDocExamples(t)
	if len(examples) < 15 {
		t.Fatalf("only %d examples in docs/", len(examples))
	}
	binDir := filepath.Dir(bin)
	for _, ex := range examples {
		dir := t.TempDir()
		env := append(processEnv(true), "HOME="+dir, "NOGGIN="+filepath.Join(dir, "noggin.yaml"),
			"PATH="+binDir+string(os.PathListSeparator)+os.Getenv("PATH"))
		var got strings.Builder
		for i, cmd := range ex.commands {
			c := exec.Command("bash", "--norc", "--noprofile", "-c", cmd)
			c.Dir, c.Env = dir, env
			var stdout, stderr bytes.Buffer
			c.Stdout, c.Stderr = &stdout, &stderr
			err := c.Run()
			out := stdout.String() + stderr.String()
			if err != nil {
				ee, ok := err.(*exec.ExitError)
				if !ok {
					t.Fatalf("%s:%d: %s: %v", ex.file, ex.line, cmd, err)
				}
				out += "[exit " + strconv.Itoa(ee.ExitCode()) + "]\n"
			}
			out = strings.ReplaceAll(out, dir, "$DIR")
			got.WriteString("$ " + cmd + "\n" + out)
			if !*update && out != ex.outputs[i] {
				t.Errorf("%s:%d: `%s` prints\n%s\nbut the docs show\n%s", ex.file, ex.line, cmd, out, ex.outputs[i])
			}
		}
		ex.rendering = got.String()
	}
	if !*update {
		return
	}
	for f, b := range texts {
		var nb []byte
		last := 0
		for _, ex := range examples {
			if ex.file == f {
				nb = append(append(nb, b[last:ex.start]...), ex.rendering...)
				last = ex.end
			}
		}
		nb = append(nb, b[last:]...)
		if !bytes.Equal(nb, b) {
			if err := os.WriteFile(f, nb, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestDocsListEverything: the reference names every error code with its
// exit code, every verb and every MCP tool, so that nothing core adds can
// stay undocumented.
func TestDocsListEverything(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join("../docs", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	env := read("envelope.md")
	for _, code := range noggin.Codes() {
		row := "| `" + code + "` | " + strconv.Itoa(noggin.ExitCodeOf(code)) + " |"
		if !strings.Contains(env, row) {
			t.Errorf("docs/envelope.md lacks the row %q", row)
		}
	}
	cli, mcp := read("cli.md"), read("mcp.md")
	for _, v := range request.Verbs {
		if !strings.Contains(cli, "### "+v+"\n") {
			t.Errorf("docs/cli.md has no section for %s", v)
		}
		if tool := request.ToolName(v); !strings.Contains(mcp, "`"+tool+"`") {
			t.Errorf("docs/mcp.md does not name %s", tool)
		}
	}
	if !slices.Contains(noggin.Codes(), noggin.CodeCancelled) {
		t.Error("Codes() is incomplete")
	}
	// envelope.md says what each verb's data is: in the data list, or a
	// "- **verb**:" entry of its own.
	_, data, _ := strings.Cut(env, "- `data` is")
	data, _, _ = strings.Cut(data, "\n- ")
	for _, v := range request.Verbs {
		if !regexp.MustCompile(`\b`+v+`\b`).MatchString(data) && !strings.Contains(env, "- **"+v+"**") {
			t.Errorf("docs/envelope.md does not say what %s's data is", v)
		}
	}
	// rpc.md names every method of the service.
	rpc := read("rpc.md")
	methods := nogginv1.File_noggin_v1_noggin_proto.Services().Get(0).Methods()
	for i := range methods.Len() {
		if name := string(methods.Get(i).Name()); !strings.Contains(rpc, "`"+name+"`") {
			t.Errorf("docs/rpc.md does not name the method %s", name)
		}
	}
}
