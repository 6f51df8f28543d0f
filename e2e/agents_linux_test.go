package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// The agent CLIs themselves, with the plugin installed from this
// repository, against stand-in model APIs: a missing noggin-mcp shows the
// install hint where each client shows a server's failure, and a scripted
// model turn pushes an item on a remote noggin with a token. The CLIs come
// from npm (pinned in scripts/plugins.sh, which sets NOGGIN_AGENT_BIN and
// runs this test); without them the test skips.

// agentBin is the directory holding the claude and codex executables.
func agentBin(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("NOGGIN_AGENT_BIN")
	if dir == "" {
		t.Skip("SKIPPED: NOGGIN_AGENT_BIN is not set (make validate-plugins installs Claude Code and Codex and sets it)")
	}
	return dir
}

// modelAPI is a stand-in model API that records the requests it receives.
type modelAPI struct {
	*httptest.Server
	mu     sync.Mutex
	bodies []string
}

func newModelAPI(t *testing.T, answer func(w http.ResponseWriter, body map[string]any)) *modelAPI {
	t.Helper()
	s := &modelAPI{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.bodies = append(s.bodies, r.URL.Path+" "+string(b))
		s.mu.Unlock()
		var body map[string]any
		if r.Method != http.MethodPost || json.Unmarshal(b, &body) != nil {
			http.NotFound(w, r)
			return
		}
		answer(w, body)
	}))
	t.Cleanup(s.Close)
	return s
}

// received is every request body so far, one per line.
func (s *modelAPI) received() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Join(s.bodies, "\n")
}

func sse(w http.ResponseWriter, events ...any) {
	w.Header().Set("Content-Type", "text/event-stream")
	for _, e := range events {
		b, _ := json.Marshal(e)
		var typ struct{ Type string }
		_ = json.Unmarshal(b, &typ)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", typ.Type, b)
	}
}

type obj = map[string]any

// openAI answers the Responses API: a call of noggin_push with args until
// a tool output comes back, then a closing message.
func openAI(args obj) func(http.ResponseWriter, map[string]any) {
	return func(w http.ResponseWriter, body map[string]any) {
		input, _ := json.Marshal(body["input"])
		tools, _ := json.Marshal(body["tools"])
		item := obj{"type": "message", "role": "assistant", "id": "msg_1", "status": "completed",
			"content": []obj{{"type": "output_text", "text": "Pushed.", "annotations": []any{}}}}
		if !bytes.Contains(input, []byte(`"function_call_output"`)) && bytes.Contains(tools, []byte(`"noggin_push"`)) {
			a, _ := json.Marshal(args)
			item = obj{"type": "function_call", "id": "fc_1", "call_id": "call_1", "status": "completed",
				"namespace": "mcp__noggin", "name": "noggin_push", "arguments": string(a)}
		}
		sse(w,
			obj{"type": "response.created", "response": obj{"id": "resp_1"}},
			obj{"type": "response.output_item.done", "output_index": 0, "item": item},
			obj{"type": "response.completed", "response": obj{"id": "resp_1",
				"usage": obj{"input_tokens": 1, "output_tokens": 1, "total_tokens": 2}}})
	}
}

// anthropic answers the Messages API the same way.
func anthropic(args obj) func(http.ResponseWriter, map[string]any) {
	return func(w http.ResponseWriter, body map[string]any) {
		msgs, _ := json.Marshal(body["messages"])
		tool := ""
		if ts, ok := body["tools"].([]any); ok {
			for _, x := range ts {
				if name, _ := x.(obj)["name"].(string); strings.HasSuffix(name, "__noggin_push") {
					tool = name
				}
			}
		}
		usage := obj{"input_tokens": 1, "output_tokens": 1}
		block, delta, stop := obj{"type": "text", "text": ""}, obj{"type": "text_delta", "text": "Pushed."}, "end_turn"
		if tool != "" && !bytes.Contains(msgs, []byte(`"tool_result"`)) {
			a, _ := json.Marshal(args)
			block, delta, stop = obj{"type": "tool_use", "id": "toolu_1", "name": tool, "input": obj{}},
				obj{"type": "input_json_delta", "partial_json": string(a)}, "tool_use"
		}
		if body["stream"] != true {
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(obj{"id": "msg_1", "type": "message", "role": "assistant", "model": body["model"],
				"content": []obj{{"type": "text", "text": "noggin"}}, "stop_reason": "end_turn", "usage": usage})
			return
		}
		sse(w,
			obj{"type": "message_start", "message": obj{"id": "msg_1", "type": "message", "role": "assistant",
				"model": body["model"], "content": []any{}, "stop_reason": nil, "usage": usage}},
			obj{"type": "content_block_start", "index": 0, "content_block": block},
			obj{"type": "content_block_delta", "index": 0, "delta": delta},
			obj{"type": "content_block_stop", "index": 0},
			obj{"type": "message_delta", "delta": obj{"stop_reason": stop}, "usage": obj{"output_tokens": 1}},
			obj{"type": "message_stop"})
	}
}

