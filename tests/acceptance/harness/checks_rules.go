package harness

import (
	"os"
	"path"
	"path/filepath"
	"strings"

	"practice-notes/tests/acceptance/checks"
)

// This file gathers the facts of the checks that are not a probe's
// exchanges alone: what every process left in its HOME and TMPDIR
// (check 16), and the traps planted around the processes of checks 20
// and 22 by their values' Plantings.

// check16 judges what every process left in its HOME and TMPDIR.
func (r *runner) check16() {
	r.judge(r.checks[checks.HomeAndTemp().ID], &checks.Facts{NotStarted: r.notStarted, HomeDirs: r.dirs, Leftovers: r.leftovers})
}

// plantAround plants a check's Planting before its process starts, and
// returns what removes it (nil when the check was skipped).
func (r *runner) plantAround(c *CheckResult) func() {
	pl := c.def.Planting
	if pl.Locked != "" && !r.sb.LockedUnreadable() && !unreadableFilesPossible() {
		c.skip("the server runs with the rights of the harness, which runs as root (or on a system without file modes), for whom a mode-000 file is still readable; run it where isolation is available, or as an ordinary user, to exercise this rule")
		return nil
	}
	in := r.lay.planted[pl.In.Name]
	dir := r.lay.inRoot(in.Rel)
	st, err := os.Stat(dir)
	if err != nil {
		c.fail("preparing the traps: %v", err)
		return nil
	}
	made, err := pl.Plant(dir, in.Marker)
	if err != nil {
		c.note("not every trap could be made: %v", err)
	}
	var what []string
	for _, t := range made {
		what = append(what, path.Join(in.Rel, t.Rel)+" ("+t.What+")")
	}
	c.Observed = append(c.Observed, "present while this check ran: "+strings.Join(what, ", "))
	planted := r.tree
	if err := r.describeRoot(); err != nil {
		c.note("%v", err)
	}
	return func() {
		r.tree = planted
		// The folder's times are put back, so that check 7 sees only
		// what the server changed.
		err := checks.Remove(dir, made)
		if err == nil {
			err = os.Chtimes(dir, st.ModTime(), st.ModTime())
		}
		if err != nil {
			c.fail("removing the traps: %v", err)
		}
	}
}

// inRoot is the path of the root-relative rel.
func (l *layout) inRoot(rel string) string { return filepath.Join(l.Root, filepath.FromSlash(rel)) }

// lockedPaths are the files the checks' plantings lock, which the
// sandbox keeps unreadable in every server's view.
func (l *layout) lockedPaths() []string {
	var out []string
	for _, c := range checks.All() {
		if c.Planting != nil && c.Planting.Locked != "" {
			out = append(out, filepath.Join(l.inRoot(l.planted[c.Planting.In.Name].Rel), c.Planting.Locked))
		}
	}
	return out
}
