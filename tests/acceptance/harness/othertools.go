package harness

import (
	"context"
	"maps"

	"practice-notes/tests/acceptance/checks"
)

// The tools a server declares besides search_notes are called in a
// process of their own, after the search checks, so that nothing such a
// tool changes disturbs them; the sandbox contains whatever it does and
// check 7 sees it. A check with calls of that kind (checks.Check.Tools)
// probes search_notes and resources in its place among the search checks,
// waits, sends its other calls here, and is judged on both. A tool that
// says it writes is never called (checks.MayCall; check 14 lists it).

// waiting is a check probed among the search checks whose judge waits for
// its calls to the other tools.
type waiting struct {
	c     *CheckResult
	facts *checks.Facts
	shown map[string]*Exchange
}

// hasOtherTools says whether a process's tools/list declared a tool
// besides search_notes that the harness may call with a string.
func hasOtherTools(declared []pathTool) bool {
	for _, t := range declared {
		if t.name != "search_notes" {
			return true
		}
	}
	return false
}

// otherToolsGroup starts the process of other tools when a server process
// declared one, runs the waiting checks' calls to them there, and judges
// every waiting check.
func (r *runner) otherToolsGroup(ctx context.Context, version string) {
	if r.otherTools && r.notStarted == "" && r.notRun == "" {
		var steps []step
		for _, wt := range r.waiting {
			steps = append(steps, step{id: wt.c.ID, fn: func(ctx context.Context, s *session, c *CheckResult) { r.callOthers(ctx, s, wt) }})
		}
		r.inGroup(ctx, version, steps)
	}
	for _, wt := range r.waiting {
		r.judgeProbed(wt.c, wt.facts, wt.shown)
	}
	r.waiting = nil
}

// callOthers sends a waiting check's calls to the other tools and adds
// what they recorded to its facts.
func (r *runner) callOthers(ctx context.Context, s *session, wt *waiting) {
	w := &clientWire{ctx: ctx, s: s, shown: map[string]*Exchange{}}
	wt.c.def.Tools(w, wt.facts)
	f := wt.facts
	f.Exchanges = append(f.Exchanges, w.recorded...)
	truth := r.truthFor(w.recorded)
	if f.Truth == nil {
		f.Truth = truth
	} else {
		maps.Copy(f.Truth, truth)
	}
	if s.tools != nil {
		f.PathTools, f.ToolArgs = w.PathTools(), w.ToolArgs()
	}
	maps.Copy(wt.shown, w.shown)
}
