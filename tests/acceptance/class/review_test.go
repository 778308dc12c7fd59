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
		"summary.csv": {"dee,9,0,0,1,,review,1,\n"},
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

// A count no run could bear out is contradicted by itself, with no check:
// every output gives the reason instead of a check's evidence.
func TestImpossibleCount(t *testing.T) {
	rec := strings.Replace(honest, "9 passed, 0 failed", "10 of 9 checks passed", 1)
	r := result(t, "eli", "python3 server.py {root}", contractRun("python3 server.py {root}", "process group only"), rec)
	if r.Record.State != record.Contradicted {
		t.Fatalf("state %s, want contradicted: %+v", r.Record.State, r.Record)
	}
	out := filepath.Join(t.TempDir(), "grades")
	if err := WriteAll(out, []*Result{r}); err != nil {
		t.Fatal(err)
	}
	const why = "10 is more than 9: no run can show it"
	for file, want := range map[string]string{
		"eli.md":     "Contradicted: line 2 of `COMPLETION.md` claims 10 of 9 passed:\n\n````text\nBoundary tests run: 10 of 9 checks passed\n````\n\nbut " + why + ".\n",
		"index.html": "<p>but " + why + ".</p>",
	} {
		if got := readFile(t, filepath.Join(out, file)); !strings.Contains(got, want) {
			t.Errorf("%s lacks %q:\n%s", file, want, got)
		}
	}
	var term strings.Builder
	WriteRecordCheck(&term, r)
	if want := "    but " + why + "\n"; !strings.Contains(term.String(), want) {
		t.Errorf("terminal output lacks %q:\n%s", want, term.String())
	}
}
