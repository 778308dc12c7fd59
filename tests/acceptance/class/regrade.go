package class

import (
	"context"
	"fmt"
	"strings"

	"practice-notes/tests/acceptance/record"
)

// A call left unanswered is the server's fault when it hangs, always or
// sometimes, and the machine's when it was too loaded to give the server
// a CPU within the limit: one run cannot tell them apart. So a learner
// whose run left a call unanswered is graded once more. When the second
// run leaves one too, the hang is the server's and the second run's
// results stand. When it answers every call, the two runs disagree: the
// second run's results are shown, and the learner is marked for a person
// to review, with the first run's unanswered calls and failed checks.

// FirstRun is what the first of a learner's two runs showed.
type FirstRun struct {
	// Seed replays the first run's generated cases.
	Seed       uint64              `json:"seed,omitempty"`
	Unanswered []record.Unanswered `json:"unanswered"`
	Failed     []string            `json:"failed"`
	// Error says why the second run gave no result; the first run's
	// results are the learner's then.
	Error string `json:"secondRunError,omitempty"`
}

// regrade grades a learner whose run r left a call unanswered a second
// time, and keeps the second run in r with the first one's summary in
// r.FirstRun.
func (g *Grader) regrade(ctx context.Context, l Learner, r *Result, slot int) {
	first := r.RunParsed
	if first == nil || len(first.Unanswered) == 0 || ctx.Err() != nil {
		return
	}
	fr := &FirstRun{Seed: first.Seed, Unanswered: first.Unanswered, Failed: first.FailedIDs()}
	second := &Result{Learner: r.Learner, Command: r.Command}
	g.runHarness(ctx, l, second, slot)
	if second.RunParsed == nil {
		fr.Error = second.Error
		r.FirstRun = fr
		return
	}
	second.FirstRun = fr
	*r = *second
}

// ToReview reports whether r's two runs disagree: the first left a call
// unanswered and the second answered every call.
func (r *Result) ToReview() bool {
	return r.FirstRun != nil && r.FirstRun.Error == "" && r.RunParsed != nil && len(r.RunParsed.Unanswered) == 0
}

// regradeOutcome says which run's results r shows and why, as a word for
// the CSV's regraded cell and as the end of regradeWords' sentence;
// both "" when r was graded once.
func regradeOutcome(r *Result) (cell, words string) {
	switch fr := r.FirstRun; {
	case fr == nil:
		return "", ""
	case fr.Error != "":
		return "the second run gave no result", "; the second run gave no result (" + fr.Error + "), so these are the first run's results."
	case r.ToReview():
		return "to review: the first run left a call unanswered, the second answered every call",
			"; the second run answered every call, and these are its results. " +
				"A server that sometimes hangs and a machine too loaded to run it within the limit look the same to the harness: a person decides."
	default:
		return "both runs left a call unanswered", "; the second run left a call unanswered too, so these are its results."
	}
}

// regradeWords says, not escaped, why r was graded twice and whose
// results are shown; "" when it was graded once.
func regradeWords(r *Result) string {
	fr := r.FirstRun
	if fr == nil {
		return ""
	}
	first := fmt.Sprintf("the first run left %s unanswered (%s)", callCount(len(fr.Unanswered)), unansweredWords(fr.Unanswered[0]))
	if len(fr.Failed) > 0 {
		first += " and failed " + checkList(fr.Failed)
	}
	if fr.Seed != 0 {
		first += fmt.Sprintf(" (seed %d)", fr.Seed)
	}
	lead := "Graded twice: "
	if r.ToReview() {
		lead = "To review, graded twice: "
	}
	_, words := regradeOutcome(r)
	return lead + first + words
}

// writeRegraded tells a learner graded twice why, and quotes the first
// run's unanswered calls in full.
func writeRegraded(b *strings.Builder, r *Result) {
	fr := r.FirstRun
	if fr == nil {
		return
	}
	fmt.Fprintf(b, "## Graded twice\n\n%s\n\n", mdInline(regradeWords(r)))
	var calls []string
	for _, u := range fr.Unanswered {
		calls = append(calls, unansweredWords(u))
	}
	fmt.Fprintf(b, "The first run's unanswered calls:\n\n%s\n", mdFence(strings.Join(calls, "\n")))
}

// unansweredWords names one unanswered call with the harness's words.
func unansweredWords(u record.Unanswered) string {
	during := "check " + u.Check
	if u.Phase != "" {
		during = u.Phase
	}
	return clipWords(during+", "+u.Method+": "+u.Error, 300)
}

func callCount(n int) string {
	if n == 1 {
		return "1 call"
	}
	return fmt.Sprintf("%d calls", n)
}

func checkList(ids []string) string {
	if len(ids) == 1 {
		return "check " + ids[0]
	}
	return "checks " + strings.Join(ids, ", ")
}
