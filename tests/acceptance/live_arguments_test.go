//go:build live

package acceptance_test

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"practice-notes/tests/acceptance/checks"
	"practice-notes/tests/acceptance/harness"
)

// TestDeclaredArgumentLeavesRoot grades a server whose search_notes takes
// an optional folder that it resolves against the root and never checks:
// check 4 sends ../outside.md, the folder above the root and the outside
// files by absolute path in that argument, and fails on what its own
// probes bring back, not only on what check 17's do.
func TestDeclaredArgumentLeavesRoot(t *testing.T) {
	node := need(t, "node")
	script, err := filepath.Abs(filepath.Join("testdata", "learners", "noderaw", "server.js"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := harness.Run(context.Background(), harness.Config{
		Server:       node + " " + script + " --vault {root} --defect folder-unchecked",
		PracticeData: testPracticeData,
		Timeout:      10 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	rep.WriteText(&out)
	checkContract(t, rep)
	if diff := cmp.Diff([]string{"4", "17", "18"}, rep.IDs(checks.StatusFail)); diff != "" {
		t.Errorf("failed checks (-want +got):\n%s\n%s", diff, out.String())
	}
	for _, c := range rep.Checks {
		if c.ID == "4" && (len(c.Failures) == 0 || !strings.HasPrefix(c.Failures[0], "text of ../outside.md") ||
			!strings.Contains(c.Evidence, `"folder":".."`)) {
			t.Errorf("check 4 does not fail on its own folder probe first: %q\n%s", c.Failures, c.Evidence)
		}
	}
}
