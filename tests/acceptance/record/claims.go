package record

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// What a clause of the record says, once read.
type readingKind int

const (
	readNone       readingKind = iota // says nothing the run could refute
	readPass                          // claims tests or behaviours came out as required
	readAdmit                         // admits a failure
	readPlan                          // speaks of the future or leaves it open
	readOwn                           // about the learner's own tests: not refutable by this run
	readUnread                        // looks like a claim, but the reader cannot tell about what
	readImpossible                    // a count no run could bear out ("30 of 29")
)

// scope is a set of checks a claim speaks for without naming them.
type scope int

const (
	scopeNone scope = iota
	scopeBoundary
	scopeAcceptance
	scopeAll
	scopePassage // the returned N2 passage: check 1
)

// reading is one clause read.
type reading struct {
	kind   readingKind
	tests  []int    // acceptance tests named by number
	checks []string // checks named ("check 17") or by the words of their rules
	// only holds the findings of the rules named of a check named by some
	// of its rules only.
	only  map[string][]*regexp.Regexp
	scope scope
	// claim says in words what a forbidden-behaviour reading claims.
	claim string
	// exceptTests and exceptChecks are left out of the claim; allow is a
	// number of unnamed failures it admits ("all but one"), -1 if none.
	exceptTests  []int
	exceptChecks []string
	allow        int
	// ratio "a of b passed" with a < b.
	ratioA, ratioB int
	// count "N passed, M failed" as the harness prints it.
	countFailed int
	hasCount    bool
	// passedN is a count of passed checks given alone ("29 passed").
	passedN int
	why     string // for readUnread: why it could not be read
}

var (
	checkIDsRe   = regexp.MustCompile(`\bchecks?\s*(?:#|no\.?|nr\.?|n°)?\s*(\d+(?:\.\d+)?(?:\s*(?:,|/|&|and|y|et|und|e|or|-|to)\s*#?\d+(?:\.\d+)?)*)`)
	subRangeRe   = regexp.MustCompile(`^(\d+)\.(\d+)\s*(?:-|to)\s*(\d+)\.(\d+)$`)
	checkRangeRe = regexp.MustCompile(`^(\d+)\s*(?:-|to)\s*(\d+)$`)
	testIDsRe    = regexp.MustCompile(`(?:\b(?:acceptance\s+)?(?:tests?|testu|testy|toets|pruebas?|testes?|essais?|t)\s*(?:#|no\.?|nr\.?|n°|n\.)?\s*|#)(\d(?:\s*(?:,|/|&|and|y|et|und|e|or|-|–|to|a|bis)\s*#?\d)*)\b`)
	digitsRe     = regexp.MustCompile(`\d+(?:\.\d+)?`)
	// everyCheckRe: words for every check even in "Boundary tests run":
	// "all checks", "everything", "it all" and the singular "all" of the
	// other languages ("todo funciona", "alles grün").
	everyCheckRe = regexp.MustCompile(`\b(?:all|every)\s+(?:the\s+)?(?:\d+\s+)?checks?\b|\ballpass\b|\bthegrader\b|\beverything\b|\bit all\b|\ball of it\b|\btodo\b|\btout\b|\balles\b|\btudo\b|\btutto\b`)
	notFoundRe   = regexp.MustCompile(`\b(?:not|nothing|never) found\b`)
	failedWordRe = wordsRe("failed", "fails", "failing")
	bareDigitRe  = regexp.MustCompile(`(?:^|[\s,(#])(\d)(?:$|[\s,).:])`)
	// harnessNameRe: the harness's own names, which hold the word
	// "acceptance" but speak for all of its checks.
	harnessNameRe = regexp.MustCompile(`\bacceptance (?:harness|script|run|checks|grader)\b`)
	rangeRe       = regexp.MustCompile(`^(\d)\s*(?:-|–|to|a|bis)\s*(\d)$`)
	countWord     = map[string]int{"one": 1, "1": 1, "uno": 1, "una": 1, "un": 1, "une": 1, "eins": 1, "einen": 1, "einem": 1, "um": 1, "uma": 1,
		"two": 2, "2": 2, "dos": 2, "deux": 2, "zwei": 2, "dois": 2, "duas": 2, "due": 2, "three": 3, "3": 3, "tres": 3, "trois": 3, "drei": 3, "tre": 3}
	// words that, in the passage field, say the passage matched
	passageMatchRe = wordsRe("match", "matches", "matched", "identical", "same", "exact", "exactly", "byte-for-byte", "byte for byte", "verbatim",
		"coincide*", "igual", "identico", "identique", "identisch", "ubereinstimm*", "stimmt", "corrisponde", "uguale")
	// exception words after which "the X" names a test; "but" and kin only
	// when a test or count follows.
	strictExceptRe = wordsRe("except", "except for", "excepting", "apart from", "other than", "besides", "all but", "save",
		"excepto", "salvo", "menos", "sauf", "a part", "ausser", "bis auf", "exceto", "tranne", "eccetto", "behalve", "oprocz", "z wyjatkiem")
)

