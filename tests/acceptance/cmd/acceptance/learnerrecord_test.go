package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"practice-notes/tests/acceptance/checks"
	"practice-notes/tests/acceptance/harness"
)

func report(status checks.Status) *harness.Report {
	r := &harness.Report{Date: time.Date(2026, 12, 4, 9, 0, 0, 0, time.UTC), Server: "python3 s.py {root}"}
	for _, id := range []string{"1", "8"} {
		r.Checks = append(r.Checks, &harness.CheckResult{ID: id, Section: harness.SectionAcceptance, Title: "check " + id, Status: status, Evidence: "FAIL: seen"})
	}
	if status == checks.StatusFail {
		r.Failed = 2
	} else {
		r.Passed = 2
	}
	return r
}

// --learner-record writes a record, rewrites one it wrote keeping what a
// person put in its blanks, and never overwrites a record written by hand.
func TestWriteLearnerRecord(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "COMPLETION.md")
	if err := writeLearnerRecord(path, report(checks.StatusPass)); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if !strings.Contains(string(b), "| 8 | PASS |") || !strings.Contains(string(b), "**Exact passage manually checked:** ___") {
		t.Fatalf("first record:\n%s", b)
	}
	filled := strings.Replace(string(b), "___ (who compared the passage the server returned for sign-in with sample-notes.md, and on what date)", "amal, 2026-12-03", 1)
	if err := os.WriteFile(path, []byte(filled), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := writeLearnerRecord(path, report(checks.StatusFail)); err != nil {
		t.Fatal(err)
	}
	b, _ = os.ReadFile(path)
	if !strings.Contains(string(b), "| 8 | FAIL |") || !strings.Contains(string(b), "**Exact passage manually checked:** amal, 2026-12-03\n") {
		t.Fatalf("regenerated record:\n%s", b)
	}
	hand := filepath.Join(dir, "hand.md")
	if err := os.WriteFile(hand, []byte("Boundary tests run: all passed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := writeLearnerRecord(hand, report(checks.StatusPass)); err == nil {
		t.Errorf("a hand-written record was overwritten")
	}
	if b, _ := os.ReadFile(hand); string(b) != "Boundary tests run: all passed\n" {
		t.Errorf("hand-written record changed: %q", b)
	}
}
