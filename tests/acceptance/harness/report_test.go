package harness

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestTextReportNotes checks that the text report prints a check's notes
// under its line, passed or failed: check 16's name the files a runtime
// wrote by itself, which are not charged.
func TestTextReportNotes(t *testing.T) {
	note := "runtime files, not charged: $PYTHONPYCACHEPREFIX (1 file, 236 bytes, Python's bytecode), in the process of check 1"
	rep := &Report{Checks: []*CheckResult{
		{ID: "16", Title: "nothing is written into HOME or TMPDIR", Status: StatusPass, Summary: "HOME and TMPDIR stayed empty", Notes: []string{note}},
		{ID: "9", Title: "case", Status: StatusFail, Failures: []string{"missed"}, Evidence: "FAIL: missed", Hint: "fold", Notes: []string{"second"}},
	}}
	var out strings.Builder
	rep.WriteText(&out)
	var got []string
	for _, l := range strings.Split(out.String(), "\n") {
		if !strings.HasPrefix(l, "# ") {
			got = append(got, l)
		}
	}
	want := []string{
		"PASS 16 HOME and TMPDIR stayed empty",
		"    note: " + note,
		"FAIL 9 missed",
		"    FAIL: missed",
		"    fix: fold",
		"    note: second",
		"0 passed, 0 failed",
		"",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("text report (-want +got):\n%s", diff)
	}
}
