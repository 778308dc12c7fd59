package record

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"practice-notes/tests/acceptance/checks"
)

var (
	// harnessLineRe is a line the harness prints for a check.
	harnessLineRe = regexp.MustCompile(`^(PASS|FAIL|WARN|SKIP)\s+(\d+(?:\.\d+)?)\b`)
	// finalLineRe is the harness's last line.
	finalLineRe = regexp.MustCompile(`^(\d+) passed, (\d+) failed$`)
	// harnessHeaderRe is a "#" context line the harness prints first.
	harnessHeaderRe = regexp.MustCompile(`^# (?:practice-notes acceptance harness|server command: |practice root: |client: |isolation: |resources: |replies: |N2 passage|as returned|byte-identical per harness|\s+\d+ \||\s+\|)`)
	statusWords     = map[string]checks.Status{"PASS": checks.StatusPass, "FAIL": checks.StatusFail, "WARN": checks.StatusWarn, "SKIP": checks.StatusSkip}
)

// resultLine recognises a check's result as the harness writes it: a
// "PASS 5 …" line, a row of the one-page record's table ("| 5 | acceptance
// | PASS | …") or of the generated results block ("| 5 | PASS | …"), and
// the final "N passed, M failed".
func resultLine(d *docLine) (id string, status checks.Status, final bool, failed int) {
	body := strings.TrimSpace(stripEmphasis(leadRe.ReplaceAllString(d.Text, "")))
	if m := harnessLineRe.FindStringSubmatch(body); m != nil {
		return m[2], statusWords[m[1]], false, 0
	}
	if strings.HasPrefix(strings.TrimSpace(d.Text), "|") {
		cells := tableCells(d.Text)
		for i := 1; i < len(cells) && i <= 2; i++ {
			if s, ok := statusWords[cells[i]]; ok && digitsRe.MatchString(cells[0]) && digitsRe.FindString(cells[0]) == cells[0] {
				return cells[0], s, false, 0
			}
		}
		if len(cells) >= 2 && fold(cells[0]) == "all" {
			body = cells[1]
		}
	}
	if m := finalLineRe.FindStringSubmatch(body); m != nil {
		var n int
		fmt.Sscan(m[2], &n)
		return "", "", true, n
	}
	return "", "", false, 0
}

// pending is a contradiction being built: its line and refuting checks,
// or, for a claim no run could bear out ("30 of 29"), the reason.
type pending struct {
	d      *docLine
	claim  string
	checks []string
	why    string
}

// claimReader reads a record's claims against a run into a verdict.
type claimReader struct {
	p      parsed
	run    *Run
	v      *Verdict
	found  []pending
	at     map[*docLine]int // index in found of a line's contradiction
	quoted map[int]bool
}

// readClaims reads every claim of the record against the run and fills
// the verdict's contradictions, unread lines, own-test lines and notes.
func readClaims(p parsed, run *Run, v *Verdict) {
	cr := &claimReader{p: p, run: run, v: v, at: map[*docLine]int{}, quoted: map[int]bool{}}
	results := cr.compareResults()
	cr.readProse(results)
	cr.integrationRules()
	cr.assemble()
}

func (cr *claimReader) refute(d *docLine, claim string, ids []string) {
	if len(ids) == 0 {
		return
	}
	if i, ok := cr.at[d]; ok {
		for _, id := range ids {
			if !slices.Contains(cr.found[i].checks, id) {
				cr.found[i].checks = append(cr.found[i].checks, id)
			}
		}
		return
	}
	cr.at[d] = len(cr.found)
	cr.found = append(cr.found, pending{d: d, claim: claim, checks: ids})
}

// impossible records a claim that refutes itself, whatever the run.
func (cr *claimReader) impossible(d *docLine, claim, why string) {
	if _, ok := cr.at[d]; ok {
		return
	}
	cr.at[d] = len(cr.found)
	cr.found = append(cr.found, pending{d: d, claim: claim, why: why})
}

func (cr *claimReader) quote(list *[]Quoted, d *docLine, why string) {
	if cr.quoted[d.N] {
		return
	}
	cr.quoted[d.N] = true
	*list = append(*list, Quoted{Field: d.field, Line: d.N, Quote: strings.TrimSpace(d.Text), Why: why})
}

