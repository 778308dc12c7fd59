package harness

import (
	"os"
	"strings"

	"practice-notes/tests/acceptance/checks"
)

// This file gathers the facts of the checks that are not a probe's
// exchanges alone: what every process left in its HOME and TMPDIR
// (check 16), and the traps planted around the processes of checks 20
// and 22.

// check16 judges what every process left in its HOME and TMPDIR.
func (r *runner) check16() {
	r.judge(r.checks[checks.HomeAndTemp().ID], &checks.Facts{NotStarted: r.notStarted, HomeDirs: r.dirs, Leftovers: r.leftovers})
}

// setupTraps creates the files a naive reader trips on before the check's
// server starts, and returns their cleanup (nil when the check was skipped).
func (r *runner) setupTraps(unreadable bool) func(*CheckResult) func() {
	return func(c *CheckResult) func() {
		if unreadable && !r.sb.LockedUnreadable() && !unreadableFilesPossible() {
			c.skip("the server runs with the rights of the harness, which runs as root (or on a system without file modes), for whom a mode-000 file is still readable; run it where isolation is available, or as an ordinary user, to exercise this rule")
			return nil
		}
		st, err := os.Stat(r.lay.TrapDir)
		if err != nil {
			c.fail("preparing the traps: %v", err)
			return nil
		}
		var made []trap
		if unreadable {
			made, err = r.lay.makeLocked()
		} else {
			made, err = r.lay.makeTraps()
		}
		if err != nil {
			c.note("not every trap could be made: %v", err)
		}
		var what []string
		for _, t := range made {
			what = append(what, "traps/"+t.rel+" ("+t.what+")")
		}
		c.Observed = append(c.Observed, "present while this check ran: "+strings.Join(what, ", "))
		planted := r.tree
		if err := r.describeRoot(); err != nil {
			c.note("%v", err)
		}
		return func() {
			r.tree = planted
			if err := r.lay.removeTraps(made, st.ModTime()); err != nil {
				c.fail("removing the traps: %v", err)
			}
		}
	}
}
