package record

import (
	"regexp"
	"strconv"
	"strings"
)

var (
	// "0 failed" and its kin say the same as "all passed".
	// countRe is a count of skipped checks or warnings, as in "28 passed,
	// 0 failed, 1 skipped": it says nothing against the claim beside it.
	clauseRe = regexp.MustCompile(`[.;]\s`)
	countRe  = regexp.MustCompile(`\b\d+\s+(?:skipped|skips?|warnings?)\b`)
	noFailRe = regexp.MustCompile(`\b(?:0|zero|no|none)\s+(?:checks?\s+|tests?\s+)?(?:failed|failures?|fails|failing)\b|\bnone\s+failed\b`)
	passRe   = regexp.MustCompile(`\bpass(?:ed|es|ing)?\b|\ballpass\b|\bsucceed\w*|\bsuccessful(?:ly)?\b|\bgreen\b|✅|✓|✔`)
	negRe    = regexp.MustCompile(`\bfail\w*|\bnot\s+(?:all|every|yet|run|pass\w*)\b|\b(?:did|does|have|has|was|were)\s*n(?:o|')t\s+(?:run|pass)|\bpending\b|\bexcept\b|\bskipp?ed\b|❌|✗`)
	ratioRe  = regexp.MustCompile(`\b(\d+)\s*(?:/|of|out of)\s*(\d+)\b`)
	stdioRe  = regexp.MustCompile(`\bstdio\b|\bstd\s?i/?o\b|\bstandard (?:input|i/o|in)\b|\bstdin\b`)

	eightScopeRe      = regexp.MustCompile(`\b8\s*(?:/|of|out of)\s*8\b|\beight\b|\ball 8\b|\b8 passed\b`)
	acceptanceScopeRe = regexp.MustCompile(`\bacceptance\b`)
	// Script names say how tests ran, not which passed.
	scriptRe        = regexp.MustCompile(`[\w./-]*\.sh\b`)
	boundaryScopeRe = regexp.MustCompile(`\bboundary\b|\bsymlinks?\b|\btraversal\b|\bescapes?\b`)
	allScopeRe      = regexp.MustCompile(`\ball\b|\bevery\b|\beverything\b|\ballpass\b`)
)

// scope is the set of checks a claim speaks for.
type scope int

const (
	scopeNone scope = iota
	scopeBoundary
	scopeAcceptance
	scopeAll
)

// passClaim reports whether a line claims that tests passed, and for
// which checks. inBoundaryField widens a bare "passed" to the boundary
// checks, the field's subject.
func passClaim(line string, inBoundaryField bool) (scope, string) {
	l := strings.ToLower(clean(leadRe.ReplaceAllString(line, "")))
	l = scriptRe.ReplaceAllString(l, " ")
	l = countRe.ReplaceAllString(l, " ")
	l = noFailRe.ReplaceAllString(l, " allpass ")
	// A claim is made by one clause, which also names what it speaks for:
	// "Isolation: read-only except the temp folders. Result: 28 passed,
	// 0 failed" claims a pass, though the line holds "except".
	claimed := ""
	for _, clause := range clauseRe.Split(l, -1) {
		pos := passRe.MatchString(clause)
		for _, m := range ratioRe.FindAllStringSubmatch(clause, -1) {
			a, _ := strconv.Atoi(m[1])
			b, _ := strconv.Atoi(m[2])
			if a == b && a > 0 {
				pos = true
			} else if a < b {
				return scopeNone, ""
			}
		}
		if pos && !negRe.MatchString(clause) && claimed == "" {
			claimed = clause
		}
	}
	if claimed == "" {
		return scopeNone, ""
	}
	l = claimed
	// The narrowest scope the claiming clause names wins: "all boundary tests" speaks
	// for the boundary checks, "all 8" or "all acceptance tests" for the
	// specification's eight.
	switch {
	case boundaryScopeRe.MatchString(l) && !eightScopeRe.MatchString(l) && !acceptanceScopeRe.MatchString(l):
		return scopeBoundary, "the boundary tests passed"
	case eightScopeRe.MatchString(l) || acceptanceScopeRe.MatchString(l):
		return scopeAcceptance, "the acceptance tests passed"
	case allScopeRe.MatchString(l):
		return scopeAll, "every test passed"
	case inBoundaryField:
		return scopeBoundary, "the boundary tests passed"
	}
	return scopeNone, ""
}

func (s scope) covers(c *Check) bool {
	switch s {
	case scopeBoundary:
		return c.isBoundary()
	case scopeAcceptance:
		return c.isAcceptance()
	case scopeAll:
		return true
	}
	return false
}

func failedWhere(run *Run, keep func(*Check) bool) []Check {
	var out []Check
	for i := range run.Checks {
		c := &run.Checks[i]
		if c.Status == StatusFail && keep(c) {
			out = append(out, *c)
		}
	}
	return out
}

// valueLine is the first of a field's lines that carries its value.
func valueLine(f *field) srcLine {
	if _, v, _ := labelLine(f.Lines[0].Text); strings.TrimSpace(v) == "" && len(f.Lines) > 1 {
		return f.Lines[1]
	}
	return f.Lines[0]
}

func contradictions(p parsed, run *Run) []Contradiction {
	var out []Contradiction
	// Claims that tests passed, line by line, in every field but the one
	// listing what was not verified.
	for _, name := range fieldNames {
		f, ok := p[name]
		if !ok || name == fieldUnverified {
			continue
		}
		for _, ln := range f.Lines {
			text := ln.Text
			if _, v, ok := labelLine(text); ok {
				text = v // the label itself names the boundary tests
			}
			sc, claim := passClaim(text, name == fieldBoundary)
			if sc == scopeNone {
				continue
			}
			if refuted := failedWhere(run, sc.covers); len(refuted) > 0 {
				out = append(out, Contradiction{Field: name, Line: ln.N, Quote: strings.TrimSpace(ln.Text), Claim: claim, Checks: refuted})
			}
		}
	}
	integration := failedWhere(run, (*Check).isIntegration)
	if len(integration) == 0 {
		return out
	}
	if f, ok := p[fieldIntegration]; ok && claimsDone(f.Value) {
		ln := valueLine(f)
		out = append(out, Contradiction{Field: f.Name, Line: ln.N, Quote: strings.TrimSpace(ln.Text),
			Claim: "integration (tool discovery and a tool call) was demonstrated", Checks: integration})
	}
	// A server that fails discovery and both searches gave no usable stdio
	// reply at all: a record naming stdio claims a transport it did not
	// speak. Failing check 8 alone (say, a slow exit) does not refute it.
	noStdio := failedWhere(run, func(c *Check) bool { return c.ID == "1" || c.ID == "2" || c.ID == "8" })
	if f, ok := p[fieldTransport]; ok && len(noStdio) == 3 {
		for _, ln := range f.Lines {
			if stdioRe.MatchString(strings.ToLower(ln.Text)) {
				out = append(out, Contradiction{Field: f.Name, Line: ln.N, Quote: strings.TrimSpace(ln.Text),
					Claim: "the server speaks MCP over stdio", Checks: noStdio})
				break
			}
		}
	}
	return out
}

// claimsDone reads a field such as "Integration demonstrated" as a yes
// unless it starts by denying or deferring it.
func claimsDone(value string) bool {
	v := strings.TrimSpace(value)
	if v == "" || strings.Contains(v, "___") {
		return false
	}
	l := strings.ToLower(v)
	return !negativeStartRe.MatchString(l) && !strings.Contains(l, "not demonstrated") && !strings.Contains(l, "not yet")
}
