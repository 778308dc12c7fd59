package harness

import (
	"context"
	"fmt"
	"os"
	"strings"

	"practice-notes/tests/acceptance/checks"
)

// This file holds the checks for the rules of the specification's "One
// tool" and "Access boundary" sections beyond its eight acceptance tests.

// check16 judges what every process left in its HOME and TMPDIR.
func (r *runner) check16() {
	r.judge(r.checks["16"], &checks.Facts{NotStarted: r.notStarted, HomeDirs: r.dirs, Leftovers: r.leftovers})
}

// searchAndProbe searches the public words of a check's fixtures and the
// names of its links, and sends the paths through the links to every
// path-taking surface.
func (r *runner) searchAndProbe(ctx context.Context, s *session, c *CheckResult, names, paths []string) string {
	var qs []string
	for _, sec := range r.lay.secretsOf(c.ID) {
		qs = append(qs, sec.Marker)
	}
	n := r.searchAll(ctx, s, c, append(qs, names...))
	sum := fmt.Sprintf("%d searches (the public words of the files behind the links, and the links' names) returned no outside byte and no link as a result", n)
	if t := r.probeTools(ctx, s, c, paths); t != "" {
		sum += "; " + t
	}
	if t := r.probeSearchArgs(ctx, s, c, r.folderProbes(c.ID, names), qs); t != "" {
		sum += "; " + t
	}
	return sum + r.probeResources(ctx, s, c, paths)
}

// Check 17: a sibling folder whose name starts with the root's.
func (r *runner) check17(ctx context.Context, s *session, c *CheckResult) {
	c.Summary = r.searchAndProbe(ctx, s, c, []string{"old-notes", "archive.md"}, []string{"old-notes/private-notes.md", "archive.md"}) +
		"; old-notes -> ../root-old and archive.md -> <base>/root-old/private-notes.md"
}

// Check 18: a symlinked directory and a chain of links.
func (r *runner) check18(ctx context.Context, s *session, c *CheckResult) {
	c.Summary = r.searchAndProbe(ctx, s, c, []string{"linked-dir", "chain-1.md"}, []string{"linked-dir/dir-secret.md", "chain-1.md", "nested-links/chain-2.md"}) +
		"; linked-dir -> an absolute outside directory, chain-1.md -> nested-links/chain-2.md -> ../../chain-target.md"
}

// Check 19: a hard link to an outside file. The specification names only
// symlinks, so what this check finds (through its fixture's leak rule) is
// a warning.
func (r *runner) check19(ctx context.Context, s *session, c *CheckResult) {
	c.Summary = r.searchAndProbe(ctx, s, c, nil, []string{"shared-note.md"}) + "; shared-note.md is a hard link to a file outside the root"
	for i := range c.findings {
		c.findings[i].warn = c.def.Warns
	}
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
