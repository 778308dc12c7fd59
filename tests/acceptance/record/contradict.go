package record

import (
	"fmt"
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

// pending is a contradiction being built: its line and refuting checks.
type pending struct {
	d      *docLine
	claim  string
	checks []string
}

// readClaims reads every claim of the record against the run and fills
// the verdict's contradictions, unread lines, own-test lines and notes.
func readClaims(p parsed, run *Run, v *Verdict) {
	var found []pending
	at := map[*docLine]int{} // index in found of a line's contradiction
	refute := func(d *docLine, claim string, ids []string) {
		if len(ids) == 0 {
			return
		}
		if i, ok := at[d]; ok {
			for _, id := range ids {
				if !slices.Contains(found[i].checks, id) {
					found[i].checks = append(found[i].checks, id)
				}
			}
			return
		}
		at[d] = len(found)
		found = append(found, pending{d: d, claim: claim, checks: ids})
	}
	quoted := map[int]bool{}
	quote := func(list *[]Quoted, d *docLine, why string) {
		if quoted[d.N] {
			return
		}
		quoted[d.N] = true
		*list = append(*list, Quoted{Field: d.field, Line: d.N, Quote: strings.TrimSpace(d.Text), Why: why})
	}

	// Results as the harness writes them, pasted or generated, are
	// compared line by line; they are not read as prose.
	results := map[*docLine]bool{}
	evidence := false // inside the indented evidence under a FAIL or WARN line
	for _, d := range p.lines {
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
				refute(d, fmt.Sprintf("%s count only %d failed", where, failed), run.FailedIDs())
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
			refute(d, fmt.Sprintf("%s say check %s did not fail (%s)", where, id, strings.ToUpper(string(status))), []string{id})
		case status != c.Status:
			v.Notes = append(v.Notes, fmt.Sprintf("line %d: %s say check %s %s, this run %s", d.N, where, id, strings.ToUpper(string(status)), strings.ToUpper(string(c.Status))))
		}
	}
	// A final count refuted only by checks a line above already refutes
	// is the same contradiction: it is dropped.
	lineRefuted := map[string]bool{} // checks a PASS line above already shows refuted
	for _, f := range found {
		if id, _, _, _ := resultLine(f.d); id != "" {
			lineRefuted[id] = true
		}
	}
	found = slices.DeleteFunc(found, func(f pending) bool {
		_, _, final, _ := resultLine(f.d)
		return final && !slices.ContainsFunc(f.checks, func(id string) bool { return !lineRefuted[id] })
	})
	clear(at) // prose contradictions below are new lines
	for i, f := range found {
		at[f.d] = i
	}

	// Prose: every line of every field but "Unverified behavior", and the
	// lines outside fields; fenced code that is not harness output is not
	// read.
	type lineReading struct {
		d  *docLine
		rs []reading
	}
	var all []lineReading
	admitted := map[string][]int{} // by field: tests admitted failing
	admittedChecks := map[string][]string{}
	for _, d := range p.lines {
		if results[d] || d.field == fieldUnverified || d.kind == kindCode || d.kind == kindFence || d.kind == kindBlank || d.kind == kindGenerated {
			continue
		}
		if d.label && d.field == fieldIntegration {
			continue // read by the integration rule below
		}
		rs := readLine(d)
		all = append(all, lineReading{d, rs})
		key := d.field
		if key == "" {
			key = fmt.Sprint("line ", d.N)
		}
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
		d := lr.d
		key := d.field
		if key == "" {
			key = fmt.Sprint("line ", d.N)
		}
		for _, r := range lr.rs {
			switch r.kind {
			case readUnread:
				quote(&v.Unread, d, r.why)
			case readOwn:
				quote(&v.OwnTests, d, "the learner's own tests: this run cannot refute them")
			case readPass:
				if r.ratioB > 0 || r.hasCount {
					// A count is compared whole; the failures the
					// field admits are left out of what it quotes.
					ids := refuting(r, run)
					r.exceptTests, r.exceptChecks = admitted[key], admittedChecks[key]
					if rest := refuting(reading{kind: readPass, tests: r.tests, checks: r.checks, scope: r.scope, allow: -1,
						exceptTests: r.exceptTests, exceptChecks: r.exceptChecks}, run); len(ids) > 0 && len(rest) > 0 {
						ids = rest
					}
					refute(d, r.claimWords(), ids)
					continue
				}
				r.exceptTests = append(r.exceptTests, admitted[key]...)
				r.exceptChecks = append(r.exceptChecks, admittedChecks[key]...)
				if len(r.tests) == 0 && len(r.checks) == 0 {
					r.exceptTests = append(r.exceptTests, admitted[""]...)
					r.exceptChecks = append(r.exceptChecks, admittedChecks[""]...)
				}
				refute(d, r.claimWords(), refuting(r, run))
			}
		}
	}

	// "Integration demonstrated" says yes while discovery or the tool
	// call failed.
	if f, ok := p.fields[fieldIntegration]; ok && claimsDone(f.Value) {
		if ids := failedWhere(run, (*Check).isIntegration); len(ids) > 0 {
			d := lineAt(p, valueLine(f).N)
			refute(d, "integration (tool discovery and a tool call) was demonstrated", ids)
		}
	}
	// A server that fails discovery and both searches gave no usable stdio
	// reply: a record saying it works over stdio claims a transport it did
	// not speak. A plan ("will use stdio") claims nothing.
	if f, ok := p.fields[fieldTransport]; ok {
		noStdio := failedWhere(run, func(c *Check) bool { return c.ID == "1" || c.ID == "2" || c.ID == "8" })
		integ := false
		if g, ok := p.fields[fieldIntegration]; ok {
			integ = claimsDone(g.Value)
		}
		if len(noStdio) == 3 {
			for _, ln := range f.Lines {
				t := fold(lineAt(p, ln.N).body)
				if stdioRe.MatchString(t) && !planRe.MatchString(t) && (integ || worksRe.MatchString(t) || passRe.MatchString(t) || passSymRe.MatchString(t)) {
					refute(lineAt(p, ln.N), "the server works over stdio", noStdio)
					break
				}
			}
		}
	}

	slices.SortFunc(found, func(a, b pending) int { return a.d.N - b.d.N })
	shown := map[string]bool{}
	for _, f := range found {
		c := Contradiction{Field: f.d.field, Line: f.d.N, Quote: strings.TrimSpace(f.d.Text), Claim: f.claim}
		for _, id := range f.checks {
			ch := run.Find(id)
			c.Checks = append(c.Checks, *ch)
			if c.Check == "" && !shown[id] {
				shown[id] = true
				c.Check, c.Evidence = id, evidenceLine(ch)
				continue
			}
			c.See = append(c.See, id)
		}
		v.Contradictions = append(v.Contradictions, c)
	}
}