// countWordIn returns the first count word of s ("one", "2", "uno"), or "".
func countWordIn(s string) string {
	for _, w := range strings.Fields(s) {
		w = strings.Trim(w, ",.;:()")
		if _, ok := countWord[w]; ok {
			return w
		}
	}
	return ""
}

// namedTests finds the acceptance tests and checks a text names.
func namedTests(t string) (tests []int, checks []string, only map[string][]*regexp.Regexp) {
	for _, m := range checkIDsRe.FindAllStringSubmatch(t, -1) {
		if r := subRangeRe.FindStringSubmatch(strings.TrimSpace(m[1])); r != nil && r[1] == r[3] {
			// "8.1 to 8.7": the sub-checks between.
			a, _ := strconv.Atoi(r[2])
			b, _ := strconv.Atoi(r[4])
			for n := a; n <= b && b-a < 30; n++ {
				checks = append(checks, r[1]+"."+strconv.Itoa(n))
			}
			continue
		}
		if r := checkRangeRe.FindStringSubmatch(strings.TrimSpace(m[1])); r != nil {
			a, _ := strconv.Atoi(r[1])
			b, _ := strconv.Atoi(r[2])
			for n := a; n <= b && b-a < 30; n++ {
				checks = append(checks, strconv.Itoa(n))
			}
			continue
		}
		checks = append(checks, digitsRe.FindAllString(m[1], -1)...)
	}
	t = checkIDsRe.ReplaceAllString(t, " ")
	seen := map[int]bool{}
	add := func(n int) {
		if n >= 1 && n <= 8 && !seen[n] {
			seen[n] = true
			tests = append(tests, n)
		}
	}
	for _, m := range testIDsRe.FindAllStringSubmatch(t, -1) {
		if r := rangeRe.FindStringSubmatch(strings.TrimSpace(m[1])); r != nil {
			a, _ := strconv.Atoi(r[1])
			b, _ := strconv.Atoi(r[2])
			for n := a; n <= b; n++ {
				add(n)
			}
			continue
		}
		for _, d := range digitsRe.FindAllString(m[1], -1) {
			n, _ := strconv.Atoi(d)
			add(n)
		}
	}
	sp := subjectsIn(t)
	checks = append(checks, sp.checks...)
	only = sp.only
	return tests, checks, only
}

// readClause reads one clause (folded) of a line in the given field.
func readClause(c, field string, num int) reading {
	r := reading{allow: -1}
	c = normalizeClause(c)
	if m := passedCountRe.FindStringSubmatch(c); m != nil {
		r.kind, r.hasCount, r.scope = readPass, true, scopeAll
		r.countFailed, _ = strconv.Atoi(m[2])
		return r
	}
	if m := passedAloneRe.FindStringSubmatch(c); m != nil && !failRe.MatchString(c) && !ratioRe.MatchString(c) {
		if n, _ := strconv.Atoi(m[1]); n > 8 {
			r.kind, r.passedN, r.scope = readPass, n, scopeAll
			return r
		}
	}
	c = noFailRe.ReplaceAllString(c, " allpass ")
	// "not found" is the right answer for an absent phrase and the wrong
	// one for sign-in: it says nothing by itself.
	c = notFoundRe.ReplaceAllString(c, " ")
	if ownRe.MatchString(c) && !harnessRe.MatchString(c) && !acceptanceScopeRe.MatchString(c) {
		if passRe.MatchString(c) || passSymRe.MatchString(c) || failRe.MatchString(c) || ratioRe.MatchString(c) {
			r.kind = readOwn
		}
		return r
	}
	if !claimish(c) {
		return r // no word of passing, failing, planning or absence
	}
	main, done := r.exception(c)
	if done {
		return r
	}
	r.tests, r.checks, r.only = namedTests(main)
	if len(r.tests) == 0 && len(r.checks) == 0 && num > 0 {
		r.tests = []int{num}
	}
	if r.ruleClaim(main) {
		return r
	}
	r.scopeClaim(main, field)
	return r
}

// claimish reports whether a clause holds any word a claim is read by:
// the rest say nothing the run could refute, and are not read further.
func claimish(c string) bool {
	for _, re := range []*regexp.Regexp{passRe, passSymRe, failRe, failSymRe, negPassRe, planRe, absenceRe, ratioRe, passageMatchRe, anyKept} {
		if re.MatchString(c) {
			return true
		}
	}
	return false
}