// agentHome is a fresh HOME (and CODEX_HOME) with the plugin installed in
// both CLIs from this repository, Codex talking to model.
func agentHome(t *testing.T, bin, model string) []string {
	t.Helper()
	home := t.TempDir()
	repo, _ := filepath.Abs("..")
	env := append(processEnv(true), "HOME="+home, "CODEX_HOME="+filepath.Join(home, "codex"),
		"DISABLE_TELEMETRY=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1")
	if err := os.MkdirAll(filepath.Join(home, "codex"), 0o755); err != nil {
		t.Fatal(err)
	}
	config := fmt.Sprintf("model = \"stand-in\"\nmodel_provider = \"standin\"\n\n[model_providers.standin]\n"+
		"name = \"standin\"\nbase_url = %q\nwire_api = \"responses\"\nrequest_max_retries = 0\nstream_max_retries = 0\n", model+"/v1")
	if err := os.WriteFile(filepath.Join(home, "codex", "config.toml"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"claude", "plugin", "marketplace", "add", repo},
		{"claude", "plugin", "install", "noggin@noggin"},
		{"codex", "plugin", "marketplace", "add", repo},
		{"codex", "plugin", "add", "noggin@noggin"},
	} {
		agent(t, bin, env, home, nil, args...)
	}
	return env
}

// homeDir is the last HOME of env (the one a process sees).
func homeDir(env []string) string {
	h := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "HOME="); ok {
			h = v
		}
	}
	return h
}

// agent runs one of the CLIs and returns its combined output.
func agent(t *testing.T, bin string, env []string, dir string, stdin io.Reader, args ...string) string {
	t.Helper()
	c := exec.Command(filepath.Join(bin, args[0]), args[1:]...)
	c.Env, c.Dir, c.Stdin = env, dir, stdin
	dieWithParent(c)
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-done:
		case <-time.After(2 * time.Minute):
			_ = c.Process.Kill()
		}
	}()
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func pathWith(dirs ...string) string {
	return "PATH=" + strings.Join(append(dirs, "/usr/local/bin", "/usr/bin", "/bin"), ":")
}

func TestAgentSessions(t *testing.T) {
	bin := agentBin(t)
	mcpDir := filepath.Dir(needBinary(t, MCP))
	node := filepath.Dir(must(exec.LookPath("node")))

	t.Run("missing noggin-mcp: Claude Code shows the hint", func(t *testing.T) {
		env := append(agentHome(t, bin, "http://127.0.0.1:1"), pathWith(node))
		out := agent(t, bin, env, t.TempDir(), nil, "claude", "mcp", "get", "plugin:noggin:noggin")
		if !strings.Contains(out, "Failed to connect") || !strings.Contains(out, pluginHint) {
			t.Errorf("claude mcp get does not show the hint:\n%s", out)
		}
	})

	t.Run("missing noggin-mcp: Codex shows the hint", func(t *testing.T) {
		model := newModelAPI(t, openAI(obj{}))
		env := append(agentHome(t, bin, model.URL), pathWith(node))
		screen := tui(t, env, filepath.Join(bin, "codex"), []tuiStep{
			{wait: "2 warnings"},
			{wait: "Warnings · 1 of 2", keys: "\x1bOQ"}, // F2 opens the warnings
			{wait: "noggin-mcp is not on PATH: install it from https://github.com/noggin-go/noggin/releases", keys: "\x1b[C"},
		})
		if !strings.Contains(screen, "MCP client for `noggin` failed to start") {
			t.Errorf("the warning does not name the server:\n%s", screen)
		}
	})

	// A model turn that pushes on a remote noggin served with a token.
	for _, cli := range []string{"codex", "claude"} {
		t.Run(cli+" pushes on a remote noggin with a token", func(t *testing.T) {
			root := t.TempDir()
			srv := startTokenServer(t, root)
			title := "pushed by " + cli
			args := obj{"noggin": "http://" + srv.Addr + "/agent.yaml", "title": title}
			var model *modelAPI
			var run []string
			if cli == "codex" {
				model = newModelAPI(t, openAI(args))
				run = []string{"codex", "exec", "--skip-git-repo-check", "push a side-quest"}
			} else {
				model = newModelAPI(t, anthropic(args))
				run = []string{"claude", "-p", "push a side-quest", "--allowedTools", "mcp__plugin_noggin_noggin"}
			}
			home := agentHome(t, bin, model.URL)
			if cli == "claude" {
				// Claude Code skips a server that failed to start for up
				// to 15 minutes (its needs-auth cache); the README's
				// remedy after installing noggin-mcp is removing that file.
				agent(t, bin, append(home, pathWith(node)), t.TempDir(), nil, "claude", "mcp", "get", "plugin:noggin:noggin")
				if err := os.Remove(filepath.Join(homeDir(home), ".claude", "mcp-needs-auth-cache.json")); err != nil && !os.IsNotExist(err) {
					t.Fatal(err)
				}
			}
			env := append(home, pathWith(mcpDir, node),
				"ANTHROPIC_BASE_URL="+model.URL, "ANTHROPIC_API_KEY=stand-in", "ENABLE_TOOL_SEARCH=false")
			env = append(env, tokenEnv(srv.Addr)...)
			out := agent(t, bin, env, t.TempDir(), strings.NewReader(""), run...)
			file, err := os.ReadFile(filepath.Join(root, "agent.yaml"))
			if err != nil || !strings.Contains(string(file), title) {
				t.Fatalf("the remote noggin does not hold %q (%v):\n%s\n%s\nrequests:\n%.4000s", title, err, file, out, model.received())
			}
			// The tool's answer went back to the model: the ok envelope.
			if !regexp.MustCompile(`\\"status\\": *\\"ok\\"`).MatchString(model.received()) {
				t.Errorf("the model never saw the tool's ok envelope:\n%.4000s", model.received())
			}
		})
	}
}

