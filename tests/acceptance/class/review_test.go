package class

import (
	"path/filepath"
	"strings"
	"testing"

	"practice-notes/tests/acceptance/record"
)

// A record the reader does not wholly understand is graded review, and
// every output shows that state beside the lines a person must read.
func TestReviewRecord(t *testing.T) {
	rec := honest + "\nOverall it went fine and the result looks good.\n"
	r := result(t, "dee", "python3 server.py {root}", contractRun("python3 server.py {root}", "process group only"), rec)
	if r.Record.State != record.Review {
		t.Fatalf("state %s, want review: %+v", r.Record.State, r.Record)
	}
	out := filepath.Join(t.TempDir(), "grades")
	if err := WriteAll(out, []*Result{r}); err != nil {
		t.Fatal(err)
	}
	for file, wants := range map[string][]string{
		"summary.csv": {"dee,9,0,1,,review,1\n"},
		"dee.md": {"## Completion record: review\n",
			"### Read these yourself\n",
			"Line 8, a claim that names no test:\n\n````text\nOverall it went fine and the result looks good.\n````\n"},
		"index.html": {`<td class="rec-review"><a href="#learner-1-record">review</a>, <a href="#learner-1-unread">1 line to read</a></td>`,
			"Overall it went fine and the result looks good."},
	} {
		got := readFile(t, filepath.Join(out, file))
		for _, want := range wants {
			if !strings.Contains(got, want) {
				t.Errorf("%s lacks %q:\n%s", file, want, got)
			}
		}
	}
}
