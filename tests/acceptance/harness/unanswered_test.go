package harness

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"practice-notes/tests/acceptance/checks"
	"practice-notes/tests/acceptance/record"
)

// The grader reads a run's unanswered calls from --json: what the
// harness writes is what record decodes, field by field.
func TestUnansweredReachTheGrader(t *testing.T) {
	rep := &Report{Checks: []*CheckResult{{ID: "1", Status: checks.StatusFail}}, Failed: 1, Seed: 9,
		Unanswered: []Unanswered{{Check: "1", Phase: "the generated phase (seed 9)", Method: "tools/call search_notes",
			Error: "no answer within 10s (context deadline exceeded); meanwhile the server used 0 ms of CPU, asleep at the limit"}}}
	data, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	run, err := record.DecodeRun(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var want []record.Unanswered
	for _, u := range rep.Unanswered {
		want = append(want, record.Unanswered(u))
	}
	if diff := cmp.Diff(want, run.Unanswered); diff != "" {
		t.Errorf("unanswered calls as the grader reads them (-written +read):\n%s", diff)
	}
}
