//go:build live

package acceptance_test

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"practice-notes/tests/acceptance/checks"
	"practice-notes/tests/acceptance/harness"
)

// TestServerThatAnswersNothing grades a server whose client session is
// dropped right after initialize (it answers the initialized notification
// with an error reply that has no id): no tools/call is ever answered, so
// no check that needs an answer may pass or fail on it. Check 8 fails,
// its raw-line protocol checks are judged on the lines they read, and
// every other check is reported as not graded.
func TestServerThatAnswersNothing(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("SKIP: node is not on PATH; the server is a Node.js script")
	}
	script, err := filepath.Abs(filepath.Join("testdata", "learners", "noderaw", "server.js"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := harness.Run(context.Background(), harness.Config{
		Server:       node + " " + script + " --vault {root} --defect notify-error",
		PracticeData: testPracticeData,
		Timeout:      10 * time.Second,
		ExitTimeout:  2 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	rep.WriteText(&out)
	checkContract(t, rep)
	if diff := cmp.Diff([]string{"8"}, rep.IDs(checks.StatusFail)); diff != "" {
		t.Errorf("failed checks (-want +got):\n%s\n%s", diff, out.String())
	}
	// Check 8 quotes the line that broke the session, and first.
	for _, c := range rep.Checks {
		if c.ID != "8" {
			continue
		}
		if len(c.Failures) == 0 || !strings.HasPrefix(c.Failures[0], "the server wrote a reply with no id") ||
			!strings.Contains(c.Failures[0], "notifications/initialized") {
			t.Errorf("check 8's first failure does not name the id-less reply: %q", c.Failures)
		}
		if !strings.Contains(c.Evidence, `stdout: {"jsonrpc":"2.0","error":{"code":-32601,"message":"method not found: notifications/initialized"}}`) {
			t.Errorf("check 8's evidence does not quote the id-less line:\n%s", c.Evidence)
		}
	}
	for _, c := range rep.Checks {
		if c.ID == "8" || c.Section == harness.SectionProtocol {
			continue
		}
		if c.Status != checks.StatusSkip || !strings.HasPrefix(c.SkipReason, "not graded: the server did not answer") {
			t.Errorf("check %s is %s (%q), want not graded", c.ID, c.Status, c.SkipReason)
		}
	}
}

// TestPrettyPrintedReplies grades a server that writes every reply
// indented over several lines: no client reads such a reply, and the run
// says so within the request limit of the first such line instead of
// waiting out the start limit, naming the split message under check 8;
// no other check is graded.
func TestPrettyPrintedReplies(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("SKIP: python3 is not on PATH; the server is a Python script")
	}
	script, err := filepath.Abs(filepath.Join("testdata", "learners", "pyquote", "server.py"))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	rep, err := harness.Run(context.Background(), harness.Config{
		Server:       python + " " + script + " --notes-dir {root} --defect pretty",
		PracticeData: testPracticeData,
		Timeout:      2 * time.Second,
		StartTimeout: 60 * time.Second,
		ExitTimeout:  2 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 40*time.Second {
		t.Errorf("run took %s: the split reply waited out the 60 s start limit", took)
	}
	checkContract(t, rep)
	var out bytes.Buffer
	rep.WriteText(&out)
	if diff := cmp.Diff([]string{"8"}, rep.IDs(checks.StatusFail)); diff != "" {
		t.Errorf("failed checks (-want +got):\n%s\n%s", diff, out.String())
	}
	for _, c := range rep.Checks {
		if c.ID != "8" && (c.Status != checks.StatusSkip || !strings.HasPrefix(c.SkipReason, "not graded: the server did not answer; see check 8")) {
			t.Errorf("check %s is %s (%q), want not graded", c.ID, c.Status, c.SkipReason)
		}
	}
	c8 := rep.Checks[7]
	if c8.ID != "8" || len(c8.Failures) == 0 || !strings.Contains(c8.Failures[0], "within 2s (the request limit)") ||
		!strings.Contains(c8.Failures[0], "a JSON-RPC message split over") {
		t.Errorf("check 8 does not report the split reply within the request limit: %q", c8.Failures)
	}
	if !strings.Contains(c8.Evidence, `in the process of check 1; the first: a JSON-RPC message split over`) ||
		!strings.Contains(c8.Evidence, `"{", then "  \"jsonrpc\": \"2.0\","`) {
		t.Errorf("check 8 does not quote the split reply's first two lines:\n%s", c8.Evidence)
	}
}
