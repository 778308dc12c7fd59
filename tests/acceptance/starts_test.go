//go:build live

package acceptance_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"practice-notes/tests/acceptance/checks"
	"practice-notes/tests/acceptance/harness"
)

// TestStartFailsOverTraps grades a correct server that cannot start while
// the traps are in the root (it walks the root at start and gives up on
// the FIFO): check 20, whose start it is, fails; checks 22 and 16, which
// come after, run in starts of their own and pass.
func TestStartFailsOverTraps(t *testing.T) {
	t.Parallel()
	bin := buildServer(t, "learner-go-traps", "./testdata/learners/go")
	script := `[ -p "$1/traps/pipe-note.md" ] && { echo "walking the root: a FIFO" >&2; exit 3; }; exec "$2" -root "$1"`
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	rep, err := harness.Run(ctx, harness.Config{
		Server:       "sh -c '" + script + "' server {root} " + bin,
		ServerDir:    binDir,
		PracticeData: testPracticeData,
		ExitTimeout:  2 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	rep.WriteText(&out)
	if diff := cmp.Diff([]string{"20"}, rep.IDs(checks.StatusFail)); diff != "" {
		t.Errorf("failed checks (-want +got):\n%s\n%s", diff, out.String())
	}
	if diff := cmp.Diff([]string(nil), rep.IDs(checks.StatusSkip), cmpEmpty); diff != "" {
		t.Errorf("checks not run (-want +got):\n%s\n%s", diff, out.String())
	}
	if !strings.Contains(out.String(), "exit status 3") {
		t.Errorf("check 20 does not show how its start failed:\n%s", out.String())
	}
}
