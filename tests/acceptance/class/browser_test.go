package class

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// browserEnv turns on TestPageAt1280: "1" runs it where Chromium is
// installed, "required" fails without Chromium. scripts/class-page.sh
// sets it (and installs Chromium as root on Debian); go test ./... alone
// does not start a browser.
const browserEnv = "CLASS_PAGE_BROWSER"

// screenshotEnv names a folder for the page's screenshot at 1280 px.
const screenshotEnv = "CLASS_PAGE_SCREENSHOT"

func findBrowser() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// runBrowser runs headless Chromium with a fresh profile and nothing in
// the background, at a 1280 px wide window.
func runBrowser(t *testing.T, browser string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
		"--user-data-dir=" + t.TempDir(), "--window-size=1280,900"}
	cmd := exec.CommandContext(ctx, browser, append(base, args...)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", browser, err, stderr.String())
	}
	return string(out)
}

// wideClass is a class that strains the first table: a long name with no
// spaces, a learner failing many checks with long reasons, a server that
// never starts, missing dependencies, and hostile text.
func wideClass(t *testing.T) []*Result {
	t.Helper()
	many := map[string]bool{}
	for _, id := range strings.Fields("2 3 4 5 6 7 9 12 14 16 17 18 19 20 22") {
		many[id] = true
	}
	zed := fullRun(t, "process group; in private mount, network and PID namespaces; limits (rlimits)", func(c *fakeCheck) {
		if many[c.ID] {
			c.Status, c.Hint = "fail", "Refuse it."
			c.Failures = []string{"text of a file outside the root, reached through symlink chain-1.md -> nested-links/chain-2.md, appeared in the reply to tools/call search_notes"}
			c.Evidence = "FAIL: " + c.Failures[0]
		}
		if c.ID == "8.5" {
			c.Status, c.Warnings, c.Evidence = "warn", []string{"after a line that is not JSON the session ended"}, "WARN: after a line that is not JSON the session ended"
		}
	})
	cal := fullRun(t, "process group only", func(c *fakeCheck) {
		if c.ID == "5" || c.ID == "17" || c.ID == "22" {
			c.Status, c.Failures, c.Evidence = "fail", []string{"the symlink escape-link.md named as a result appeared"}, "FAIL: the symlink"
		}
	})
	deps := result(t, "nod", "node server.js {root}", "", "")
	deps.Error, deps.Install, deps.DepsMissing = "dependencies not installed: run npm ci in class/nod", "npm ci", true
	return []*Result{
		result(t, "ada", "go run . serve -root {root}", fullRun(t, "process group only", func(*fakeCheck) {}), honest),
		result(t, "cal", "python3 server.py {root}", cal, honest),
		result(t, "eve", "eve-notes-server --root {root}", neverStarts(t, "/bin/sh: 1: eve-notes-server: not found"), ""),
		deps,
		result(t, strings.Repeat("learner-with-a-very-long-folder-name", 3), "node s.js {root}", zed, hostileRec),
		result(t, hostileName, hostileCmd, zed, hostileRec),
	}
}

// measureScript reads the layout the browser computed and prints it as
// JSON in a <pre id="measure">, which --dump-dom then shows.
const measureScript = `<script>
(function () {
  var first = document.querySelector("table.summary");
  var box = document.querySelector("div.wide");
  var grid = document.querySelector("table.grid");
  var links = Array.prototype.map.call(document.querySelectorAll("ul.fails a"), function (a) {
    var r = a.getBoundingClientRect(); return {text: a.textContent, right: r.right, top: r.top};
  });
  var m = {
    viewport: window.innerWidth,
    pageWidth: document.documentElement.scrollWidth,
    firstRight: first.getBoundingClientRect().right,
    firstScroll: first.scrollWidth,
    firstBox: first.parentElement.clientWidth,
    gridBoxRight: box.getBoundingClientRect().right,
    gridWidth: grid.scrollWidth,
    gridBox: box.clientWidth,
    links: links
  };
  var pre = document.createElement("pre");
  pre.id = "measure";
  pre.textContent = JSON.stringify(m);
  document.body.appendChild(pre);
})();
</script>`

