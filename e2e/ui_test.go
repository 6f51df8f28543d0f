package e2e

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/noggin-go/noggin/core/codec"
	"github.com/noggin-go/noggin/core/noggin"
)

// The web view (noggin-rpc's /ui/), driven in Debian's Chromium, headless,
// through the DevTools protocol. Without Chromium these tests skip, loudly;
// with $NOGGIN_REQUIRE_CHROMIUM set (CI) they fail instead.

// chromium finds the browser: $NOGGIN_CHROMIUM, else chromium on PATH.
func chromium(tb testing.TB) string {
	tb.Helper()
	if p := os.Getenv("NOGGIN_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("NOGGIN_REQUIRE_CHROMIUM") != "" {
		tb.Fatal("Chromium is required ($NOGGIN_REQUIRE_CHROMIUM) but not installed: apt-get install chromium")
	}
	tb.Skip("SKIPPED: the web view's browser tests need Chromium (apt-get install chromium)")
	return ""
}

// void is an action that drops a's value.
type void = chromedp.Action[chromedp.Void]

func discard[T any](a chromedp.Action[T]) void {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := a(ctx, t)
		return chromedp.Void{}, err
	}
}

// dialogs counts the JavaScript dialogs (alert, confirm, prompt) that the
// pages of a browser opened; each is dismissed.
type dialogs struct {
	mu sync.Mutex
	n  int
}

func (d *dialogs) count() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.n
}

// watch counts and dismisses the dialogs of the tab ctx.
func (d *dialogs) watch(tb testing.TB, ctx context.Context) {
	tb.Helper()
	err := chromedp.Listen(ctx, func(ev any) {
		if _, ok := ev.(*page.EventJavascriptDialogOpening); ok {
			d.mu.Lock()
			d.n++
			d.mu.Unlock()
			go func() { _, _ = chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{}) }()
		}
	})
	if err != nil {
		tb.Fatal(err)
	}
}

// browser starts a headless Chromium for the test and returns a context
// for its first tab, whose dialogs are counted.
func browser(tb testing.TB, width, height int) (context.Context, *dialogs) {
	tb.Helper()
	opts := append(slices.Clone(chromedp.DefaultExecAllocatorOptions[:]),
		chromedp.ExecPath(chromium(tb)),
		chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.UserDataDir(tb.TempDir()),
		chromedp.WindowSize(width, height),
	)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(alloc)
	tb.Cleanup(func() { cancelTab(); cancelAlloc() })
	if err := chromedp.Do(ctx); err != nil { // starts the browser
		tb.Fatal(err)
	}
	d := &dialogs{}
	d.watch(tb, ctx)
	return ctx, d
}

// run runs chromedp actions with a time limit.
func run(tb testing.TB, ctx context.Context, actions ...void) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		tb.Fatal(err)
	}
}

// eval evaluates a JavaScript expression in the page.
func eval[T any](tb testing.TB, ctx context.Context, expr string) T {
	tb.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		tb.Fatal(err)
	}
	return v
}

// waitJS waits until the JavaScript expression is truthy in the page.
func waitJS(expr string) void {
	return discard(chromedp.Poll[any](expr, chromedp.WithPollingTimeout(15*time.Second)))
}

// jsString is s as a JavaScript string literal.
func jsString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x2028 || r == 0x2029 || r >= 0x7f && r < 0xa0:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// uiServer starts noggin-rpc over a fresh root holding the given files.
func uiServer(tb testing.TB, files map[string][]byte, extraEnv ...string) (*RPCServer, string) {
	tb.Helper()
	root := tb.TempDir()
	for name, data := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), data, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	bin := suite.bins[RPC]
	if err := suite.buildErr[RPC]; err != nil {
		tb.Fatal(err)
	}
	srv, err := StartRPCServer(bin, root, append(append(processEnv(true), "HOME="+root), extraEnv...))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(srv.Stop)
	return srv, root
}

// startUI starts `noggin-rpc ui` with extra environment and returns the
// address it prints.
func startUI(t *testing.T, env ...string) string {
	t.Helper()
	cmd := exec.Command(suite.bins[RPC], "ui")
	cmd.Env = append(processEnv(true), env...)
	dieWithParent(cmd)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	address, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(address)
}

// cli runs the noggin CLI on a file, failing the test on a non-zero exit.
func cli(tb testing.TB, file string, args ...string) {
	tb.Helper()
	c := exec.Command(suite.bins[CLI], append([]string{"--noggin", file}, args...)...)
	c.Env = processEnv(true)
	if out, err := c.CombinedOutput(); err != nil {
		tb.Fatalf("noggin %v: %v\n%s", args, err, out)
	}
}

// readDoc reads a noggin file.
func readDoc(tb testing.TB, file string) *noggin.Document {
	tb.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		return noggin.NewDocument()
	}
	doc, err := codec.DecodeYAML(data)
	if err != nil {
		tb.Fatal(err)
	}
	return doc
}

// treeTitles is every title of doc in tree order, as the page's rows show
// them when nothing is collapsed.
func treeTitles(doc *noggin.Document) []string {
	kids := map[string][]*noggin.Item{}
	for _, it := range doc.Items {
		kids[it.ParentKey] = append(kids[it.ParentKey], it)
	}
	var out []string
	var walk func(parent string)
	walk = func(parent string) {
		for _, it := range kids[parent] {
			out = append(out, oneLine(it.Title))
			walk(it.Key)
		}
	}
	walk("")
	return out
}

// hidden matches what the page shows as \u{…} escapes (src/text.ts).
var hidden = regexp.MustCompile(`[\x{0}-\x{8}\x{b}-\x{1f}\x{7f}-\x{9f}\x{61c}\x{200b}-\x{200f}\x{2028}-\x{202e}\x{2060}-\x{2069}\x{feff}]`)

func escapeRune(s string) string { return fmt.Sprintf(`\u{%X}`, []rune(s)[0]) }

// visibleText is the page's visible(): hidden characters escaped.
func visibleText(s string) string { return hidden.ReplaceAllStringFunc(s, escapeRune) }

var lineBreaks = regexp.MustCompile(`[\n\t]`)

// oneLine is the page's oneLine(): newlines and tabs escaped too. A lone
// surrogate (invalid UTF-8 here) shows as U+FFFD.
func oneLine(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	return lineBreaks.ReplaceAllStringFunc(visibleText(s), escapeRune)
}

const rowTitles = `[...document.querySelectorAll('.row:not([hidden])')].sort((a,b)=>a.getBoundingClientRect().top-b.getBoundingClientRect().top).map(r=>r.querySelector('.title').textContent)`

