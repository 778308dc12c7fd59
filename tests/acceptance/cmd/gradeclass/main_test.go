package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestUsageErrors(t *testing.T) {
	empty := t.TempDir()
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"no class folder", []string{"-harness", "h", "-practice-data", "p"}, "usage: grade-class.sh"},
		{"two class folders", []string{"-harness", "h", "-practice-data", "p", empty, empty}, "usage: grade-class.sh"},
		{"no such folder", []string{"-harness", "h", "-practice-data", "p", filepath.Join(empty, "nope")}, "grade-class: class folder: open"},
		{"no learners", []string{"-harness", "h", "-practice-data", "p", empty}, "grade-class: no learner folders in"},
		{"-j 0", []string{"-harness", "h", "-practice-data", "p", "-j", "0", empty}, "usage: grade-class.sh"},
		{"unknown flag", []string{"-x", empty}, "flag provided but not defined: -x"},
		{"-completion without -run", []string{"-completion", "COMPLETION.md"}, "-completion and -run go together"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if code := run(tt.args, &out, &errb); code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if !strings.Contains(errb.String(), tt.wantErr) {
				t.Errorf("stderr %q lacks %q", errb.String(), tt.wantErr)
			}
			if out.Len() != 0 {
				t.Errorf("stdout %q, want nothing", out.String())
			}
		})
	}
}

func TestRecordMode(t *testing.T) {
	dir := t.TempDir()
	runJSON := `{"server":"s {root}","isolation":"process group only","passed":1,"failed":1,"warnings":0,"skipped":0,"checks":[
		{"id":"1","section":"acceptance","title":"sign-in","status":"pass","evidence":"","hint":""},
		{"id":"5","section":"acceptance","title":"symlink","status":"fail","evidence":"<- secret-token leaked\nmore","hint":"Refuse symlinks."}]}`
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	runFile := write("run.json", runJSON)
	rec := write("COMPLETION.md", "Boundary tests run: 8/8 passed\n")
	var out, errb bytes.Buffer
	if code := run([]string{"-completion", rec, "-run", runFile}, &out, &errb); code != 1 {
		t.Errorf("exit %d, want 1; stderr %s", code, errb.String())
	}
	want := "PASS 1 sign-in\nFAIL 5 symlink\n    <- secret-token leaked\n    more\n    fix: Refuse symlinks.\nrecord " + rec + ": contradicted\n" +
		"  contradicted: line 1 claims the acceptance tests passed: Boundary tests run: 8/8 passed\n" +
		"    but check 5 failed: <- secret-token leaked\n"
	if !strings.HasPrefix(out.String(), want) || !strings.HasSuffix(out.String(), "\n1 passed, 1 failed\n") {
		t.Errorf("output:\n%s\nwant it to start with:\n%s", out.String(), want)
	}

	bad := write("bad.json", `{"passed":3,"checks":[]}`)
	out.Reset()
	errb.Reset()
	if code := run([]string{"-completion", rec, "-run", bad}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "not in the --json shape") {
		t.Errorf("bad run: exit %d, stderr %q", code, errb.String())
	}
}

// Nothing from the run or the record reaches the terminal as a control or
// bidi character: scripts/acceptance.sh --completion prints this.
func TestRecordModeEscapes(t *testing.T) {
	dir := t.TempDir()
	hostile := `\u001b]0;pwned\u0007\u001b[2J\u009b31m\u202e`
	runJSON := `{"server":"s","isolation":"x","passed":0,"failed":1,"warnings":0,"skipped":0,"checks":[
		{"id":"5","section":"acceptance","title":"symlink ` + hostile + `","status":"fail","evidence":"<- leaked ` + hostile + `\nstderr: ` + hostile + `","hint":"Refuse ` + hostile + `"}]}`
	runFile := filepath.Join(dir, "run.json")
	rec := filepath.Join(dir, "COMPLETION.md")
	if err := os.WriteFile(runFile, []byte(runJSON), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(rec, []byte("Boundary tests run: all passed \x1b]0;pwned\x07\u202e\nClient and transport: stdio \x1b[2J\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"-completion", rec, "-run", runFile}, &out, &errb); code != 1 {
		t.Fatalf("exit %d; stderr %s", code, errb.String())
	}
	for _, r := range out.String() {
		if (r < 0x20 && r != '\n') || (r >= 0x7f && r < 0xa0) || (r >= 0x202a && r <= 0x202e) {
			t.Fatalf("raw %U reached the terminal:\n%s", r, out.String())
		}
	}
	for _, want := range []string{`FAIL 5 symlink \x1b]0;pwned\a\x1b[2J\u009b31m\u202e`, `claims the boundary tests passed: Boundary tests run: all passed \x1b]0;pwned\a\u202e`, `but check 5 failed: <- leaked \x1b]0;pwned\a\x1b[2J\u009b31m\u202e`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}