// normalizeClause names the harness and scripts as the reader knows
// them, drops counts of skipped checks and writes counts in any form
// ("passed": 29) as the harness does (29 passed).
func normalizeClause(c string) string {
	c = scriptRe.ReplaceAllStringFunc(c, func(s string) string {
		if strings.Contains(s, "acceptance") {
			return " thegrader "
		}
		return " " + strings.ReplaceAll(s, ".", " ") + " "
	})
	c = harnessNameRe.ReplaceAllString(c, " thegrader ")
	c = keyCountRe.ReplaceAllString(c, "$2 $1")
	return countRe.ReplaceAllString(c, " ")
}

// exception reads what follows "except" and its kin, which the claim
// leaves out; it returns the rest of the clause, or done when the clause
// is read whole (an exception that names nothing).
func (r *reading) exception(c string) (main string, done bool) {
	loc := exceptRe.FindStringIndex(c)
	if loc == nil {
		return c, false
	}
	tail := c[loc[1]:]
	tt, tc, _ := namedTests(tail)
	strict := strictExceptRe.MatchString(c[loc[0]:loc[1]])
	n := -1
	for _, w := range strings.Fields(tail) {
		if v, ok := countWord[strings.Trim(w, ",.;:()")]; ok {
			n = v
			break
		}
	}
	lead := strings.TrimSpace(c[:loc[0]]) == ""
	allBut := strings.Contains(c[loc[0]:loc[1]], "all but")
	switch {
	case lead && !allBut:
		// "but the oversized file test fails": a clause of its own.
		return tail, false
	case len(tt) > 0 || len(tc) > 0 || strict || n >= 0:
		main = c[:loc[0]]
		r.exceptTests, r.exceptChecks = tt, tc
		if len(tt) > 0 || len(tc) > 0 {
			return main, false
		}
		if n < 0 {
			r.kind, r.why = readUnread, "an exception that names no test"
			return "", true
		}
		r.allow = n
		// The claim goes on after the count: "all but one passed"; in
		// "all passed but one failed" it is already said.
		w := countWordIn(tail)
		if after := tail[strings.Index(tail, w)+len(w):]; !failRe.MatchString(after) {
			main += " " + after
		}
		if allBut {
			main += " all"
		}
		return main, false
	}
	return c, false
}

// ruleClaim reads a clause that states a rule kept ("read-only") or a
// forbidden behaviour absent ("never writes anything"): it speaks for
// the checks of that rule. It reports whether the clause was read so.
func (r *reading) ruleClaim(main string) bool {
	failing := negPassRe.MatchString(main) || failRe.MatchString(main) || failSymRe.MatchString(main)
	// "all 8 passed, nothing leaked" is read for its scope; the absence
	// reading is for a clause that names no test and no scope.
	scoped := (passRe.MatchString(main) || passSymRe.MatchString(main)) &&
		(len(r.tests) > 0 || len(r.checks) > 0 || acceptanceScopeRe.MatchString(main) || allScopeRe.MatchString(main) || boundaryScopeRe.MatchString(main))
	if !scoped && !failing {
		if ids := keptIn(main); len(ids) > 0 {
			r.kind, r.checks, r.only, r.tests = readPass, ids, nil, nil
			return true
		}
	}
	// An open item ("not fixed yet") admits the behaviour it names.
	if !absenceRe.MatchString(main) || scoped || negPassRe.MatchString(main) || failedWordRe.MatchString(main) || planRe.MatchString(main) {
		return false
	}
	if firstPersonRe.MatchString(main) && ownWorkRe.MatchString(main) {
		return false // "I didn't write a test for it" speaks of the learner
	}
	if ids := forbiddenIn(main); len(ids) > 0 {
		r.kind, r.checks, r.only, r.tests = readPass, ids, nil, nil
		return true
	}
	if unobservedRe.MatchString(main) {
		r.kind, r.why = readUnread, "a behaviour no check of this run observes"
		return true
	}
	return false
}

