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
	if diff := cmp.Diff([]string{"8"}, rep.IDs(harness.StatusFail)); diff != "" {
		t.Errorf("failed checks (-want +got):\n%s\n%s", diff, out.String())
	}
	for _, c := range rep.Checks {
		if c.ID == "8" || c.Section == harness.SectionProtocol {
			continue
		}
		if c.Status != harness.StatusSkip || !strings.HasPrefix(c.SkipReason, "not graded: the server did not answer") {
			t.Errorf("check %s is %s (%q), want not graded", c.ID, c.Status, c.SkipReason)
		}
	}
}