type tuiStep struct {
	keys string // sent once the previous step's text has appeared
	wait string // text to wait for on the screen
}

// tui runs a full-screen program on a pseudo-terminal, answering the
// terminal queries it sends, and plays steps; it returns the screen text.
func tui(t *testing.T, env []string, prog string, steps []tuiStep) string {
	t.Helper()
	ptm, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("SKIPPED: no pseudo-terminal: %v", err)
	}
	defer ptm.Close()
	if err := unix.IoctlSetPointerInt(int(ptm.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(ptm.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	pts, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Wide enough for the hint to stay on one line.
	if err := unix.IoctlSetWinsize(int(ptm.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 50, Col: 400}); err != nil {
		t.Fatal(err)
	}
	c := exec.Command(prog)
	c.Env, c.Dir = append(env, "TERM=xterm-256color"), t.TempDir()
	c.Stdin, c.Stdout, c.Stderr = pts, pts, pts
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Pdeathsig: syscall.SIGKILL}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	pts.Close()
	defer func() { _ = c.Process.Kill(); _ = c.Wait() }()

	var mu sync.Mutex
	var raw []byte
	go func() {
		buf := make([]byte, 64<<10)
		for {
			k, err := ptm.Read(buf)
			if err != nil {
				return
			}
			d := buf[:k]
			mu.Lock()
			raw = append(raw, d...)
			mu.Unlock()
			for q, a := range map[string]string{"\x1b[6n": "\x1b[1;1R", "\x1b[c": "\x1b[?62;22c", "\x1b[?u": "\x1b[?0u",
				"\x1b]10;?": "\x1b]10;rgb:ffff/ffff/ffff\x1b\\", "\x1b]11;?": "\x1b]11;rgb:0000/0000/0000\x1b\\"} {
				if bytes.Contains(d, []byte(q)) {
					_, _ = ptm.Write([]byte(a))
				}
			}
		}
	}()
	ansi := regexp.MustCompile(`\x1b\[[0-9;?<=>]*[a-zA-Z~$]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()][A-Z0-9]|\x1b[=>78]`)
	screen := func() string {
		mu.Lock()
		defer mu.Unlock()
		return strings.Join(strings.Fields(ansi.ReplaceAllString(string(raw), " ")), " ")
	}
	for _, s := range steps {
		if s.keys != "" {
			_, _ = ptm.Write([]byte(s.keys))
		}
		deadline := time.Now().Add(60 * time.Second)
		for !strings.Contains(screen(), s.wait) {
			if time.Now().After(deadline) {
				t.Fatalf("%s: %q did not appear; the screen:\n%s", filepath.Base(prog), s.wait, screen())
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	return screen()
}
