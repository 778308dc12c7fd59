package harness

import (
	"context"

	"practice-notes/tests/acceptance/checks"
)

// check1 runs check 1 from its value; its search is the reference of
// checks 9 and 20.
func (r *runner) check1(ctx context.Context, s *session, c *CheckResult) {
	r.signIn = r.probeAndJudge(ctx, s, c)[checks.SignIn]
}

// Check 7: nothing changed on disk.
func (r *runner) check7(before snapshot) {
	c := r.checks["7"]
	after, err := takeSnapshot(r.lay.Base)
	if err != nil {
		c.fail("re-reading fixtures: %v", err)
		return
	}
	facts := &checks.Facts{Files: &checks.FileFacts{Before: before, After: after, Bodies: bodies(r.lay.Base, before, after)}, Calls: len(r.allExchanges)}
	for _, ex := range r.allExchanges {
		if !ex.failed() {
			facts.Answered++
		}
	}
	r.judge(c, facts)
}