// compareResults compares results as the harness writes them, pasted or
// generated, line by line with the run; they are not read as prose. It
// returns the lines it read.
func (cr *claimReader) compareResults() map[*docLine]bool {
	run, v := cr.run, cr.v
	results := map[*docLine]bool{}
	evidence := false // inside the indented evidence under a FAIL or WARN line
	for _, d := range cr.p.lines {
		if d.kind == kindBlank || d.kind == kindFence {
			continue
		}
		if evidence && (strings.HasPrefix(d.Text, "  ") || strings.HasPrefix(d.Text, "\t")) || harnessHeaderRe.MatchString(d.Text) {
			results[d] = true // the harness's evidence, fix and header lines: not claims
			continue
		}
		id, status, final, failed := resultLine(d)
		evidence = status == checks.StatusFail || status == checks.StatusWarn
		gen := d.kind == kindGenerated
		if gen {
			v.Generated = true
		}
		if id == "" && !final {
			if gen {
				results[d] = true
			}
			continue
		}
		results[d] = true
		where := "the pasted lines"
		if gen {
			where = "the generated results"
		}
		if final {
			if failed < run.Failed {
				cr.refute(d, fmt.Sprintf("%s count only %d failed", where, failed), run.FailedIDs())
			} else if failed > run.Failed {
				v.Notes = append(v.Notes, fmt.Sprintf("line %d: %s count %d failed, this run %d", d.N, where, failed, run.Failed))
			}
			continue
		}
		c := run.Find(id)
		switch {
		case c == nil:
			v.Notes = append(v.Notes, fmt.Sprintf("line %d: %s show check %s, which this run does not have", d.N, where, id))
		case status != checks.StatusFail && c.Status == checks.StatusFail:
			cr.refute(d, fmt.Sprintf("%s say check %s did not fail (%s)", where, id, strings.ToUpper(string(status))), []string{id})
		case status != c.Status:
			v.Notes = append(v.Notes, fmt.Sprintf("line %d: %s say check %s %s, this run %s", d.N, where, id, strings.ToUpper(string(status)), strings.ToUpper(string(c.Status))))
		}
	}
	// A final count refuted only by checks a line above already refutes
	// is the same contradiction: it is dropped.
	lineRefuted := map[string]bool{} // checks a PASS line above already shows refuted
	for _, f := range cr.found {
		if id, _, _, _ := resultLine(f.d); id != "" {
			lineRefuted[id] = true
		}
	}
	cr.found = slices.DeleteFunc(cr.found, func(f pending) bool {
		_, _, final, _ := resultLine(f.d)
		return final && !slices.ContainsFunc(f.checks, func(id string) bool { return !lineRefuted[id] })
	})
	clear(cr.at) // prose contradictions below are new lines
	for i, f := range cr.found {
		cr.at[f.d] = i
	}
	return results
}

// lineReading is one line and its clauses read.
type lineReading struct {
	d  *docLine
	rs []reading
}

// fieldKey is the key a line's admissions are kept under: its field, or
// the line itself outside fields.
func fieldKey(d *docLine) string {
	if d.field == "" {
		return fmt.Sprint("line ", d.N)
	}
	return d.field
}

// readProse reads every line that is not harness output: every field's,
// "Unverified behavior" too, and the lines outside fields; fenced code
// that is not harness output or a field is not read.
func (cr *claimReader) readProse(results map[*docLine]bool) {
	var all []lineReading
	admitted := map[string][]int{} // by field: tests admitted failing
	admittedChecks := map[string][]string{}
	seen := map[string][]reading{} // a line read before, by what its reading depends on
	for _, d := range cr.p.lines {
		// Code is not read, but for counts pasted in it ("passed": 29).
		if results[d] || d.kind == kindCode && !keyCountRe.MatchString(d.body) || d.kind == kindFence || d.kind == kindBlank || d.kind == kindGenerated {
			continue
		}
		if d.label && d.field == fieldIntegration {
			continue // read by the integration rule below
		}
		key := fmt.Sprint(d.field, "\x00", d.num, "\x00", strings.HasPrefix(strings.TrimSpace(d.Text), "|"), "\x00", d.body)
		rs, ok := seen[key]
		if !ok {
			rs = readLine(d)
			seen[key] = rs
		}
		all = append(all, lineReading{d, rs})
		key = fieldKey(d)
		for _, r := range rs {
			if r.kind == readAdmit {
				admitted[key] = append(admitted[key], r.tests...)
				admittedChecks[key] = append(admittedChecks[key], r.checks...)
				// A failure the record admits anywhere narrows its broad
				// claims ("all passed") too, not those naming a test.
				admitted[""] = append(admitted[""], r.tests...)
				admittedChecks[""] = append(admittedChecks[""], r.checks...)
			}
		}
	}
	for _, lr := range all {
		for _, r := range lr.rs {
			cr.judgeReading(lr.d, r, admitted, admittedChecks)
		}
	}
}

