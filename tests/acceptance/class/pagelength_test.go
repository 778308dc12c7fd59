package class

import (
	"fmt"
	"strings"
	"testing"
)

// screenLines is what a learner sees of a page without scrolling.
const screenLines = 40

// outsideFolds drops the lines inside <details> folds, which a reader
// opens only when they want them.
func outsideFolds(md string) []string {
	var out []string
	folded := false
	for _, l := range strings.Split(md, "\n") {
		switch {
		case strings.HasPrefix(l, "<details>"):
			folded = true
		case l == "</details>":
			folded = false
		case !folded:
			out = append(out, l)
		}
	}
	return out
}

// A failed learner's page reads in one screen per failed check: for each,
// its findings and what to fix, with the evidence (here 40 long lines
// each) behind a fold.
func TestFailedPageFitsOneScreenPerCheck(t *testing.T) {
	evidence := strings.Repeat(`-> tools/call search_notes {"query":"../outside.md"}`+"\n<- text: "+strings.Repeat("secret ", 80)+"\n", 20)
	failed := []string{"4", "5", "9"}
	runJSON := fullRun(t, "process group", func(c *fakeCheck) {
		for _, id := range failed {
			if c.ID == id {
				c.Status, c.Hint = "fail", "Refuse every path outside the root before opening it, and say so in a tool error."
				c.Failures = []string{
					fmt.Sprintf("path outside the root was served for check %s: %s", id, strings.Repeat("detail ", 40)),
					"the reply quoted bytes of a file outside the root",
				}
				c.Evidence = "FAIL: " + c.Failures[0] + "\n" + evidence
			}
		}
	})
	r := result(t, "amal", "python3 server.py --root {root}", runJSON, "")
	var b strings.Builder
	if err := writeFeedback(&b, r); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	visible := outsideFolds(page)
	if max := screenLines * len(failed); len(visible) > max {
		t.Errorf("page of %d lines outside folds, want at most %d (%d a failed check):\n%s", len(visible), max, screenLines, strings.Join(visible, "\n"))
	}
	sections := strings.Split(strings.Join(visible, "\n"), "\n### Check ")
	if len(sections) != len(failed)+1 {
		t.Fatalf("%d check sections, want %d:\n%s", len(sections)-1, len(failed), page)
	}
	for _, s := range sections[1:] {
		s, _, _ = strings.Cut(s, "\n## ")
		if n := strings.Count(s, "\n"); n > screenLines/3 {
			t.Errorf("check %s takes %d lines outside its fold, want at most %d:\n%s", strings.Fields(s)[0], n, screenLines/3, s)
		}
	}
	if n := strings.Count(page, "<details><summary>Evidence</summary>"); n != len(failed) {
		t.Errorf("%d folded evidence blocks, want one for each failed check:\n%s", n, page)
	}
	if !strings.Contains(page, "Cut; the whole transcript is in amal.json.") {
		t.Errorf("the page does not say where the whole evidence is:\n%s", page)
	}
}
