package harness

import (
	"fmt"

	"practice-notes/tests/acceptance/checks"
)

// verdicts hands everything the run found to checks.Assemble, the one
// place a status is decided, and copies the results into the report.
func (r *runner) verdicts() {
	// Every exchange of a session is named by its place in the run, as
	// the leak rule's sightings name it.
	keys := map[*checks.Exchange]string{}
	byKey := map[string]*checks.Exchange{}
	for i, ex := range r.allExchanges {
		keys[ex] = exchangeKey(i)
		byKey[keys[ex]] = ex
	}
	leakFacts := r.leakFacts()
	r.transcribeRule(checks.LeakRule(), leakFacts)
	leaks := checks.LeakRule().JudgeOn(leakFacts).Sightings
	for _, s := range leaks {
		if ex := byKey[s.Step]; ex != nil {
			ex.Leaks = checks.AppendNew(ex.Leaks, s.What)
		}
	}
	step := func(ex *checks.Exchange) (string, []string) {
		if ex == nil {
			return "", nil
		}
		k, ok := keys[ex]
		if !ok {
			k = fmt.Sprintf("exchange %d", len(keys)+1)
			keys[ex] = k
		}
		return k, evidenceLines(ex)
	}
	// A finding names its exchange by its place in the run.
	convert := func(owner *checks.Check, f checks.Finding) checks.Finding {
		f.Owner = owner
		f.Step, f.Quote = step(f.Exchange)
		return f
	}
	found := checks.Found{Outcomes: map[*checks.Check]*checks.Outcome{}}
	for _, def := range checks.All() {
		c := r.checks[def.ID]
		o := &checks.Outcome{Summary: c.Summary, Notes: c.Notes, Skip: c.SkipReason, NotGraded: r.notGraded(def)}
		for _, f := range c.findings {
			o.Findings = append(o.Findings, convert(def, f))
		}
		found.Outcomes[def] = o
	}
	for _, s := range leaks {
		if ex := byKey[s.Step]; ex != nil {
			s.Quote = evidenceLines(ex)
		}
		found.Sightings = append(found.Sightings, s)
	}

	// The run-wide rules judged from recorded facts.
	facts := r.runFacts(step)
	r.rep.Unanswered = r.unanswered()
	quote := map[string][]string{}
	for ex, k := range keys {
		quote[k] = evidenceLines(ex)
	}
	for _, rule := range []*checks.Rule{checks.TimeoutRule(), checks.StdoutRule()} {
		r.transcribeRule(rule, facts)
		v := rule.JudgeOn(facts)
		for _, f := range v.Findings {
			f.Owner, f.Quote = rule.Owner, quote[f.Step]
			if rule == checks.TimeoutRule() {
				found.Cross = append(found.Cross, f)
			} else {
				found.Late = append(found.Late, f)
			}
		}
		if v.Summary != "" {
			found.Outcomes[rule.Owner].Summary += "; " + v.Summary
		}
	}

	r.take(checks.Assemble(checks.All(), found))
}

// runFacts gathers what the run-wide timeout and stdout rules judge:
// every process's stray stdout lines and every request that timed out,
// named by step.
func (r *runner) runFacts(step func(*checks.Exchange) (string, []string)) *checks.Facts {
	facts := &checks.Facts{TimeLimit: r.cfg.Timeout.String()}
	for _, key := range r.violationOrder {
		v := r.violations[key]
		facts.Processes = append(facts.Processes, checks.Process{Checks: key, BadLines: v, BadCount: max(r.badCounts[key], len(v))})
	}
	for _, ex := range r.allExchanges {
		if ex.TimedOut {
			k, _ := step(ex)
			facts.Timeouts = append(facts.Timeouts, checks.Timeout{Check: ex.Check, Method: r.calls.label(ex), Step: k,
				Phase: r.calls.of(ex).phase, Charged: r.failedOn(ex)})
		}
	}
	return facts
}

// Unanswered is a call that got no answer within the limit: the check
// that sent it, the phase when not the check's own probe, the method as
// the checks name it, and the harness's words for the timeout (with what
// the server's processes did meanwhile, where the system tells).
type Unanswered struct {
	Check  string `json:"check"`
	Phase  string `json:"phase,omitempty"`
	Method string `json:"method"`
	Error  string `json:"error"`
}

// unanswered lists the run's calls that timed out, in the order sent.
func (r *runner) unanswered() []Unanswered {
	var out []Unanswered
	for _, ex := range r.allExchanges {
		if ex.TimedOut {
			out = append(out, Unanswered{Check: ex.Check, Phase: r.calls.of(ex).phase, Method: r.calls.label(ex), Error: ex.Error})
		}
	}
	return out
}

// take copies the assembled results into the report and counts them.
func (r *runner) take(results []checks.Result) {
	for _, res := range results {
		c := r.checks[res.Check.ID]
		c.Status, c.Evidence, c.Hint = res.Status, res.Evidence, res.Hint
		c.Summary, c.Notes, c.SkipReason = res.Summary, res.Notes, res.SkipReason
		c.Failures, c.Warnings = res.Failures, res.Warnings
		switch c.Status {
		case checks.StatusPass:
			r.rep.Passed++
		case checks.StatusFail:
			r.rep.Failed++
		case checks.StatusWarn:
			r.rep.Warnings++
		case checks.StatusSkip:
			r.rep.Skipped++
		}
		r.rep.Checks = append(r.rep.Checks, c)
	}
}

// failedOn reports whether any check failed on ex: the check that sent
// it, or the one a judge charged it to (an oversized request line of
// the generated phase, check 6's).
func (r *runner) failedOn(ex *checks.Exchange) bool {
	for _, c := range r.checks {
		if c.failedOn(ex) {
			return true
		}
	}
	return false
}