// judgeReading weighs one clause's reading against the run.
func (cr *claimReader) judgeReading(d *docLine, r reading, admitted map[string][]int, admittedChecks map[string][]string) {
	key := fieldKey(d)
	switch r.kind {
	case readUnread:
		cr.quote(&cr.v.Unread, d, r.why)
	case readOwn:
		cr.quote(&cr.v.OwnTests, d, "the learner's own tests: this run cannot refute them")
	case readImpossible:
		cr.impossible(d, r.claimWords(), r.why)
	case readPass:
		if r.ratioB > 0 || r.hasCount {
			// A count is compared whole; the failures the field admits
			// are left out of what it quotes.
			ids := refuting(r, cr.run)
			r.exceptTests, r.exceptChecks = admitted[key], admittedChecks[key]
			if rest := refuting(reading{kind: readPass, tests: r.tests, checks: r.checks, only: r.only, scope: r.scope, allow: -1,
				exceptTests: r.exceptTests, exceptChecks: r.exceptChecks}, cr.run); len(ids) > 0 && len(rest) > 0 {
				ids = rest
			}
			cr.refute(d, r.claimWords(), ids)
			return
		}
		r.exceptTests = append(r.exceptTests, admitted[key]...)
		r.exceptChecks = append(r.exceptChecks, admittedChecks[key]...)
		if len(r.tests) == 0 && len(r.checks) == 0 {
			r.exceptTests = append(r.exceptTests, admitted[""]...)
			r.exceptChecks = append(r.exceptChecks, admittedChecks[""]...)
		}
		ids := refuting(r, cr.run)
		cr.refute(d, r.claimWords(), ids)
		if len(ids) == 0 {
			if id := untied(r, cr.run); id != "" {
				cr.quote(&cr.v.Unread, d, "check "+id+" failed, and no finding of it names the rule this line speaks of or another rule of the check")
			}
		}
	}
}

// integrationRules: "Integration demonstrated" says yes while discovery
// or the tool call failed; and a server that fails discovery and both
// searches gave no usable stdio reply, so a record saying it works over
// stdio claims a transport it did not speak. A plan ("will use stdio")
// claims nothing.
func (cr *claimReader) integrationRules() {
	p, run := cr.p, cr.run
	if f, ok := p.fields[fieldIntegration]; ok && claimsDone(f.Value) {
		if ids := failedWhere(run, (*Check).isIntegration); len(ids) > 0 {
			d := lineAt(p, valueLine(f).N)
			cr.refute(d, "integration (tool discovery and a tool call) was demonstrated", ids)
		}
	}
	f, ok := p.fields[fieldTransport]
	if !ok {
		return
	}
	noStdio := failedWhere(run, func(c *Check) bool { return c.ID == testCheck(1) || c.ID == testCheck(2) || c.ID == testCheck(8) })
	integ := false
	if g, ok := p.fields[fieldIntegration]; ok {
		integ = claimsDone(g.Value)
	}
	if len(noStdio) != 3 {
		return
	}
	for _, ln := range f.Lines {
		t := fold(lineAt(p, ln.N).body)
		if stdioRe.MatchString(t) && !planRe.MatchString(t) && (integ || worksRe.MatchString(t) || passRe.MatchString(t) || passSymRe.MatchString(t)) {
			cr.refute(lineAt(p, ln.N), "the server works over stdio", noStdio)
			return
		}
	}
}

// assemble writes the contradictions in line order, each refuting
// check's evidence quoted once.
func (cr *claimReader) assemble() {
	slices.SortFunc(cr.found, func(a, b pending) int { return a.d.N - b.d.N })
	shown := map[string]bool{}
	for _, f := range cr.found {
		c := Contradiction{Field: f.d.field, Line: f.d.N, Quote: strings.TrimSpace(f.d.Text), Claim: f.claim}
		if f.why != "" {
			c.Evidence = f.why
		}
		for _, id := range f.checks {
			ch := cr.run.Find(id)
			c.Checks = append(c.Checks, *ch)
			if c.Check == "" && !shown[id] {
				shown[id] = true
				c.Check, c.Evidence = id, evidenceLine(ch)
				continue
			}
			c.See = append(c.See, id)
		}
		cr.v.Contradictions = append(cr.v.Contradictions, c)
	}
}

