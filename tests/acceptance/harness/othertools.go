package harness

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"

	"practice-notes/tests/acceptance/checks"
)

// The tools a server declares besides search_notes are called in a
// process of their own, after every search check, on a fresh copy of the
// fixtures planted from the run's seed where the fixtures were, so that
// nothing such a tool changes reaches what the search checks judged; the
// sandbox contains whatever it does, and check 7 sees what it changed in
// the copy. A check with calls of that kind (checks.Check.Tools) probes
// search_notes and resources in its place among the search checks,
// waits, sends its other calls here, and is judged on both. A tool whose
// words or annotations say it may change anything is never called
// (checks.MayCall; check 14 lists it).

// waiting is a check probed among the search checks whose judge waits for
// its calls to the other tools.
type waiting struct {
	c     *CheckResult
	facts *checks.Facts
	shown map[string]*checks.Exchange
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
		if restore, err := r.freshFixtures(r.sb.GiveFixtures); err != nil {
			// No tool that might change the searched fixtures is called
			// on them: the checks are judged on their searches alone, and
			// say so.
			for _, wt := range r.waiting {
				wt.c.note("the tools besides search_notes were not called: no fresh copy of the fixtures could be made for them (%v)", err)
				wt.facts.PathTools = nil
				wt.facts.ToolArgs = slices.DeleteFunc(wt.facts.ToolArgs, func(a checks.ToolArg) bool { return a.Tool != "search_notes" })
			}
		} else {
			r.inOtherTools = true
			r.inGroup(ctx, version, steps)
			r.inOtherTools = false
			if err := restore(); err != nil {
				r.checks[checks.FileStates().ID].fail("putting back the fixtures of the search checks: %v", err)
			}
		}
	}
	for _, wt := range r.waiting {
		r.judgeProbed(wt.c, wt.facts, wt.shown)
	}
	r.waiting = nil
}

// callOthers sends a waiting check's calls to the other tools and adds
// what they recorded to its facts.
func (r *runner) callOthers(ctx context.Context, s *session, wt *waiting) {
	w := &clientWire{ctx: ctx, s: s, shown: map[string]*checks.Exchange{}}
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

// freshFixtures sets the searched fixtures aside and plants them again
// from the run's seed in the same folder, so that every path a check
// sends means what it meant among the search checks; give hands the copy
// to the server's uid, as the sandbox did the first. restore records
// the copy's states for check 7, removes the copy (or keeps it beside
// the fixtures, named -other-tools, when the run keeps its temp folder)
// and puts the searched fixtures back.
func (r *runner) freshFixtures(give func(dir string) error) (restore func() error, err error) {
	var seed [32]byte
	b, err := hex.DecodeString(r.lay.Seed)
	if err != nil || len(b) != len(seed) {
		return nil, fmt.Errorf("the run's seed %q is not 32 bytes of hex", r.lay.Seed)
	}
	copy(seed[:], b)
	base := r.lay.Base
	searched, used := base+"-searched", base+"-other-tools"
	if err := os.Rename(base, searched); err != nil {
		return nil, err
	}
	undo := func(err error) (func() error, error) {
		if rmErr := os.RemoveAll(base); rmErr != nil {
			return nil, errors.Join(err, rmErr)
		}
		return nil, errors.Join(err, os.Rename(searched, base))
	}
	if err := os.Mkdir(base, 0o700); err != nil {
		return undo(err)
	}
	if _, err := plantLayout(base, r.cfg.PracticeData, seed); err != nil {
		return undo(fmt.Errorf("planting: %w", err))
	}
	if err := give(base); err != nil {
		return undo(err)
	}
	before, err := takeSnapshot(base)
	if err != nil {
		return undo(fmt.Errorf("recording its checksums: %w", err))
	}
	return func() error {
		after, snapErr := takeSnapshot(base)
		if snapErr == nil {
			r.otherFiles = &checks.FileFacts{Before: before, After: after, Bodies: bodies(base, before, after)}
		}
		if err := os.Rename(base, used); err != nil {
			return err
		}
		if err := os.Rename(searched, base); err != nil {
			return err
		}
		if !r.cfg.KeepTemp {
			// What the server left there is its own; a copy that will not
			// go is only a folder of the run's left in the temp folder.
			_ = os.RemoveAll(used)
		}
		return snapErr
	}, nil
}
