package harness

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"practice-notes/tests/acceptance/checks"
)

// TestWriteTextShowsNoControls: what a server wrote reaches the terminal
// as visible escapes, never as a sequence the terminal would act on.
func TestWriteTextShowsNoControls(t *testing.T) {
	hostile := "boom \x1b]0;TITLE\x07 \x1b[2J \u009b31m \u202eevil\xff"
	rep := &Report{
		Server:     "python3 server.py {root} # \x1b[31m",
		ServerInfo: "notes\x1b[5m",
		Checks: []*CheckResult{{
			ID: "8", Status: checks.StatusFail, Failures: []string{"stderr: " + hostile},
			Evidence: "stderr: " + hostile + "\nreply: \u2066x\u2069",
			Hint:     "fix \x1b[0m",
		}},
	}
	var out bytes.Buffer
	rep.WriteText(&out)
	text := out.String()
	if !utf8.ValidString(text) {
		t.Errorf("the report is not valid UTF-8")
	}
	for _, bad := range []string{"\x1b", "\x07", "\u009b", "\u202e", "\u2066"} {
		if strings.Contains(text, bad) {
			t.Errorf("the report holds %q raw:\n%s", bad, text)
		}
	}
	for _, want := range []string{`\x1b]0;TITLE\a`, `\u202eevil`, `\x1b[31m`} {
		if !strings.Contains(text, want) {
			t.Errorf("the report does not show %s:\n%s", want, text)
		}
	}
}

// TestTextReportNotes checks that the text report prints a check's notes
// under its line, passed or failed: check 16's name the files a runtime
// wrote by itself, which are not charged.
func TestTextReportNotes(t *testing.T) {
	note := "runtime files, not charged: $PYTHONPYCACHEPREFIX (1 file, 236 bytes, Python's bytecode), in the process of check 1"
	rep := &Report{Checks: []*CheckResult{
		{ID: "16", Title: "nothing is written into HOME or TMPDIR", Status: checks.StatusPass, Summary: "HOME and TMPDIR stayed empty", Notes: []string{note}},
		{ID: "9", Title: "case", Status: checks.StatusFail, Failures: []string{"missed"}, Evidence: "FAIL: missed", Hint: "fold", Notes: []string{"second"}},
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