// refuting lists the failed checks a pass reading speaks for, less the
// ones it leaves out; none when its allowance of unnamed failures covers
// them.
func refuting(r reading, run *Run) []string {
	if r.passedN > 0 {
		if r.passedN <= run.Passed {
			return nil
		}
		return run.FailedIDs()
	}
	var want []string
	switch {
	case len(r.checks) > 0 || len(r.tests) > 0:
		want = append(want, r.checks...)
		for _, t := range r.tests {
			want = append(want, testChecks(t)...)
		}
	case r.scope == scopeAcceptance:
		for t := 1; t <= 8; t++ {
			want = append(want, testChecks(t)...)
		}
	case r.scope == scopeBoundary:
		for t := 3; t <= 7; t++ {
			want = append(want, testChecks(t)...)
		}
		for _, c := range run.Checks {
			if c.Section == "boundary" {
				want = append(want, c.ID)
			}
		}
	case r.scope == scopeAll:
		for _, c := range run.Checks {
			want = append(want, c.ID)
		}
	case r.scope == scopePassage:
		want = []string{testCheck(1)}
	}
	skip := map[string]bool{}
	for _, id := range r.exceptChecks {
		skip[id] = true
	}
	for _, t := range r.exceptTests {
		for _, id := range testChecks(t) {
			skip[id] = true
		}
	}
	var failed []string
	seen := map[string]bool{}
	failedTests := map[int]bool{}
	for _, id := range want {
		c := run.Find(id)
		if c == nil || c.Status != checks.StatusFail || skip[id] || seen[id] || !brokenRule(c, r.only[id]) {
			continue
		}
		seen[id] = true
		failed = append(failed, id)
		failedTests[testOf(id)] = true
	}
	if r.hasCount {
		if r.countFailed >= run.Failed {
			return nil
		}
		return run.FailedIDs()
	}
	units := len(failed)
	if r.scope == scopeAcceptance || len(r.tests) > 0 {
		units = len(failedTests)
	}
	if r.ratioB > 0 {
		if r.ratioB-r.ratioA >= units {
			return nil
		}
		return failed
	}
	if r.allow >= 0 && units <= r.allow {
		return nil
	}
	return failed
}

func failedWhere(run *Run, keep func(*Check) bool) []string {
	var out []string
	for i := range run.Checks {
		c := &run.Checks[i]
		if c.Status == checks.StatusFail && keep(c) {
			out = append(out, c.ID)
		}
	}
	return out
}

// valueLine is the first of a field's lines that carries its value.
func valueLine(f *field) srcLine {
	if _, v, _ := labelLine(lineView(f.Lines[0].Text)); strings.TrimSpace(v) == "" && len(f.Lines) > 1 {
		return f.Lines[1]
	}
	return f.Lines[0]
}

func lineAt(p parsed, n int) *docLine { return p.lines[n-1] }

// evidenceLine is the one line of a check's evidence that says what
// failed: its first "FAIL:" line, else its first line, else its title.
func evidenceLine(c *Check) string {
	first := ""
	for _, l := range strings.Split(c.Evidence, "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if strings.HasPrefix(l, "FAIL") {
			return clip(l, 300)
		}
		if first == "" {
			first = l
		}
	}
	if first == "" {
		first = c.Title
	}
	return clip(first, 300)
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// brokenRule reports whether a failed check broke one of the rules a
// claim names: any of them when the claim names the whole check (only is
// nil), else one whose findings appear in the check's evidence. A check
// that failed for another reason refutes nothing the claim says.
func brokenRule(c *Check, only []*regexp.Regexp) bool {
	if only == nil {
		return true
	}
	for _, l := range strings.Split(c.Evidence, "\n") {
		for _, re := range only {
			if re.MatchString(l) {
				return true
			}
		}
	}
	return false
}

// untied returns a failed check that a claim names only by some of its
// rules when none of the check's findings is tied to any of its rules
// (check 20's search that hangs over four traps at once): the failure
// may be the claim's rule, so a person reads it rather than the reader
// guessing either way.
func untied(r reading, run *Run) string {
	skip := map[string]bool{}
	for _, id := range r.exceptChecks {
		skip[id] = true
	}
	for _, t := range r.exceptTests {
		for _, id := range testChecks(t) {
			skip[id] = true
		}
	}
	for _, id := range slices.Sorted(maps.Keys(r.only)) {
		c := run.Find(id)
		if c == nil || c.Status != checks.StatusFail || skip[id] {
			continue
		}
		if i := slices.IndexFunc(catalog, func(s subject) bool { return s.id == id }); i >= 0 && !brokenRule(c, catalog[i].partFindings()) {
			return id
		}
	}
	return ""
}
