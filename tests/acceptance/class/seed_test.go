package class

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"practice-notes/tests/acceptance/record"
)

// TestFeedbackSeed: a learner's feedback states the seed of the run's
// generated cases and how to replay them.
func TestFeedbackSeed(t *testing.T) {
	var run map[string]any
	if err := json.Unmarshal([]byte(contractRun("python3 server.py {root}", "process group only", "1")), &run); err != nil {
		t.Fatal(err)
	}
	run["seed"] = 4242
	data, err := json.Marshal(run)
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := record.DecodeRun(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	r := &Result{Learner: "ada", Command: "python3 server.py {root}", Graded: true, RunParsed: parsed, Run: data}
	r.Record = record.Judge("", parsed)
	var b strings.Builder
	if err := writeFeedback(&b, r); err != nil {
		t.Fatal(err)
	}
	if want := "- Generated cases: seed 4242; the same cases again: add --seed 4242 to the command under \"Rerun the checks\"\n"; !strings.Contains(b.String(), want) {
		t.Errorf("feedback lacks %q:\n%s", want, b.String())
	}
}