// scopeClaim reads a clause as an admission, a plan, or a claim of
// passing, and what the claim speaks for when it names no test.
func (r *reading) scopeClaim(main, field string) {
	switch {
	case negPassRe.MatchString(main) || failRe.MatchString(main) || failSymRe.MatchString(main):
		r.kind = readAdmit
		if len(r.tests) == 0 && len(r.checks) == 0 {
			for _, m := range bareDigitRe.FindAllStringSubmatch(main, -1) {
				if n := smallNumber(m[1]); n > 0 {
					r.tests = append(r.tests, n)
				}
			}
		}
		return
	case planRe.MatchString(main):
		r.kind = readPlan
		return
	}
	pos := passRe.MatchString(main) || passSymRe.MatchString(main)
	if field == fieldPassage && passageMatchRe.MatchString(main) {
		pos = true
	}
	undated := numDateRe.ReplaceAllString(isoDateRe.ReplaceAllString(main, " "), " ")
	for _, m := range ratioRe.FindAllStringSubmatch(undated, -1) {
		a, _ := strconv.Atoi(m[1])
		b, _ := strconv.Atoi(m[2])
		switch {
		case b == 0 || b > 200:
			continue
		case a > b:
			r.kind, r.ratioA, r.ratioB = readImpossible, a, b
			r.why = fmt.Sprintf("%d is more than %d: no run can show it", a, b)
			return
		}
		pos = true
		if a < b {
			r.ratioA, r.ratioB = a, b
		}
		if len(r.tests) == 0 && len(r.checks) == 0 {
			if b == 8 {
				r.scope = scopeAcceptance
			} else if b > 8 && !boundaryScopeRe.MatchString(main) {
				r.scope = scopeAll
			}
		}
	}
	if !pos {
		return
	}
	r.kind = readPass
	if len(r.tests) > 0 || len(r.checks) > 0 || r.scope != scopeNone {
		return
	}
	r.scope = unnamedScope(main, field)
	switch {
	case r.scope != scopeNone:
	case field == fieldSource || field == fieldTransport || field == fieldIntegration:
		r.kind = readNone // "works" there speaks of the client, read by the stdio and integration rules
	default:
		r.kind, r.why = readUnread, "a claim that names no test"
	}
}

// unnamedScope is what a claim that names no test speaks for, from its
// words and its field.
func unnamedScope(main, field string) scope {
	switch {
	case field == fieldPassage:
		return scopePassage
	case boundaryScopeRe.MatchString(main) && !acceptanceScopeRe.MatchString(main):
		return scopeBoundary
	case acceptanceScopeRe.MatchString(main):
		return scopeAcceptance
	case field == fieldBoundary && allScopeRe.MatchString(main) && !everyCheckRe.MatchString(main):
		// "all passed" in "Boundary tests run" speaks for the field's tests.
		return scopeBoundary
	case allScopeRe.MatchString(main) || harnessRe.MatchString(main):
		return scopeAll
	case field == fieldBoundary:
		return scopeBoundary
	}
	return scopeNone
}

// readLine reads every clause of one line.
func readLine(d *docLine) []reading {
	body := unquote(fold(d.body))
	var clauses []string
	if strings.HasPrefix(strings.TrimSpace(d.Text), "|") {
		clauses = []string{body} // a table row is one claim
	} else {
		clauses = clauseRe.Split(body, -1)
	}
	var out []reading
	for _, c := range clauses {
		if strings.TrimSpace(c) == "" {
			continue
		}
		// A clause that both claims and admits or defers is read by its
		// comma-separated parts: "tests 1-5 pass, 6-8 pending".
		pass := passRe.MatchString(c) || passSymRe.MatchString(c)
		c = noFailRe.ReplaceAllString(c, " allpass ")
		other := planRe.MatchString(c) || failRe.MatchString(c) || failSymRe.MatchString(c)
		if parts := strings.Split(c, ","); pass && other && len(parts) > 1 && !passedCountRe.MatchString(c) {
			for _, part := range parts {
				if strings.TrimSpace(part) != "" {
					out = append(out, readClause(part, d.field, d.num))
				}
			}
			continue
		}
		out = append(out, readClause(c, d.field, d.num))
	}
	return out
}

// claimWords says in words what a pass reading claims.
func (r reading) claimWords() string {
	var s string
	switch {
	case r.kind == readImpossible:
		return strconv.Itoa(r.ratioA) + " of " + strconv.Itoa(r.ratioB) + " passed"
	case r.passedN > 0:
		return strconv.Itoa(r.passedN) + " checks passed"
	case r.hasCount:
		return "this run's failures were fewer than they are (" + strconv.Itoa(r.countFailed) + " failed)"
	case r.claim != "":
		return r.claim
	case len(r.checks) > 0:
		s = "check"
		if len(r.checks) > 1 {
			s = "checks"
		}
		s += " " + strings.Join(r.checks, ", ") + " passed"
	case len(r.tests) == 1:
		s = testTitles[r.tests[0]] + " passed"
	case len(r.tests) > 1:
		var names []string
		for _, t := range r.tests {
			names = append(names, strconv.Itoa(t))
		}
		s = "tests " + strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1] + " passed"
	case r.scope == scopeAcceptance:
		s = "the acceptance tests passed"
	case r.scope == scopeBoundary:
		s = "the boundary tests passed"
	case r.scope == scopeAll:
		s = "every check passed"
	case r.scope == scopePassage:
		s = "the returned N2 passage is exact"
	}
	if r.ratioB > 0 {
		s = strconv.Itoa(r.ratioA) + " of " + strconv.Itoa(r.ratioB) + " passed"
		if r.scope == scopeAcceptance {
			s += " (acceptance tests)"
		}
	}
	if len(r.exceptTests) > 0 || len(r.exceptChecks) > 0 || r.allow > 0 {
		s += ", with the exceptions it names"
	}
	return s
}
