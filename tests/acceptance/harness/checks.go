package harness

import (
	"practice-notes/tests/acceptance/checks"
)

// Check 7: nothing changed on disk.
func (r *runner) check7(before snapshot) {
	c := r.checks[checks.FileStates().ID]
	after, err := takeSnapshot(r.lay.Base)
	if err != nil {
		c.fail("re-reading fixtures: %v", err)
		return
	}
	facts := &checks.Facts{Files: &checks.FileFacts{Before: before, After: after, Bodies: bodies(r.lay.Base, before, after)},
		OtherFiles: r.otherFiles, Calls: len(r.allExchanges)}
	for _, ex := range r.allExchanges {
		if ex.Error == "" {
			facts.Answered++
		}
	}
	r.judge(c, facts)
}