// refuting lists the failed checks a pass reading speaks for, less the
// ones it leaves out; none when its allowance of unnamed failures covers
// them.
func refuting(r reading, run *Run) []string {
	var want []string
	switch {
	case len(r.checks) > 0 || len(r.tests) > 0:
		want = append(want, r.checks...)
		for _, t := range r.tests {
			want = append(want, testChecks[t]...)
		}
	case r.scope == scopeAcceptance:
		for t := 1; t <= 8; t++ {
			want = append(want, testChecks[t]...)
		}
	case r.scope == scopeBoundary:
		for t := 3; t <= 7; t++ {
			want = append(want, testChecks[t]...)
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
		want = []string{"1"}
	}
	skip := map[string]bool{}
	for _, id := range r.exceptChecks {
		skip[id] = true
	}
	for _, t := range r.exceptTests {
		for _, id := range testChecks[t] {
			skip[id] = true
		}
	}
	var failed []string
	seen := map[string]bool{}
	failedTests := map[int]bool{}
	for _, id := range want {
		c := run.Find(id)
		if c == nil || c.Status != checks.StatusFail || skip[id] || seen[id] {
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
	if _, v, _ := labelLine(f.Lines[0].Text); strings.TrimSpace(v) == "" && len(f.Lines) > 1 {
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