type measure struct {
	Viewport, PageWidth, FirstRight, FirstScroll, FirstBox, GridBoxRight, GridWidth, GridBox float64
	Links                                                                                    []struct {
		Text       string
		Right, Top float64
	}
}

// TestPageAt1280 opens the class page in headless Chromium at 1280 px:
// the first table fits its box, every failed check of every learner is
// on screen without scrolling sideways, and only the per-check grid
// scrolls, inside its own box.
func TestPageAt1280(t *testing.T) {
	mode := os.Getenv(browserEnv)
	if mode == "" {
		t.Skip(browserEnv + " not set: scripts/class-page.sh runs this test in headless Chromium")
	}
	browser := findBrowser()
	if browser == "" {
		if mode == "required" {
			t.Fatal("no chromium, chromium-browser or google-chrome on PATH")
		}
		t.Skip("no chromium on PATH")
	}
	results := wideClass(t)
	out := t.TempDir()
	if err := WriteAll(out, results); err != nil {
		t.Fatal(err)
	}
	page := readFile(t, filepath.Join(out, "index.html"))
	// The measuring script goes into a copy only: the page itself has none.
	probe := filepath.Join(out, "measure.html")
	if err := os.WriteFile(probe, []byte(strings.Replace(page, "</body>", measureScript+"\n</body>", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	dom := runBrowser(t, browser, "--dump-dom", "file://"+probe)
	mm := regexp.MustCompile(`<pre id="measure">(.*?)</pre>`).FindStringSubmatch(dom)
	if mm == nil {
		t.Fatalf("the browser ran no measurement:\n%s", dom)
	}
	var m measure
	if err := json.Unmarshal([]byte(strings.NewReplacer("&quot;", `"`, "&amp;", "&", "&lt;", "<", "&gt;", ">").Replace(mm[1])), &m); err != nil {
		t.Fatal(err)
	}
	t.Logf("viewport %.0f px; page %.0f px wide; first table %.0f px in a box of %.0f px, right edge at %.0f; grid %.0f px in a box of %.0f px",
		m.Viewport, m.PageWidth, m.FirstScroll, m.FirstBox, m.FirstRight, m.GridWidth, m.GridBox)
	if m.Viewport != 1280 {
		t.Errorf("viewport %.0f px, want 1280", m.Viewport)
	}
	if m.FirstScroll > m.FirstBox || m.FirstRight > m.Viewport {
		t.Errorf("first table %.0f px wide, right edge at %.0f px: does not fit its box of %.0f px", m.FirstScroll, m.FirstRight, m.FirstBox)
	}
	if m.PageWidth > m.Viewport {
		t.Errorf("the page is %.0f px wide at %.0f: it scrolls sideways", m.PageWidth, m.Viewport)
	}
	if m.GridBoxRight > m.Viewport || m.GridWidth <= m.GridBox {
		t.Errorf("grid %.0f px in a box of %.0f px ending at %.0f: want it wider than its box, the box on screen", m.GridWidth, m.GridBox, m.GridBoxRight)
	}
	want := 0
	for _, r := range results {
		if r.RunParsed != nil && serverNeverStarted(r) == nil {
			want += r.RunParsed.Failed
		}
	}
	if len(m.Links) != want {
		t.Errorf("first table links %d failed checks, want %d", len(m.Links), want)
	}
	for _, l := range m.Links {
		if l.Right > m.Viewport {
			t.Errorf("failed check %s at x=%.0f, beyond the %.0f px screen", l.Text, l.Right, m.Viewport)
		}
	}
	if dir := os.Getenv(screenshotEnv); dir != "" {
		shot, err := filepath.Abs(filepath.Join(dir, "class-page-1280.png"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		runBrowser(t, browser, "--screenshot="+shot, "file://"+filepath.Join(out, "index.html"))
		if fi, err := os.Stat(shot); err != nil || fi.Size() == 0 {
			t.Fatalf("no screenshot: %v", err)
		}
		fmt.Fprintf(os.Stderr, "screenshot of the class page at 1280 px: %s\n", shot)
	}
}