// rowStatesEqual is a JS condition: the page's first 20 rows show doc's
// tree, row by row: level, place among the siblings (aria-posinset /
// aria-setsize), path, title, done, notes and cursors.
func rowStatesEqual(doc *noggin.Document) string {
	kids := map[string][]*noggin.Item{}
	for _, it := range doc.Items {
		kids[it.ParentKey] = append(kids[it.ParentKey], it)
	}
	agents := map[string][]string{}
	for _, cur := range doc.Cursors() {
		agents[cur.Key] = append(agents[cur.Key], "@"+cur.Agent)
	}
	var want []string
	var walk func(parent, path string, level int)
	walk = func(parent, path string, level int) {
		for i, it := range kids[parent] {
			p := fmt.Sprintf("%s/%d", path, i+1)
			state := fmt.Sprintf("%d %d/%d %s %s %v %d %s", level, i+1, len(kids[parent]), p, oneLine(it.Title), it.Done, len(it.Notes), strings.Join(agents[it.Key], " "))
			want = append(want, jsString(state))
			walk(it.Key, p, level+1)
		}
	}
	walk("", "", 1)
	want = want[:min(len(want), 20)] // the rows in view of a big tree (the tree is virtual)
	rows := `[...document.querySelectorAll('.row:not([hidden])')].sort((a,b)=>a.getBoundingClientRect().top-b.getBoundingClientRect().top).map(r=>[r.getAttribute('aria-level'), r.getAttribute('aria-posinset')+'/'+r.getAttribute('aria-setsize'), r.querySelector('.path').textContent, r.querySelector('.title').textContent, r.classList.contains('done'), Number(r.querySelector('.badge').textContent.replace('✎ ', '') || 0), r.querySelector('.agents').textContent].join(' ')).slice(0, 20)`
	return `JSON.stringify(` + rows + `) === JSON.stringify([` + strings.Join(want, ",") + `])`
}

// waitRows waits until the page's rows show titles (all rows in view).
func waitRows(titles []string) void {
	want := make([]string, len(titles))
	for i, t := range titles {
		want[i] = jsString(t)
	}
	return waitJS(`JSON.stringify(` + rowTitles + `) === JSON.stringify([` + strings.Join(want, ",") + `])`)
}

// press types keys into the focused element as a keyboard does: each key
// one keyDown carrying its text, then keyUp (a keydown handler that calls
// preventDefault keeps the text from being typed, as in a real browser).
func press(keys string, mods ...chromedp.Modifier) void {
	var bits int64
	for _, m := range mods {
		bits |= int64(m)
	}
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		for _, r := range keys {
			events := kb.Encode(r)
			down, up := *events[0], *events[len(events)-1]
			if len(events) == 3 && bits&^int64(chromedp.ModifierShift) == 0 {
				down.Text, down.UnmodifiedText = events[1].Text, events[1].UnmodifiedText
			}
			down.Modifiers |= bits
			up.Modifiers |= bits
			for _, e := range []input.DispatchKeyEventParams{down, up} {
				if _, err := cdp.Call(ctx, t, input.DispatchKeyEvent, e); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// mouseEvent is one event of the main mouse button at x, y (buttons: those held).
func mouseEvent(typ input.DispatchMouseEventType, x, y float64, buttons int64) void {
	p := input.DispatchMouseEventParams{Type: typ, X: x, Y: y, Button: input.MouseButtonLeft, Buttons: buttons}
	if typ != input.DispatchMouseEventTypeMouseMoved {
		p.ClickCount = 1
	}
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, input.DispatchMouseEvent, p)
		return err
	})
}

// rowPoint is a point in the row in view showing title: x just inside its
// title, y at frac of the row's height.
func rowPoint(tb testing.TB, ctx context.Context, title string, frac float64) (float64, float64) {
	tb.Helper()
	xy := eval[[]float64](tb, ctx, `(r => r ? [r.querySelector('.title').getBoundingClientRect().left + 8, r.getBoundingClientRect().top + r.getBoundingClientRect().height * `+
		fmt.Sprint(frac)+`] : [])([...document.querySelectorAll('.row:not([hidden])')].find(r => r.querySelector('.title').textContent === `+jsString(title)+`))`)
	if len(xy) != 2 {
		tb.Fatalf("no row %q in view", title)
	}
	return xy[0], xy[1]
}

// answered waits until every verb the page sent has its answer (which
// may select the verb's target).
var answered = waitJS(`(document.querySelector('.page')?.dataset.calls ?? "0") === "0"`)

// selectTitle moves the selection with the keyboard (Home, then ↓) to the
// row showing title.
func selectTitle(tb testing.TB, ctx context.Context, title string) {
	tb.Helper()
	run(tb, ctx, answered, chromedp.Focus(chromedp.CSS(".tree")), press(kb.Home))
	for range 60 {
		if eval[string](tb, ctx, `document.querySelector('.row.selected .title')?.textContent ?? ""`) == title {
			return
		}
		run(tb, ctx, press(kb.ArrowDown))
	}
	tb.Fatalf("no row titled %q; focus on %s, rows %s", title, eval[string](tb, ctx, `document.activeElement.outerHTML.slice(0, 120)`),
		eval[string](tb, ctx, `JSON.stringify(`+rowTitles+`)`))
}

