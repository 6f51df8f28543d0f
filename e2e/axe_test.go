package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// axeSource is axe-core's browser build, pinned by the web view's
// package-lock.json and installed as the UI build installs its packages.
func axeSource(tb testing.TB) string {
	tb.Helper()
	ui := filepath.Join("..", "surfaces", "rpc", "ui")
	install := exec.Command("bash", filepath.Join("..", "surfaces", "rpc", "scripts", "npm.sh"))
	if out, err := install.CombinedOutput(); err != nil {
		tb.Fatalf("installing the web view's npm packages: %v\n%s", err, out)
	}
	src, err := os.ReadFile(filepath.Join(ui, "node_modules", "axe-core", "axe.min.js"))
	if err != nil {
		tb.Fatal(err)
	}
	return string(src)
}

// axeViolation is one rule axe-core finds broken, with where.
type axeViolation struct {
	ID, Impact, Help string
	Nodes            []struct {
		Target         []string
		FailureSummary string
	}
}

// axeCheck runs axe-core's WCAG 2 A and AA and best-practice rules on the
// page and fails on every serious or critical violation.
func axeCheck(t *testing.T, ctx context.Context, src, what string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](src+";true")); err != nil {
		t.Fatal(err)
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]axeViolation](`axe.run(document, {runOnly: {type: "tag",
		values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]}, resultTypes: ["violations"]})
		.then(r => r.violations.filter(v => v.impact === "serious" || v.impact === "critical")
		.map(v => ({ID: v.id, Impact: v.impact, Help: v.help, Nodes: v.nodes.slice(0, 3).map(n => ({Target: n.target, FailureSummary: n.failureSummary}))})))`,
		chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range got {
		var where []string
		for _, n := range v.Nodes {
			where = append(where, fmt.Sprintf("%s: %s", strings.Join(n.Target, " "), n.FailureSummary))
		}
		t.Errorf("%s: axe %s (%s): %s\n\t%s", what, v.ID, v.Impact, v.Help, strings.Join(where, "\n\t"))
	}
}

func TestUIAccessibility(t *testing.T) {
	chromium(t)
	src := axeSource(t)
	ctx, _ := browser(t, 1200, 800)
	srv, _ := uiServer(t, map[string][]byte{"work.yaml": []byte(fuzzFixture)})
	tokenSrv, _ := uiServer(t, map[string][]byte{"work.yaml": []byte(fuzzFixture)}, "NOGGIN_RPC_TOKEN="+remoteToken)
	rows := waitRows([]string{"root1", "alpha", "alpha-kid", "beta", "root2"})
	for _, look := range []struct {
		name          string
		scheme        string
		width, height int64
	}{{"light", "light", 1200, 800}, {"dark", "dark", 1200, 800}, {"phone", "light", 390, 800}, {"phone dark", "dark", 390, 800}} {
		t.Run(look.name, func(t *testing.T) {
			c, cancel := chromedp.NewContext(ctx)
			defer cancel()
			if _, err := chromedp.Call(c, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: look.scheme}}}); err != nil {
				t.Fatal(err)
			}
			if _, err := chromedp.Call(c, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
				Width: look.width, Height: look.height, DeviceScaleFactor: 1, Mobile: look.width < 700}); err != nil {
				t.Fatal(err)
			}
			run(t, c, chromedp.Navigate("http://"+srv.Addr+"/ui/work.yaml"), rows)
			axeCheck(t, c, src, "the noggin page")
			// A done row, selected: its title on the selection's colour.
			selectTitle(t, c, "alpha-kid")
			axeCheck(t, c, src, "a selected done row")
			run(t, c, press(kb.F10, chromedp.ModifierShift), waitJS(`document.activeElement?.getAttribute("role") === "menuitem"`))
			axeCheck(t, c, src, "the row's menu")
			run(t, c, press(kb.Escape), press("z"), waitJS(`!document.querySelector('.alert').hidden`))
			axeCheck(t, c, src, "an error shown")
			run(t, c, chromedp.Navigate("http://"+srv.Addr+"/ui/"), waitJS(`document.querySelectorAll('.list a').length === 1`))
			axeCheck(t, c, src, "the list page")
			run(t, c, chromedp.Navigate("http://"+tokenSrv.Addr+"/ui/work.yaml"), waitJS(`document.querySelector('form.login') !== null`))
			axeCheck(t, c, src, "the token form")
		})
	}
}
