package class

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRuntimeFilesOnLearnersPage checks that the learner's page names the
// files a runtime wrote by itself, as check 16's notes give them: escaped
// (a bunx folder is named after a package), bounded, and only those notes.
func TestRuntimeFilesOnLearnersPage(t *testing.T) {
	hostile := "$TMPDIR/bunx-1000-<img src=x onerror=alert(1)>@1.0.0 (3 files, Bun)"
	run := fullRun(t, "process group only", func(c *fakeCheck) {
		switch c.ID {
		case "16":
			c.Notes = []string{
				"runtime files, not charged: $BUN_RUNTIME_TRANSPILER_CACHE_PATH (12 files, 1204224 bytes, Bun's transpiled code), in the process of checks 1 and 2",
				"runtime files, not charged: " + hostile + ", in the process of check 9",
			}
			for i := range 20 {
				c.Notes = append(c.Notes, fmt.Sprintf("runtime files, not charged: $HOME/.cache/deno (%d files, Deno), in the process of check 9", i+1))
			}
		case "1":
			c.Notes = []string{"the process did not exit within 2s of stdin closing; the harness sent SIGTERM"}
		}
	})
	var b strings.Builder
	if err := writeFeedback(&b, result(t, "ana", "bun run server.ts", run, "")); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	_, section, ok := strings.Cut(md, "## Runtime files, not charged\n\n")
	if !ok {
		t.Fatalf("no runtime section:\n%s", md)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var items []string
	for _, l := range strings.Split(section, "\n") {
		if strings.HasPrefix(l, "- ") {
			items = append(items, l)
		}
	}
	if diff := cmp.Diff(evidenceLines, len(items)); diff != "" {
		t.Errorf("items listed (-want +got):\n%s\n%s", diff, section)
	}
	if !strings.Contains(items[0], "TRANSPILER") || !strings.Contains(items[0], "12 files, 1204224 bytes") {
		t.Errorf("first item: %q", items[0])
	}
	if m := regexp.MustCompile(`(^|[^\\])<img`).FindString(section); m != "" {
		t.Errorf("a runtime folder's name is live markup:\n%s", section)
	}
	if !strings.Contains(section, "bunx-1000-") {
		t.Errorf("the bunx folder is not named:\n%s", section)
	}
	if strings.Contains(md, "did not exit within") {
		t.Errorf("a note that is not a runtime's is on the page:\n%s", md)
	}
}