// waitFile waits until the noggin file satisfies ok.
func waitFile(tb testing.TB, file string, what string, ok func(*noggin.Document) bool) *noggin.Document {
	tb.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		data, _ := os.ReadFile(file)
		doc := readDoc(tb, file)
		if ok(doc) {
			return doc
		}
		if time.Now().After(deadline) {
			tb.Fatalf("the file never showed: %s\n%s", what, data)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// parentTitle is the title of the parent of the item titled title ("" for
// a root, "?" for no such item).
func parentTitle(doc *noggin.Document, title string) string {
	it := byTitle(doc, title)
	if it == nil {
		return "?"
	}
	for _, p := range doc.Items {
		if p.Key == it.ParentKey {
			return p.Title
		}
	}
	return ""
}

func byTitle(doc *noggin.Document, title string) *noggin.Item {
	for _, it := range doc.Items {
		if it.Title == title {
			return it
		}
	}
	return nil
}

func TestUI(t *testing.T) {
	chromium(t)
	ctx, opened := browser(t, 1200, 800)
	tab := func(t *testing.T) context.Context {
		t.Helper()
		c, cancel := chromedp.NewContext(ctx)
		t.Cleanup(cancel)
		if err := chromedp.Do(c); err != nil {
			t.Fatal(err)
		}
		opened.watch(t, c)
		return c
	}

	t.Run("list, then live update from the CLI keeping selection", func(t *testing.T) {
		srv, root := uiServer(t, map[string][]byte{"work.yaml": []byte(fuzzFixture), "sub/x.txt": nil})
		file := filepath.Join(root, "work.yaml")
		c := tab(t)
		run(t, c, chromedp.Navigate("http://"+srv.Addr+"/ui/"),
			waitJS(`[...document.querySelectorAll('.list a')].map(a=>a.textContent).join()==="work.yaml"`))
		link := eval[string](t, c, `document.querySelector('.list a').href`)
		if link != "http://"+srv.Addr+"/ui/work.yaml" {
			t.Fatalf("the list links to %q", link)
		}
		if n := eval[int](t, c, `document.querySelectorAll('main').length`); n != 1 {
			t.Errorf("the list page has %d main landmarks", n)
		}
		// A noggin made since shows up in the open list (it asks again every 2 s).
		cli(t, filepath.Join(root, "sub", "new.yaml"), "push", "fresh")
		run(t, c, waitJS(`[...document.querySelectorAll('.list a')].map(a=>a.textContent).join()==="sub/new.yaml,work.yaml"`))
		run(t, c, chromedp.Navigate(link), waitRows(treeTitles(readDoc(t, file))))
		selectTitle(t, c, "beta")
		run(t, c, chromedp.Click(chromedp.CSS(".note-form textarea")), press("half a note"))
		cli(t, file, "note", "/1/1", "from the CLI") // writes by another process
		cli(t, file, "add", "--before", "/1", "written elsewhere")
		run(t, c, waitRows(treeTitles(readDoc(t, file))))
		if sel := eval[string](t, c, `document.querySelector('.row.selected .title').textContent`); sel != "beta" {
			t.Errorf("selection after an outside write: %q, want beta", sel)
		}
		if typed := eval[string](t, c, `document.activeElement.matches('.note-form textarea') ? document.activeElement.value : "(focus lost)"`); typed != "half a note" {
			t.Errorf("a note being typed after an outside write: %q", typed)
		}
		run(t, c, press(" done"), chromedp.Click(chromedp.CSS(".note-form button")),
			waitJS(`document.querySelector('.note-form textarea').value === ""`))
		waitFile(t, file, "the note typed in the page", func(d *noggin.Document) bool {
			it := byTitle(d, "beta")
			return it != nil && len(it.Notes) > 0 && it.Notes[len(it.Notes)-1].Text == "half a note done"
		})
		// A verb asked about an item goes to that item, wherever writes
		// elsewhere moved it meanwhile, and nowhere once it is gone.
		selectTitle(t, c, "beta")
		betaPath := eval[string](t, c, `document.querySelector('.row.selected .path').textContent`)
		run(t, c, press("n"))
		cli(t, file, "add", "--before", betaPath, "intruder")
		run(t, c, waitRows(treeTitles(readDoc(t, file))), press("for beta"), press(kb.Enter))
		waitFile(t, file, "the note on beta, not on the item now at its old path", func(d *noggin.Document) bool {
			it := byTitle(d, "beta")
			return it != nil && it.Notes[len(it.Notes)-1].Text == "for beta" && len(byTitle(d, "intruder").Notes) == 0
		})
		run(t, c, answered)
		selectTitle(t, c, "intruder")
		run(t, c, press("n"))
		cli(t, file, "delete", eval[string](t, c, `document.querySelector('.row.selected .path').textContent`))
		run(t, c, waitRows(treeTitles(readDoc(t, file))), press("too late"), press(kb.Enter),
			waitJS(`document.querySelector('.alert').textContent === "That item is no longer in the noggin."`))
		if data, _ := os.ReadFile(file); strings.Contains(string(data), "too late") {
			t.Error("a note meant for a deleted item was written")
		}
		run(t, c, chromedp.Navigate("http://"+srv.Addr+"/ui/%ED%A0%80"),
			waitJS(`document.querySelector('.alert')?.textContent === "This address names no noggin."`))
	})

	t.Run("live writes applied as changes", func(t *testing.T) {
		// Every message after the first carries only the changes (the
		// page applies them to its tree); each write of another process
		// must leave the page showing the file's tree exactly.
		srv, root := uiServer(t, map[string][]byte{"live.yaml": []byte(fuzzFixture)})
		file := filepath.Join(root, "live.yaml")
		c := tab(t)
		run(t, c, chromedp.Navigate("http://"+srv.Addr+"/ui/live.yaml"), waitJS(rowStatesEqual(readDoc(t, file))))
		writes := [][]string{
			{"add", "first", "--before", "/1"},
			{"move", "/2/2", "--into", "/3"},
			{"note", "/3/1", "moved here"},
			{"edit", "/2/1", "--done"},
			{"move", "/3", "--before", "/2/1"},
			{"push", "deep"},
			{"--agent", "ann", "goto", "/1"},
			{"delete", "/2", "--recursive"},
			{"undo"},
			{"edit", "/1", "--title", "renamed"},
		}
		for _, w := range writes {
			cli(t, file, w...)
			run(t, c, waitJS(rowStatesEqual(readDoc(t, file))))
		}
		// A write that shifts more siblings than a message carries as
		// changes comes as the whole document.
		for i := range 70 {
			cli(t, file, "add", fmt.Sprint("many ", i), "--into", "/1")
		}
		cli(t, file, "add", "before them all", "--before", "/1/1")
		run(t, c, waitJS(rowStatesEqual(readDoc(t, file))))
	})

	t.Run("agents' cursors and who wrote", func(t *testing.T) {
		srv, root := uiServer(t, map[string][]byte{"work.yaml": []byte(fuzzFixture)})
		file := filepath.Join(root, "work.yaml")
		c := tab(t)
		run(t, c, chromedp.Navigate("http://"+srv.Addr+"/ui/work.yaml"), waitRows(treeTitles(readDoc(t, file))))
		cli(t, file, "--agent", "alice", "push", "alice's side-quest")
		cli(t, file, "--agent", "bob", "goto", "/1")
		key := byTitle(readDoc(t, file), "alice's side-quest").Key
		// Each agent's own active item carries its name; the shared one stays.
		run(t, c, waitJS(`document.querySelector(".row[data-key='`+key+`'] .agents")?.textContent === "@alice"`),
			waitJS(`[...document.querySelectorAll('.agents')].some(a => a.textContent === "@bob")`))
		run(t, c, press("l"), waitJS(`[...document.querySelectorAll('.log .agent')].map(a => a.textContent).join() === "by bob,by alice"`))
	})

	t.Run("a write above keeps the place", func(t *testing.T) {
		srv, root := uiServer(t, map[string][]byte{"big.yaml": GenerateNoggin(500)})
		file := filepath.Join(root, "big.yaml")
		c := tab(t)
		topRow := `[...document.querySelectorAll('.row:not([hidden])')].find(r => r.getBoundingClientRect().top >= document.querySelector('.tree').getBoundingClientRect().top - 1)?.querySelector('.title').textContent`
		run(t, c, chromedp.Navigate("http://"+srv.Addr+"/ui/big.yaml"), waitJS(`document.querySelector('.page')?.dataset.items === "500"`),
			discard(chromedp.Evaluate[any](`document.querySelector('.tree').scrollTop = 28 * 200`)), chromedp.Sleep(100*time.Millisecond))
		before := eval[string](t, c, topRow)
		cli(t, file, "add", "--before", "/1", "inserted above")
		run(t, c, waitJS(`document.querySelector('.page')?.dataset.items === "501"`))
		if after := eval[string](t, c, topRow); after != before || before == "" {
			t.Errorf("top row %q before an insert above it, %q after", before, after)
		}
	})

	t.Run("a phone's width", func(t *testing.T) {
		srv, _ := uiServer(t, map[string][]byte{"work.yaml": []byte(fuzzFixture)})
		c := tab(t)
		if _, err := chromedp.Call(c, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
			Width: 390, Height: 800, DeviceScaleFactor: 2, Mobile: true}); err != nil {
			t.Fatal(err)
		}
		run(t, c, chromedp.Navigate("http://"+srv.Addr+"/ui/work.yaml"), waitRows([]string{"root1", "alpha", "alpha-kid", "beta", "root2"}))
		type layout struct{ Scroll, Width, TreeHeight, DetailsHeight float64 }
		got := eval[layout](t, c, `({Scroll: document.documentElement.scrollWidth, Width: innerWidth,
			TreeHeight: document.querySelector('.tree').getBoundingClientRect().height,
			DetailsHeight: document.querySelector('.details').getBoundingClientRect().height})`)
		if got.Scroll > got.Width || got.TreeHeight < 100 || got.DetailsHeight < 100 {
			t.Errorf("at 390 px: %+v (the page scrolls sideways, or a pane has no room)", got)
		}
	})

	t.Run("every verb by keyboard", func(t *testing.T) {
		srv, root := uiServer(t, map[string][]byte{"work.yaml": []byte("schemaVersion: 1\nactive: null\nitems: []\n")})
		file := filepath.Join(root, "work.yaml")
		c := tab(t)
		// An empty noggin is whole at once (no parts to wait for).
		run(t, c, chromedp.Navigate("http://"+srv.Addr+"/ui/work.yaml"),
			waitJS(`document.querySelector('.page')?.dataset.items === "0" && document.querySelector('.page').dataset.loading === "false"`),
			chromedp.Focus(chromedp.CSS(".tree")))
		step := func(what string, ok func(*noggin.Document) bool, keys ...void) {
			t.Helper()
			run(t, c, keys...)
			doc := waitFile(t, file, what, ok)
			run(t, c, waitRows(treeTitles(doc)), answered)
		}
		active := func(d *noggin.Document) string {
			for _, it := range d.Items {
				if it.Key == d.Active {
					return it.Title
				}
			}
			return ""
		}
		step("push first", func(d *noggin.Document) bool { return active(d) == "first" }, press("p"), press("first"), press(kb.Enter))
		step("push second", func(d *noggin.Document) bool { return parentTitle(d, "second") == "first" && active(d) == "second" },
			press("p"), press("second"), press(kb.Enter))
		selectTitle(t, c, "first")
		step("add after first", func(d *noggin.Document) bool { return byTitle(d, "sibling") != nil && parentTitle(d, "sibling") == "" },
			press("s"), press("sibling"), press(kb.Enter))
		selectTitle(t, c, "sibling")
		step("add before sibling", func(d *noggin.Document) bool {
			kids := treeTitles(d)
			return parentTitle(d, "between") == "" && slices.Index(kids, "between") == slices.Index(kids, "sibling")-1
		}, press("b"), press("between"), press(kb.Enter))
		selectTitle(t, c, "first")
		step("add into first", func(d *noggin.Document) bool { return parentTitle(d, "child") == "first" }, press("a"), press("child"), press(kb.Enter))
		selectTitle(t, c, "child")
		step("goto child", func(d *noggin.Document) bool { return active(d) == "child" }, press(kb.Enter))
		selectTitle(t, c, "second")
		step("done second", func(d *noggin.Document) bool { return byTitle(d, "second").Done }, press("d"))
		selectTitle(t, c, "second")
		step("reopen second", func(d *noggin.Document) bool { return !byTitle(d, "second").Done }, press("r"))
		selectTitle(t, c, "second")
		step("edit second", func(d *noggin.Document) bool { return byTitle(d, "renamed") != nil }, press("e"), press("renamed"), press(kb.Enter))
		selectTitle(t, c, "renamed")
		step("note on renamed", func(d *noggin.Document) bool {
			it := byTitle(d, "renamed")
			return len(it.Notes) > 0 && it.Notes[len(it.Notes)-1].Text == "a note"
		}, press("n"), press("a note"), press(kb.Enter))
		selectTitle(t, c, "renamed")
		step("Alt+↓ moves after the next sibling", func(d *noggin.Document) bool {
			kids := treeTitles(d)
			return slices.Index(kids, "renamed") > slices.Index(kids, "child") && parentTitle(d, "renamed") == "first"
		}, press(kb.ArrowDown, chromedp.ModifierAlt))
		selectTitle(t, c, "renamed")
		step("move into sibling", func(d *noggin.Document) bool { return parentTitle(d, "renamed") == "sibling" }, press("m"), press("into /3"), press(kb.Enter))
		selectTitle(t, c, "child")
		step("goto child again", func(d *noggin.Document) bool { return active(d) == "child" }, press(kb.Enter))
		step("pop closes the active item", func(d *noggin.Document) bool { return byTitle(d, "child").Done && active(d) == "first" }, press("o"))
		run(t, c, press("/"), press("renamed"), press(kb.Enter),
			waitJS(`[...document.querySelectorAll('.matches button')].map(b=>b.textContent).join() === "/3/1 renamed"`))
		run(t, c, press("l"), waitJS(`document.querySelectorAll('.log li').length === 14`))
		step("undo takes back the pop", func(d *noggin.Document) bool { return !byTitle(d, "child").Done }, press("z"))
		step("redo applies it again", func(d *noggin.Document) bool { return byTitle(d, "child").Done }, press("y"))
		step("Ctrl+Z undoes", func(d *noggin.Document) bool { return !byTitle(d, "child").Done }, press("z", chromedp.ModifierCtrl))
		step("Ctrl+Shift+Z redoes", func(d *noggin.Document) bool { return byTitle(d, "child").Done },
			press("Z", chromedp.ModifierCtrl, chromedp.ModifierShift))
		step("Ctrl+Z again", func(d *noggin.Document) bool { return !byTitle(d, "child").Done }, press("z", chromedp.ModifierCtrl))
		step("Ctrl+Y redoes too", func(d *noggin.Document) bool { return byTitle(d, "child").Done }, press("y", chromedp.ModifierCtrl))
		// Space acts on the row as the page shows it: wait for each change to arrive.
		childShown := func(done bool) void {
			not := ":not(.done)"
			if done {
				not = ".done"
			}
			return waitJS(`[...document.querySelectorAll('.row` + not + ` .title')].some(e => e.textContent === "child")`)
		}
		run(t, c, childShown(true))
		selectTitle(t, c, "child")
		step("Space reopens a done item", func(d *noggin.Document) bool { return !byTitle(d, "child").Done }, press(" "))
		run(t, c, childShown(false))
		step("Space closes an open one", func(d *noggin.Document) bool { return byTitle(d, "child").Done }, press(" "))
		// Times read relative, the exact one on hover (this noggin's clock is
		// fixed months back, so the date).
		if got := eval[string](t, c, `(t => t && [t.textContent, t.dateTime, t.title].join())(document.querySelector('.details .notes time'))`); got != "2026-01-02,2026-01-02T03:04:05.678Z,2026-01-02T03:04:05.678Z" {
			t.Errorf("a note's time: %q", got)
		}
		selectTitle(t, c, "first")
		step("F2 renames in place", func(d *noggin.Document) bool { return byTitle(d, "first renamed") != nil },
			press(kb.F2), waitJS(`document.activeElement?.classList.contains("rename")`), press("first renamed"), press(kb.Enter))
		run(t, c, waitJS(`[...document.querySelectorAll('.row .title')].some(e => e.textContent === "first renamed")`),
			press(kb.F2), waitJS(`document.activeElement?.classList.contains("rename")`), press("never"), press(kb.Escape),
			waitJS(`document.activeElement?.classList.contains("tree") && !document.querySelector('.rename')`))
		if byTitle(readDoc(t, file), "never") != nil {
			t.Error("Esc in the rename input wrote the title")
		}
		step("F2 again, back to its title", func(d *noggin.Document) bool { return byTitle(d, "first") != nil },
			press(kb.F2), waitJS(`document.activeElement?.classList.contains("rename")`), press("first"), press(kb.Enter))
		run(t, c, waitJS(`[...document.querySelectorAll('.row .title')].some(e => e.textContent === "first")`))
		run(t, c, childShown(true))
		key := byTitle(readDoc(t, file), "child").Key
		if got := eval[string](t, c, `document.querySelector(".row[data-key='`+key+`'] .check").getAttribute("aria-checked")`); got != "true" {
			t.Errorf("a done row's checkbox is aria-checked=%q", got)
		}
		step("a click on the checkbox reopens", func(d *noggin.Document) bool { return !byTitle(d, "child").Done },
			chromedp.Click(chromedp.CSS(".row[data-key='"+key+"'] .check")))
		run(t, c, childShown(false))
		step("and closes", func(d *noggin.Document) bool { return byTitle(d, "child").Done },
			chromedp.Click(chromedp.CSS(".row[data-key='"+key+"'] .check")))
		selectTitle(t, c, "sibling")
		step("delete with its subtree", func(d *noggin.Document) bool { return byTitle(d, "sibling") == nil && byTitle(d, "renamed") == nil },
			press(kb.Delete), press("yes"), press(kb.Enter))
		step("by mouse: a row, then a button", func(d *noggin.Document) bool { return !byTitle(d, "child").Done },
			chromedp.Click(chromedp.CSS(".row[data-key='"+byTitle(readDoc(t, file), "child").Key+"'] .title")),
			chromedp.Click(chromedp.CSS("button[data-verb='reopen']")))
		selectTitle(t, c, "first")
		run(t, c, press("m"), press("into /9"), press(kb.Enter), waitJS(`document.querySelector('.alert').textContent.startsWith("move: path not found: /9")`))
		run(t, c, press("n"), press("   "), press(kb.Enter), waitJS(`document.querySelector('.alert').textContent.startsWith("note: ")`)) // core's rule, not the page's
	})

	t.Run("direct manipulation by mouse and menu", func(t *testing.T) {
		srv, root := uiServer(t, map[string][]byte{"hands.yaml": []byte("schemaVersion: 1\nactive: null\nitems: []\n")})
		file := filepath.Join(root, "hands.yaml")
		for _, args := range [][]string{{"add", "alpha"}, {"add", "--into", "/1", "alpha child"}, {"add", "bravo"}, {"add", "charlie"}} {
			cli(t, file, args...)
		}
		c := tab(t)
		run(t, c, chromedp.Navigate("http://"+srv.Addr+"/ui/hands.yaml"), waitRows(treeTitles(readDoc(t, file))))
		keyOf := func(title string) string {
			t.Helper()
			it := byTitle(readDoc(t, file), title)
			if it == nil {
				t.Fatalf("no item %q", title)
			}
			return it.Key
		}
		at := func(title string, frac float64) (float64, float64) {
			t.Helper()
			return rowPoint(t, c, title, frac)
		}
		// press holds the main button on from's row and moves, in steps, to frac of onto's row.
		hold := func(from, onto string, frac float64) []void {
			t.Helper()
			x0, y0 := at(from, 0.5)
			x1, y1 := at(onto, frac)
			acts := []void{mouseEvent(input.DispatchMouseEventTypeMousePressed, x0, y0, 1)}
			for i := 1; i <= 6; i++ {
				f := float64(i) / 6
				acts = append(acts, mouseEvent(input.DispatchMouseEventTypeMouseMoved, x0+(x1-x0)*f, y0+(y1-y0)*f, 1),
					waitJS(`new Promise(r => requestAnimationFrame(() => r(true)))`)) // one move a frame, as a hand makes them
			}
			return acts
		}
		release := func(title string, frac float64) void {
			x, y := at(title, frac)
			return mouseEvent(input.DispatchMouseEventTypeMouseReleased, x, y, 0)
		}
		selected := func() string {
			return eval[string](t, c, `document.querySelector('.row.selected .title')?.textContent ?? ""`)
		}

		// A double click renames in place; Enter saves with one edit.
		x, y := at("bravo", 0.5)
		run(t, c, chromedp.MouseClickXY(x, y), chromedp.MouseClickXY(x, y, chromedp.ClickCount(2)),
			waitJS(`document.activeElement?.classList.contains("rename")`), press("bravo renamed"), press(kb.Enter))
		waitFile(t, file, "bravo renamed by a double click", func(d *noggin.Document) bool { return byTitle(d, "bravo renamed") != nil })
		run(t, c, waitRows(treeTitles(readDoc(t, file))), answered)

		// A right click opens the row's menu; arrows and Enter run a verb.
		x, y = at("charlie", 0.5)
		run(t, c, chromedp.MouseClickXY(x, y, chromedp.ButtonType(input.MouseButtonRight)),
			waitJS(`document.activeElement?.getAttribute("role") === "menuitem"`))
		if got := eval[string](t, c, `[...document.querySelectorAll('[role=menu] [role=menuitem]')].map(m => m.firstChild.textContent).join()`); got != "Add child,Add after,Add before,Go to,Done,Rename,Note…,Move…,Delete…,Copy path,Copy key" {
			t.Errorf("the menu: %q", got)
		}
		run(t, c, press(kb.End), press(kb.ArrowUp), press(kb.ArrowUp), press(kb.ArrowUp), press(kb.ArrowUp), press(kb.ArrowUp), press(kb.ArrowUp),
			waitJS(`document.activeElement?.firstChild?.textContent === "Done"`), press(kb.Enter), waitJS(`!document.querySelector('[role=menu]')`))
		waitFile(t, file, "charlie done from its menu", func(d *noggin.Document) bool { return byTitle(d, "charlie").Done })
		if focus := eval[string](t, c, `document.activeElement.className`); focus != "tree" {
			t.Errorf("after the menu the focus is on %q, want the tree", focus)
		}
		run(t, c, waitRows(treeTitles(readDoc(t, file))), answered)

		// Shift+F10 and the menu key open it on the selected row; Esc closes it.
		run(t, c, press(kb.F10, chromedp.ModifierShift), waitJS(`document.activeElement?.getAttribute("role") === "menuitem"`),
			press(kb.Escape), waitJS(`!document.querySelector('[role=menu]') && document.activeElement.className === "tree"`))
		run(t, c, press(kb.ContextMenu), waitJS(`document.activeElement?.getAttribute("role") === "menuitem"`),
			press(kb.End), press(kb.Enter), waitJS(`document.querySelector('.alert').textContent === "Copied `+keyOf("charlie")+`"`))

		// Drag: the middle of a row is into it, its upper quarter before it.
		run(t, c, hold("charlie", "alpha", 0.5)...)
		if ind := eval[string](t, c, `(d => d.hidden ? "hidden" : d.className)(document.querySelector('.drop'))`); ind != "drop into" {
			t.Errorf("the drop indicator over alpha's middle: %q", ind)
		}
		run(t, c, release("alpha", 0.5))
		waitFile(t, file, "charlie dragged into alpha", func(d *noggin.Document) bool { return parentTitle(d, "charlie") == "alpha" })
		run(t, c, waitRows(treeTitles(readDoc(t, file))), answered, waitJS(`document.querySelector('.row.selected .title')?.textContent === "charlie"`))
		run(t, c, hold("bravo renamed", "alpha", 0.1)...)
		if ind := eval[string](t, c, `document.querySelector('.drop').className`); ind != "drop before" {
			t.Errorf("the drop indicator over alpha's upper quarter: %q", ind)
		}
		run(t, c, press(kb.Escape), waitJS(`document.querySelector('.drop').hidden`), release("alpha", 0.1))
		before := readDoc(t, file)
		run(t, c, hold("bravo renamed", "alpha", 0.1)...)
		run(t, c, release("alpha", 0.1))
		waitFile(t, file, "bravo renamed dragged before alpha", func(d *noggin.Document) bool {
			titles := treeTitles(d)
			return slices.Index(titles, "bravo renamed") == slices.Index(titles, "alpha")-1 && parentTitle(d, "bravo renamed") == ""
		})
		if n := len(readDoc(t, file).Items); n != len(before.Items) {
			t.Errorf("the drag cancelled with Esc wrote: %d items, was %d", n, len(before.Items))
		}
		run(t, c, waitRows(treeTitles(readDoc(t, file))), answered)
		// A drop into the item's own subtree is refused, and says why.
		run(t, c, hold("alpha", "alpha child", 0.5)...)
		if ind := eval[string](t, c, `document.querySelector('.drop').className`); ind != "drop into refused" {
			t.Errorf("the drop indicator over its own child: %q", ind)
		}
		before = readDoc(t, file)
		run(t, c, release("alpha child", 0.5), waitJS(`document.querySelector('.alert').textContent.includes("cannot go into itself")`))
		if after := readDoc(t, file); !slices.Equal(treeTitles(after), treeTitles(before)) {
			t.Error("a refused drop moved something")
		}
		// m moves, and the selection follows the moved item.
		selectTitle(t, c, "alpha child")
		run(t, c, press("m"), press("after /2"), press(kb.Enter))
		waitFile(t, file, "alpha child moved after alpha", func(d *noggin.Document) bool { return parentTitle(d, "alpha child") == "" })
		run(t, c, waitRows(treeTitles(readDoc(t, file))), answered)
		if got := selected(); got != "alpha child" {
			t.Errorf("after m the selection is on %q, want the moved item", got)
		}
		run(t, c, press(kb.ArrowUp, chromedp.ModifierAlt))
		waitFile(t, file, "Alt+↑ moved it back before alpha", func(d *noggin.Document) bool {
			titles := treeTitles(d)
			return slices.Index(titles, "alpha child") < slices.Index(titles, "alpha")
		})
		run(t, c, waitRows(treeTitles(readDoc(t, file))), answered)
		if got := selected(); got != "alpha child" {
			t.Errorf("after Alt+↑ the selection is on %q, want the moved item", got)
		}
		// What the CLI reads of the file: every change the mouse made.
		c2 := exec.Command(suite.bins[CLI], "--noggin", file, "show", "/3", "--with-all")
		c2.Env = processEnv(true)
		out, err := c2.CombinedOutput()
		if err != nil {
			t.Fatalf("noggin show: %v\n%s", err, out)
		}
		want := "/1 bravo renamed\n/2 alpha child\n/3 alpha\n  /3/1 ✅ charlie"
		if got := string(out); !strings.Contains(got, want) {
			t.Errorf("noggin show after the mouse:\n%s\nwant the rows\n%s", got, want)
		}
		// The original's keys for new items: Ctrl+Enter a child, Shift+Enter a sibling after.
		selectTitle(t, c, "bravo renamed")
		run(t, c, press(kb.Enter, chromedp.ModifierCtrl), waitJS(`document.activeElement?.matches('.bar input')`), press("kid by ctrl"), press(kb.Enter))
		waitFile(t, file, "Ctrl+Enter added a child", func(d *noggin.Document) bool { return parentTitle(d, "kid by ctrl") == "bravo renamed" })
		run(t, c, waitRows(treeTitles(readDoc(t, file))), answered)
		selectTitle(t, c, "bravo renamed")
		run(t, c, press(kb.Enter, chromedp.ModifierShift), waitJS(`document.activeElement?.matches('.bar input')`), press("sib by shift"), press(kb.Enter))
		waitFile(t, file, "Shift+Enter added a sibling after", func(d *noggin.Document) bool {
			titles := treeTitles(d)
			return parentTitle(d, "sib by shift") == "" && slices.Index(titles, "sib by shift") > slices.Index(titles, "kid by ctrl")
		})
	})

	t.Run("hostile text stays text", func(t *testing.T) {
		titles := append(slices.Clone(HostileText),
			`<img src=x onerror="alert(1)">`, `</script><script>alert(2)</script>`, `javascript:alert(3)`,
			`<a href="javascript:alert(4)">link</a>`, `<b>bold</b> &amp; &lt;`, `<style>*{display:none}</style>`,
			"\u202e\u2066\u2067 bidi", strings.Repeat("long ", 20000))
		doc := noggin.NewDocument()
		for i, title := range titles {
			if title == "" {
				continue
			}
			key := fmt.Sprintf("k-%04d", i)
			at := "2026-01-01T00:00:00.000Z"
			doc.Items = append(doc.Items, &noggin.Item{Key: key, Title: title, CreatedAt: &at,
				Notes: []noggin.Note{{Timestamp: title, Text: title}}}) // a timestamp is text too
		}
		srv, _ := uiServer(t, map[string][]byte{"evil.yaml": codec.EncodeYAML(doc)})
		c := tab(t)
		run(t, c, chromedp.Navigate("http://"+srv.Addr+"/ui/evil.yaml"),
			waitJS(fmt.Sprintf(`document.querySelector('.page')?.dataset.items === "%d"`, len(doc.Items))),
			chromedp.Focus(chromedp.CSS(".tree")), press(kb.Home))
		for i, it := range doc.Items {
			type shown struct {
				Row, Heading, Note, Time, Hover string
				Elements                        int
			}
			got := eval[shown](t, c, `({Row: document.querySelector('.row.selected .title').textContent,
				Heading: document.querySelector('.details h2').textContent,
				Note: document.querySelector('.notes p').textContent,
				Time: document.querySelector('.notes time').textContent,
				Hover: document.querySelector('.notes time').title,
				Elements: document.querySelectorAll('.root img, .root script, .root style, .root iframe, .root b, .tree a, .details a').length})`)
			if got.Row != oneLine(it.Title) || got.Heading != visibleText(strings.ToValidUTF8(it.Title, "\uFFFD")) ||
				got.Note != visibleText(strings.ToValidUTF8(it.Title, "\uFFFD")) {
				t.Errorf("item %d %q shows row %q, heading %q, note %q", i, it.Title, got.Row, got.Heading, got.Note)
			}
			// (JavaScript reads some texts as dates, "2/1": the time may say a date.)
			if want := visibleText(strings.ToValidUTF8(it.Title, "\uFFFD")); visibleText(got.Time) != got.Time || got.Hover != want {
				t.Errorf("item %d %q: the note's time shows %q, on hover %q", i, it.Title, got.Time, got.Hover)
			}
			if got.Elements != 0 {
				t.Errorf("item %d %q made %d elements", i, it.Title, got.Elements)
			}
			run(t, c, press(kb.ArrowDown))
		}
		if n := opened.count(); n != 0 {
			t.Errorf("%d dialogs opened", n)
		}
	})

	t.Run("a token server asks for the token once per tab", func(t *testing.T) {
		srv, _ := uiServer(t, map[string][]byte{"work.yaml": []byte(fuzzFixture)}, "NOGGIN_RPC_TOKEN="+remoteToken)
		c := tab(t)
		run(t, c, chromedp.Navigate("http://"+srv.Addr+"/ui/work.yaml"), waitJS(`document.querySelector('form.login') !== null`))
		if rows := eval[int](t, c, `document.querySelectorAll('.row').length`); rows != 0 {
			t.Fatalf("%d rows shown without the token", rows)
		}
		run(t, c, press("wrong-token"), press(kb.Enter), waitJS(`document.querySelector('form.login p')?.textContent.includes("refused")`),
			press(remoteToken), press(kb.Enter), waitRows([]string{"root1", "alpha", "alpha-kid", "beta", "root2"}))
		run(t, c, chromedp.Reload(), waitRows([]string{"root1", "alpha", "alpha-kid", "beta", "root2"}))
		url, stored := eval[string](t, c, `location.href`), eval[string](t, c, `sessionStorage.getItem("noggin-token")`)
		if strings.Contains(url, remoteToken) || stored != remoteToken {
			t.Errorf("address %q, stored token %q", url, stored)
		}
	})

	t.Run("noggin-rpc ui serves one noggin with a fresh token", func(t *testing.T) {
		dir := t.TempDir()
		file := filepath.Join(dir, "mine.yaml")
		if err := os.WriteFile(file, []byte(fuzzFixture), 0o600); err != nil {
			t.Fatal(err)
		}
		address := startUI(t, "NOGGIN="+file)
		m := regexp.MustCompile(`^http://127\.0\.0\.1:\d+/ui/mine\.yaml#token=([0-9a-f]{64})$`).FindStringSubmatch(address)
		if m == nil {
			t.Fatalf("printed %q", address)
		}
		c := tab(t)
		run(t, c, chromedp.Navigate(address), waitRows([]string{"root1", "alpha", "alpha-kid", "beta", "root2"}))
		if url := eval[string](t, c, `location.href`); strings.Contains(url, "token") {
			t.Errorf("the token stayed in the address: %s", url)
		}
		if err := os.WriteFile(filepath.Join(dir, "other.yaml"), []byte(fuzzFixture), 0o600); err != nil {
			t.Fatal(err)
		}
		base := strings.SplitN(address, "/ui/", 2)[0]
		for _, call := range []struct{ auth, location string }{{"", "mine.yaml"}, {"Bearer " + m[1], "other.yaml"}} {
			req, _ := http.NewRequest("POST", base+"/noggin.v1.NogginService/Snapshot", strings.NewReader(`{"location":"`+call.location+`"}`))
			req.Header.Set("Content-Type", "application/json")
			if call.auth != "" {
				req.Header.Set("Authorization", call.auth)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				t.Errorf("%+v: a call without the token, or for another noggin, answered 200", call)
			}
		}
	})

	t.Run("noggin-rpc ui on a fresh machine: one command, then the page", func(t *testing.T) {
		home := t.TempDir()
		address := startUI(t, "HOME="+home) // no $NOGGIN, no ~/.noggin.yaml yet
		c := tab(t)
		run(t, c, chromedp.Navigate(address),
			waitJS(`document.querySelector('.details .empty')?.textContent.startsWith("This noggin is empty")`),
			chromedp.Focus(chromedp.CSS(".tree")), press("p"), press("first thing"), press(kb.Enter),
			waitRows([]string{"first thing"}))
		if doc := readDoc(t, filepath.Join(home, ".noggin.yaml")); len(doc.Items) != 1 || doc.Items[0].Title != "first thing" {
			t.Errorf("~/.noggin.yaml holds %d items", len(doc.Items))
		}
	})

	t.Run("10k items paint and stay usable", func(t *testing.T) {
		srv, root := uiServer(t, map[string][]byte{"big.yaml": GenerateNoggin(10000)})
		c := tab(t)
		start := time.Now()
		run(t, c, chromedp.Navigate("http://"+srv.Addr+"/ui/big.yaml"), waitJS(`document.querySelector('.page')?.dataset.items === "10000" && document.querySelectorAll('.row:not([hidden])').length > 10`))
		t.Logf("10k items painted %v after navigating (make bench-ui measures it)", time.Since(start).Round(time.Millisecond))
		// It came in parts (the rows around the active item first): once
		// whole, the page shows the file's tree row for row.
		run(t, c, waitJS(`document.querySelector('.page').dataset.loading === "false"`), chromedp.Focus(chromedp.CSS(".tree")), press(kb.Home),
			waitJS(rowStatesEqual(readDoc(t, filepath.Join(root, "big.yaml")))), press(kb.End),
			waitJS(`document.querySelector('.row.selected .path')?.textContent.length > 0`))
		if pending := eval[int](t, c, `document.querySelectorAll('.row.pending').length`); pending != 0 {
			t.Errorf("%d rows still loading once the noggin is whole", pending)
		}
		if last := eval[int](t, c, `document.querySelectorAll('.row').length`); last > 200 {
			t.Errorf("%d rows made for a 10k-item noggin: the list is not virtual", last)
		}
	})
}

// TestUIScreenshots writes the README's screenshots with -update.
func TestUIScreenshots(t *testing.T) {
	if !*update {
		t.Skip("run with -update to rewrite docs/images/ui-*.png")
	}
	ctx, _ := browser(t, 1100, 700)
	srv, _ := uiServer(t, map[string][]byte{"work.yaml": []byte(screenshotNoggin)})
	for _, scheme := range []string{"light", "dark"} {
		if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}}); err != nil {
			t.Fatal(err)
		}
		run(t, ctx, chromedp.Navigate("http://"+srv.Addr+"/ui/work.yaml"), waitJS(`document.querySelector('.page')?.dataset.items === "7"`),
			chromedp.Sleep(200*time.Millisecond))
		shot := func(name string) {
			t.Helper()
			png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join("..", "docs", "images", name+"-"+scheme+".png"), png, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		shot("ui")
		// The row's menu, opened with a right click.
		x, y := rowPoint(t, ctx, "Update the migration guide", 0.5)
		run(t, ctx, chromedp.MouseClickXY(x, y, chromedp.ButtonType(input.MouseButtonRight)),
			waitJS(`document.activeElement?.getAttribute("role") === "menuitem"`), press(kb.ArrowDown), press(kb.ArrowDown))
		shot("ui-menu")
		run(t, ctx, press(kb.Escape))
		// A row dragged into another: the box says where it would go.
		x0, y0 := rowPoint(t, ctx, "Read the original's lock code", 0.5)
		run(t, ctx, mouseEvent(input.DispatchMouseEventTypeMousePressed, x0, y0, 1))
		for i := 1; i <= 6; i++ {
			f := float64(i) / 6
			run(t, ctx, mouseEvent(input.DispatchMouseEventTypeMouseMoved, x0+(x-x0)*f, y0+(y-y0)*f, 1))
		}
		run(t, ctx, waitJS(`document.querySelector('.drop').className === "drop into" && !document.querySelector('.drop').hidden`))
		shot("ui-drag")
		run(t, ctx, press(kb.Escape), mouseEvent(input.DispatchMouseEventTypeMouseReleased, x, y, 0))
		// Rename in place (F2), on a done row.
		selectTitle(t, ctx, "Benchmark the write path")
		run(t, ctx, press(kb.F2), waitJS(`document.activeElement?.classList.contains("rename")`), press(kb.End), press(" again"))
		shot("ui-rename")
		run(t, ctx, press(kb.Escape))
	}
}

