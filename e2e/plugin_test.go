package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/request"
)

// The agent plugin: plugins/noggin (one directory for Claude Code and
// Codex), .claude-plugin/marketplace.json and .agents/plugins/marketplace.json
// at the repository root. These tests check the manifests against the
// formats the two tools document (Claude Code's plugin and marketplace
// reference; Codex's .codex-plugin/plugin.json and marketplace loader),
// that the skill and the MCP server agree, and that the plugin's MCP start
// works — or says how to install noggin-mcp. scripts/plugins.sh runs the
// tools' own validators.

const pluginDir = "../plugins/noggin"

var kebab = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

func readJSON(t *testing.T, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return m
}

func str(m map[string]any, k string) string { s, _ := m[k].(string); return s }

// relPath checks a manifest path the way Codex resolves it: "./…" inside
// the base directory, no "..", and the target exists.
func relPath(t *testing.T, base, field, p string) {
	t.Helper()
	rest, ok := strings.CutPrefix(p, "./")
	if !ok || rest == "" || slices.Contains(strings.Split(rest, "/"), "..") {
		t.Errorf("%s = %q: must be ./… inside %s", field, p, base)
		return
	}
	if _, err := os.Stat(filepath.Join(base, rest)); err != nil {
		t.Errorf("%s = %q: %v", field, p, err)
	}
}

func TestPluginManifests(t *testing.T) {
	claude := readJSON(t, filepath.Join(pluginDir, ".claude-plugin/plugin.json"))
	codex := readJSON(t, filepath.Join(pluginDir, ".codex-plugin/plugin.json"))
	for name, m := range map[string]map[string]any{"claude": claude, "codex": codex} {
		if !kebab.MatchString(str(m, "name")) || str(m, "description") == "" || str(m, "version") == "" {
			t.Errorf("%s plugin.json: name (kebab-case), description and version are required: %v", name, m)
		}
		if a, _ := m["author"].(map[string]any); str(a, "name") == "" {
			t.Errorf("%s plugin.json: author.name is required", name)
		}
	}
	if str(claude, "name") != str(codex, "name") || str(claude, "version") != str(codex, "version") {
		t.Errorf("the two plugin manifests disagree on name or version")
	}
	relPath(t, pluginDir, "codex skills", str(codex, "skills"))
	relPath(t, pluginDir, "codex mcpServers", str(codex, "mcpServers"))
	iface, _ := codex["interface"].(map[string]any)
	if str(iface, "displayName") == "" {
		t.Error("codex interface.displayName is required for the plugin list")
	}
	if ps, _ := iface["defaultPrompt"].([]any); len(ps) > 3 {
		t.Error("codex interface.defaultPrompt: at most 3 prompts")
	} else {
		for _, p := range ps {
			if s, _ := p.(string); s == "" || len([]rune(s)) > 128 {
				t.Errorf("codex defaultPrompt %q: 1–128 characters", p)
			}
		}
	}

	// Claude Code marketplace: name, owner.name, plugins[].{name, source}.
	cm := readJSON(t, "../.claude-plugin/marketplace.json")
	if o, _ := cm["owner"].(map[string]any); !kebab.MatchString(str(cm, "name")) || str(o, "name") == "" {
		t.Errorf("claude marketplace: name and owner.name are required")
	}
	// Codex marketplace: name, plugins[].{name, source: {source: local, path}}.
	xm := readJSON(t, "../.agents/plugins/marketplace.json")
	for label, m := range map[string]map[string]any{"claude": cm, "codex": xm} {
		ps, _ := m["plugins"].([]any)
		if len(ps) != 1 {
			t.Fatalf("%s marketplace lists %d plugins, want 1", label, len(ps))
		}
		p, _ := ps[0].(map[string]any)
		if str(p, "name") != str(claude, "name") {
			t.Errorf("%s marketplace plugin name %q", label, str(p, "name"))
		}
		var src string
		if label == "claude" {
			src = str(p, "source")
			if v := str(p, "version"); v != "" && v != str(claude, "version") {
				t.Errorf("claude marketplace version %s, plugin %s", v, str(claude, "version"))
			}
		} else {
			s, _ := p["source"].(map[string]any)
			if str(s, "source") != "local" {
				t.Errorf("codex marketplace source kind %q, want local", str(s, "source"))
			}
			src = str(s, "path")
		}
		relPath(t, "..", label+" marketplace source", src)
		if filepath.Clean(src) != filepath.Clean("plugins/noggin") {
			t.Errorf("%s marketplace source %q is not the plugin directory", label, src)
		}
	}

	// .mcp.json: one stdio server.
	mj := readJSON(t, filepath.Join(pluginDir, ".mcp.json"))
	servers, _ := mj["mcpServers"].(map[string]any)
	srv, _ := servers["noggin"].(map[string]any)
	if str(srv, "command") == "" {
		t.Errorf(".mcp.json: mcpServers.noggin.command is required: %v", mj)
	}
}

