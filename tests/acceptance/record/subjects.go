package record

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"practice-notes/tests/acceptance/checks"
)

// subject is a check's rules as the record reader matches claims with
// them: the words of the check come from the check's own value, so that
// a claim and the findings that refute it speak of the same rule.
type subject struct {
	id    string
	test  int
	says  *regexp.Regexp
	parts []part
	// forbids and keeps are nil for a check whose rule forbids nothing in
	// words of its own.
	forbids, keeps *regexp.Regexp
}

// part is one rule of a check: its words, and the findings that break it.
type part struct {
	says, findings *regexp.Regexp
}

// catalog is every check of the harness, read once; it is never changed.
var catalog = func() []subject {
	var out []subject
	for _, c := range checks.All() {
		s := subject{id: c.ID, test: c.Test, says: regexp.MustCompile(c.Says)}
		for _, p := range c.Parts {
			s.parts = append(s.parts, part{regexp.MustCompile(p.Says), regexp.MustCompile(p.Findings)})
		}
		if c.Forbids != "" {
			s.forbids = regexp.MustCompile(c.Forbids)
		}
		if c.Keeps != "" {
			s.keeps = regexp.MustCompile(c.Keeps)
		}
		out = append(out, s)
	}
	return out
}()

// anySubject, anyForbidden and anyKept match what any check's words
// match: one pass over a line that names no rule, rather than one per
// check (a long record is read in time linear in its length).
var anySubject, anyForbidden, anyKept = func() (s, f, k *regexp.Regexp) {
	var says, forbids, keeps []string
	for _, c := range checks.All() {
		says = append(says, c.Says)
		for _, p := range c.Parts {
			says = append(says, p.Says)
		}
		if c.Forbids != "" {
			forbids = append(forbids, c.Forbids)
		}
		if c.Keeps != "" {
			keeps = append(keeps, c.Keeps)
		}
	}
	union := func(es []string) *regexp.Regexp { return regexp.MustCompile("(?:" + strings.Join(es, ")|(?:") + ")") }
	return union(says), union(forbids), union(keeps)
}()

// testChecks lists the checks that refine one of the specification's
// eight tests: a claim that the test passed is refuted by any of them.
func testChecks(t int) []string {
	var out []string
	for _, s := range catalog {
		if s.test == t && t > 0 {
			out = append(out, s.id)
		}
	}
	return out
}

// testCheck is the check that is the specification's test t itself.
func testCheck(t int) string {
	id := strconv.Itoa(t)
	if slices.ContainsFunc(catalog, func(s subject) bool { return s.id == id && s.test == t }) {
		return id
	}
	return ""
}

// testOf returns the acceptance test a check refines, or 0.
func testOf(id string) int {
	for _, s := range catalog {
		if s.id == id {
			return s.test
		}
	}
	return 0
}

// spoken is what a text names of the checks' rules: whole checks, and
// checks named only by some of their rules, with those rules' findings.
type spoken struct {
	checks []string
	// only maps a check named by some of its parts to the findings of
	// those parts: a failure of the check refutes the claim only through
	// one of them.
	only map[string][]*regexp.Regexp
}

// subjectsIn finds the checks whose rules a folded text speaks of. Words
// of a part are taken out before the check's own words are looked for,
// so "the big file" names check 6's file rule and not all of check 6.
func subjectsIn(t string) spoken {
	var sp spoken
	if !anySubject.MatchString(t) {
		return sp
	}
	for _, s := range catalog {
		rest := t
		var found []*regexp.Regexp
		for _, p := range s.parts {
			if p.says.MatchString(rest) {
				found = append(found, p.findings)
				rest = p.says.ReplaceAllString(rest, " ")
			}
		}
		switch {
		case s.says.MatchString(rest), len(found) == len(s.parts) && len(found) > 1:
			// Every rule of the check named is the whole check.
			sp.checks = append(sp.checks, s.id)
		case len(found) > 0:
			sp.checks = append(sp.checks, s.id)
			if sp.only == nil {
				sp.only = map[string][]*regexp.Regexp{}
			}
			sp.only[s.id] = found
		}
	}
	return sp
}

// forbiddenIn lists the checks whose forbidden behaviour a folded text
// names, and keptIn those whose rule it states kept.
func forbiddenIn(t string) []string {
	var out []string
	if !anyForbidden.MatchString(t) {
		return nil
	}
	for _, s := range catalog {
		if s.forbids != nil && s.forbids.MatchString(t) {
			out = append(out, s.id)
		}
	}
	return out
}

func keptIn(t string) []string {
	var out []string
	if !anyKept.MatchString(t) {
		return nil
	}
	for _, s := range catalog {
		if s.keeps != nil && s.keeps.MatchString(t) {
			out = append(out, s.id)
		}
	}
	return out
}

// testTitles names the tests as the specification words them, for feedback.
var testTitles = [9]string{
	1: "test 1 (sign-in returns the exact N2 passage)",
	2: "test 2 (an absent phrase returns no matches)",
	3: "test 3 (a valid file inside practice-data is read)",
	4: "test 4 (../outside.md and absolute paths rejected)",
	5: "test 5 (a symlink pointing outside rejected)",
	6: "test 6 (oversized file and query give bounded errors)",
	7: "test 7 (checksums unchanged)",
	8: "test 8 (tool discovery and tool call)",
}

// partFindings are the findings of all the subject's parts.
func (s subject) partFindings() []*regexp.Regexp {
	out := make([]*regexp.Regexp, 0, len(s.parts))
	for _, p := range s.parts {
		out = append(out, p.findings)
	}
	return out
}
