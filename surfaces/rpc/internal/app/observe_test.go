package app

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/surfaces/rpc/client"
)

// lockedBuffer is a bytes.Buffer safe for a server's log and a test.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestObservability: noggin-rpc serve logs a JSON line per call (method,
// code, duration, replica; the noggin's name when it is a plain name) and
// never a token, a title, a note or a path outside the root, whatever the
// calls carry; /healthz, /readyz and /metrics answer without the token;
// /readyz says when the root cannot be read.
func TestObservability(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	const token = "tok-SECRET-4242"
	tokenFile := filepath.Join(dir, "token")
	if err := os.WriteFile(tokenFile, []byte(token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	logs := &lockedBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() {
		done <- Main(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--root", root, "--token-file", tokenFile,
			"--log-format", "json"}, func(string) string { return "" }, io.Discard, logs)
	}()
	var addr string
	for deadline := time.Now().Add(10 * time.Second); addr == "" && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if _, rest, ok := strings.Cut(logs.String(), " on http://"); ok {
			addr, _, _ = strings.Cut(rest, "\n")
		}
	}
	if addr == "" {
		t.Fatalf("no address: %s", logs.String())
	}
	base := "http://" + addr
	get := func(path string) (int, string) {
		res, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	if code, body := get("/healthz"); code != 200 || body != "ok\n" {
		t.Errorf("/healthz: %d %q", code, body)
	}
	if code, body := get("/readyz"); code != 200 {
		t.Errorf("/readyz: %d %q", code, body)
	}

	// Calls that carry hostile text, wrong tokens and paths outside the root.
	hostile := []string{"<img src=x onerror=alert(1)>", "line\nbreak\x1b[31m", "title with spaces", "\u202egnp.exe", strings.Repeat("z", 300)}
	good := client.New(http.DefaultClient, base, client.WithToken(token))
	for _, h := range hostile {
		if _, err := good.Push(context.Background(), "team.yaml", noggin.PushOpts{Title: h}); err != nil {
			t.Fatal(err)
		}
		if _, err := good.Note(context.Background(), "team.yaml", noggin.NoteOpts{Text: "note " + h}); err != nil {
			t.Fatal(err)
		}
	}
	for _, loc := range []string{"/etc/passwd", "../outside.yaml", root + "/team.yaml"} {
		_, _ = good.Show(context.Background(), loc, noggin.ShowOpts{})
	}
	bad := client.New(http.DefaultClient, base, client.WithToken("wrong-"+token))
	_, _ = bad.Show(context.Background(), "team.yaml", noggin.ShowOpts{})

	// A Run whose verb fails answers an error envelope over a successful
	// call: the log and the metrics say what the verb did.
	runReq, _ := http.NewRequest(http.MethodPost, base+"/noggin.v1.NogginService/Run",
		strings.NewReader(`{"request":"{\"verb\":\"goto\",\"args\":{\"noggin\":\"team.yaml\",\"path\":\"/9\"}}"}`))
	runReq.Header.Set("Content-Type", "application/json")
	runReq.Header.Set("Authorization", "Bearer "+token)
	if res, err := http.DefaultClient.Do(runReq); err != nil || res.StatusCode != 200 {
		t.Fatalf("Run: %v %v", res, err)
	} else {
		_ = res.Body.Close()
	}
	if l := logs.String(); !strings.Contains(l, `"method":"Run","verb":"goto","code":"path-not-found"`) {
		t.Errorf("the failing Run is not logged with its verb and code:\n%s", l)
	}

	code, body := get("/metrics")
	if code != 200 {
		t.Fatalf("/metrics: %d", code)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	families, err := p.TextToMetricFamilies(strings.NewReader(body))
	if err != nil {
		t.Fatalf("/metrics does not parse: %v", err)
	}
	for _, name := range []string{"noggin_rpc_requests_total", "noggin_rpc_request_duration_seconds", "noggin_rpc_watch_streams", "noggin_store_seconds", "go_goroutines"} {
		if families[name] == nil {
			t.Errorf("/metrics lacks %s", name)
		}
	}
	pushes, failedRuns := 0.0, 0.0
	for _, m := range families["noggin_rpc_requests_total"].GetMetric() {
		labels := map[string]string{}
		for _, l := range m.GetLabel() {
			labels[l.GetName()] = l.GetValue()
		}
		if labels["method"] == "Push" && labels["verb"] == "push" && labels["code"] == "ok" {
			pushes = m.GetCounter().GetValue()
		}
		if labels["method"] == "Run" && labels["verb"] == "goto" && labels["code"] == "path-not-found" {
			failedRuns = m.GetCounter().GetValue()
		}
	}
	if failedRuns != 1 {
		t.Errorf("the failing Run counted %v times as path-not-found, want 1", failedRuns)
	}
	if pushes != float64(len(hostile)) {
		t.Errorf("Push ok counted %v, want %d", pushes, len(hostile))
	}

	// The root goes away: not ready.
	if err := os.Rename(root, root+".gone"); err != nil {
		t.Fatal(err)
	}
	if code, body := get("/readyz"); code != 503 || !strings.Contains(body, "root") {
		t.Errorf("/readyz without its root: %d %q", code, body)
	}
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("serve exited %d", code)
	}

	text := logs.String()
	// The start line for people names the root the operator chose; the
	// log lines never name a path.
	_, text, _ = strings.Cut(text, "\n")
	for _, secret := range append([]string{token, root, "/etc/passwd", "outside", "onerror", "gnp", "spaces", "zzzz"}, hostile...) {
		if strings.Contains(text, secret) {
			t.Errorf("the log holds %q", secret)
		}
	}
	calls := 0
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		var line map[string]any
		if json.Unmarshal(sc.Bytes(), &line) != nil {
			continue // the start line for people
		}
		if line["msg"] == "call" {
			calls++
			for _, k := range []string{"method", "code", "ms", "replica", "level", "time"} {
				if _, ok := line[k]; !ok {
					t.Errorf("a call line without %s: %s", k, sc.Text())
				}
			}
		}
	}
	if want := 2*len(hostile) + 4; calls < want {
		t.Errorf("%d call lines, want %d at least:\n%s", calls, want, text)
	}
	for _, want := range []string{`"msg":"serving"`, `"msg":"stopped`, `"noggin":"team.yaml"`, `"code":"unauthenticated"`, `"code":"permission_denied"`} {
		if !strings.Contains(text, want) {
			t.Errorf("the log lacks %s:\n%s", want, text)
		}
	}
}