// skill returns the front matter fields and the body of SKILL.md.
func skill(t *testing.T) (map[string]string, string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(pluginDir, "skills/noggin/SKILL.md"))
	if err != nil {
		t.Fatal(err)
	}
	rest, ok := strings.CutPrefix(string(b), "---\n")
	fm, body, ok2 := strings.Cut(rest, "\n---\n")
	if !ok || !ok2 {
		t.Fatal("SKILL.md has no front matter")
	}
	fields := map[string]string{}
	for _, l := range strings.Split(fm, "\n") {
		if k, v, ok := strings.Cut(l, ": "); ok {
			fields[k] = v
		}
	}
	return fields, body
}

func TestSkill(t *testing.T) {
	fm, body := skill(t)
	if fm["name"] != "noggin" || !kebab.MatchString(fm["name"]) || len(fm["name"]) > 64 {
		t.Errorf("name %q: kebab-case, at most 64 characters, the skill's directory name", fm["name"])
	}
	if d := fm["description"]; d == "" || len(d) > 1024 {
		t.Errorf("description: 1–1024 characters, got %d", len(d))
	}
	// Every code the recovery table names exists.
	for _, m := range regexp.MustCompile("(?m)^\\| (`[a-z-]+`(?:, `[a-z-]+`)*) \\|").FindAllStringSubmatch(body, -1) {
		for _, c := range strings.Split(m[1], ", ") {
			if c = strings.Trim(c, "`"); !slices.Contains(noggin.Codes(), c) {
				t.Errorf("SKILL.md names the error code %q, which does not exist", c)
			}
		}
	}
}

// TestPluginMCPStart starts the server as each client's launcher says
// (Claude Code's .mcp.json with its ${CLAUDE_PLUGIN_ROOT}, Codex's
// .codex-mcp.json): with noggin-mcp on PATH the skill and the server agree
// on the tools (TestPluginLauncher covers the start without it).
func TestPluginMCPStart(t *testing.T) {
	bin := needBinary(t, MCP)
	root, err := filepath.Abs(pluginDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{".mcp.json", ".codex-mcp.json"} {
		t.Run(file, func(t *testing.T) {
			srv := readJSON(t, filepath.Join(pluginDir, file))["mcpServers"].(map[string]any)["noggin"].(map[string]any)
			expand := func(s string) string {
				return os.Expand(s, func(v string) string { return map[string]string{"CLAUDE_PLUGIN_ROOT": root}[v] })
			}
			var args []string
			if a, ok := srv["args"].([]any); ok {
				for _, x := range a {
					args = append(args, x.(string))
				}
			}
			if file == ".mcp.json" {
				for i := range args {
					args[i] = expand(args[i])
				}
			}
			c := exec.Command(expand(str(srv, "command")), args...)
			c.Env = append(processEnv(true), "HOME="+t.TempDir(), "PATH="+filepath.Dir(bin)+":/usr/bin:/bin")
			checkTools(t, c)
		})
	}
}

// checkTools connects to the server c starts.
func checkTools(t *testing.T, c *exec.Cmd) {
	t.Helper()
	// Present: the tools the server lists are the tools the skill maps
	// intents to, and the instructions name no tool that does not exist.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "plugin-test", Version: "0"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: c}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, body := skill(t)
	var listed []string
	for _, tool := range tools.Tools {
		listed = append(listed, tool.Name)
		if !strings.Contains(body, "`"+tool.Name+"`") {
			t.Errorf("SKILL.md does not say when to use %s", tool.Name)
		}
	}
	toolName := regexp.MustCompile("noggin_[a-z_]+")
	for _, name := range toolName.FindAllString(body, -1) {
		if !slices.Contains(listed, name) {
			t.Errorf("SKILL.md names %s, which the server does not list", name)
		}
	}
	instr := cs.InitializeResult().Instructions
	for _, name := range toolName.FindAllString(instr, -1) {
		if !slices.Contains(listed, name) {
			t.Errorf("the server's instructions name %s, which it does not list", name)
		}
	}
	var want []string
	for _, v := range request.Verbs {
		want = append(want, request.ToolName(v))
	}
	slices.Sort(want)
	slices.Sort(listed)
	if !slices.Equal(listed, want) {
		t.Errorf("server lists %v, core's verbs are %v", listed, want)
	}
}