const screenshotNoggin = `schemaVersion: 1
active: k-3
items:
  - key: k-1
    parentKey: null
    title: Ship the storage rewrite
    done: false
    createdAt: '2026-12-01T09:00:00.000Z'
    notes: []
  - key: k-2
    parentKey: k-1
    title: Benchmark the write path
    done: true
    createdAt: '2026-12-01T09:10:00.000Z'
    notes:
      - timestamp: '2026-12-01T11:00:00.000Z'
        text: 100k items push in 72 ms
  - key: k-3
    parentKey: k-1
    title: Fix the flaky lock test
    done: false
    createdAt: '2026-12-01T09:20:00.000Z'
    notes:
      - timestamp: '2026-12-02T08:00:00.000Z'
        text: |-
          Fails one run in fifty under -race.
          The stale-lock timer fires before the holder renews.
      - timestamp: '2026-12-02T09:30:00.000Z'
        text: Reproduced with SIGSTOP on the holder.
  - key: k-4
    parentKey: k-3
    title: Read the original's lock code
    done: false
    createdAt: '2026-12-02T10:00:00.000Z'
    notes: []
  - key: k-5
    parentKey: k-1
    title: Update the migration guide
    done: false
    createdAt: '2026-12-01T09:30:00.000Z'
    notes: []
  - key: k-6
    parentKey: null
    title: Review the web view pull request
    done: false
    createdAt: '2026-12-03T14:00:00.000Z'
    notes: []
  - key: k-7
    parentKey: k-6
    title: Check the hostile-text corpus in Chromium
    done: false
    createdAt: '2026-12-03T14:05:00.000Z'
    notes: []
`
