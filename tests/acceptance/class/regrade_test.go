package class

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A learner whose run left a call unanswered is graded once more, and
// only they are: the runs that disagree are marked to review with the
// first run's call, a hang that repeats stands, and a second run that
// gives no result leaves the first run's results.
func TestRegradeAfterAnUnansweredCall(t *testing.T) {
	g := fakeGrader(t)
	dir := makeClass(t, map[string]string{
		"ann": "stall-once",
		"ben": "stall-always",
		"cat": "stall-then-garbage",
		"dan": "fail 4",
	}, nil)
	learners, err := Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	results := g.Grade(context.Background(), learners, nil)

	type row struct {
		Learner     string
		Runs        int
		Failed      []string
		FirstFailed []string
		FirstSeed   uint64
		SecondError string
		Review      bool
		Regraded    string
	}
	var got []row
	for i, r := range results {
		runs, _ := os.ReadFile(filepath.Join(learners[i].Dir, "runs"))
		rw := row{Learner: r.Learner, Runs: len(runs), Review: r.ToReview()}
		rw.Regraded, _ = regradeOutcome(r)
		if r.RunParsed != nil {
			rw.Failed = r.RunParsed.FailedIDs()
		}
		if fr := r.FirstRun; fr != nil {
			rw.FirstFailed, rw.FirstSeed, rw.SecondError = fr.Failed, fr.Seed, strings.SplitN(fr.Error, ":", 2)[0]
			if len(fr.Unanswered) != 1 || !strings.Contains(regradeWords(r), "check 1, tools/call search_notes: no answer within 10s (context deadline exceeded); meanwhile the server used 100 ms of CPU") {
				t.Errorf("%s: the first run's unanswered call is not named: %+v\n%s", r.Learner, fr.Unanswered, regradeWords(r))
			}
		}
		got = append(got, rw)
	}
	want := []row{
		{Learner: "ann", Runs: 2, FirstFailed: []string{"1"}, FirstSeed: 1, Review: true,
			Regraded: "to review: the first run left a call unanswered, the second answered every call"},
		{Learner: "ben", Runs: 2, Failed: []string{"1"}, FirstFailed: []string{"1"}, FirstSeed: 1,
			Regraded: "both runs left a call unanswered"},
		{Learner: "cat", Runs: 2, Failed: []string{"1"}, FirstFailed: []string{"1"}, FirstSeed: 1,
			SecondError: "acceptance output not in the --json shape", Regraded: "the second run gave no result"},
		{Learner: "dan", Runs: 0, Failed: []string{"4"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
	// ben's result is the second run's: its own seed and CPU time.
	if r := results[1]; r.RunParsed == nil || r.RunParsed.Seed != 2 || !strings.Contains(r.RunParsed.Unanswered[0].Error, "used 200 ms") {
		t.Errorf("ben's result is not the second run's: %+v", r.RunParsed)
	}
	// cat keeps the first run's results.
	if r := results[2]; !r.Graded || r.RunParsed.Seed != 1 {
		t.Errorf("cat's result is not the first run's: graded %v, %+v", r.Graded, r.RunParsed)
	}
	if got, want := SummaryLine(results), "4 learners graded, 1 passed every check; to review (a call unanswered in one run of two): ann"; got != want {
		t.Errorf("summary line %q, want %q", got, want)
	}
}
