package class

import (
	"fmt"
	"io"
	"strings"

	"practice-notes/tests/acceptance/checks"
)

// ProgressLine is the line printed on stderr as a learner finishes. The
// learner's name and anything else from outside is shown escaped (term).
func ProgressLine(r *Result, left int) string {
	secs := float64(r.DurationMs) / 1000
	if r.DepsMissing {
		return fmt.Sprintf("%s: %s; record %s; %.1f s; %d left", term(r.Learner), term(r.Error), r.Record.State, secs, left)
	}
	if r.RunParsed == nil {
		return fmt.Sprintf("%s: not graded (%s); record %s; %.1f s; %d left", term(r.Learner), term(r.Error), r.Record.State, secs, left)
	}
	if ns := serverNeverStarted(r); ns != nil {
		how := "no answer to initialize"
		if ns.Exit != "" {
			how = ns.Exit
		}
		return fmt.Sprintf("%s: server did not start (%s), %d checks not run; record %s; %.1f s; %d left",
			term(r.Learner), how, len(ns.NotRun), r.Record.State, secs, left)
	}
	failed := ""
	if ids := r.RunParsed.FailedIDs(); len(ids) > 0 {
		failed = " (" + term(strings.Join(ids, " ")) + ")"
	}
	twice := ""
	if r.ToReview() {
		twice = "; graded twice, to review: a call unanswered in the first run only"
	} else if r.FirstRun != nil {
		twice = "; graded twice"
	}
	return fmt.Sprintf("%s: %d passed, %d failed%s, %d warnings%s; record %s; %.1f s; %d left",
		term(r.Learner), r.RunParsed.Passed, r.RunParsed.Failed, failed, r.RunParsed.Warnings, twice, r.Record.State, secs, left)
}

var upper = map[checks.Status]string{
	checks.StatusPass: "PASS", checks.StatusFail: "FAIL", checks.StatusWarn: "WARN", checks.StatusSkip: "SKIP",
}

// WriteRecordCheck prints one learner's run and record grade as text for
// a terminal: a line per check (under a failure or warning its evidence,
// cut as on the learner's page, and what to fix), the record's state with
// each contradiction (its claim, the evidence line of the check that
// refutes it, the other refuting checks by number) and problem, the claim
// lines a person must read, the lines about the learner's own tests,
// notes on results from another run, how to write a generated record
// again, and last the run's "N passed, M failed".
// A server that never started gets check 1 and one line for the checks
// that could not run. Every string from the run or the record is shown
// escaped (term).
func WriteRecordCheck(w io.Writer, r *Result) {
	run, v := r.RunParsed, r.Record
	ns := serverNeverStarted(r)
	for _, c := range run.Checks {
		if ns != nil && c.ID != checks.ServerStart().ID {
			continue
		}
		fmt.Fprintf(w, "%s %s %s\n", upper[c.Status], term(c.ID), term(c.Title))
		if c.Status == checks.StatusFail || c.Status == checks.StatusWarn {
			if strings.TrimSpace(c.Evidence) != "" {
				ev, _ := cutEvidence(c.Evidence, evidenceLineBytes, evidenceLines)
				for _, l := range strings.Split(ev, "\n") {
					fmt.Fprintf(w, "    %s\n", term(l))
				}
			}
		}
		if c.Status != checks.StatusPass && c.Hint != "" {
			fmt.Fprintf(w, "    fix: %s\n", term(c.Hint))
		}
		if ns != nil {
			fmt.Fprintf(w, "    likely cause: %s\n", term(ns.Cause))
			fmt.Fprintf(w, "NOT RUN %s: the server did not start\n", term(strings.Join(ns.NotRun, " ")))
		}
	}
	fmt.Fprintf(w, "record %s: %s\n", term(v.File), v.State)
	for _, c := range v.Contradictions {
		fmt.Fprintf(w, "  contradicted: line %d claims %s: %s\n", c.Line, term(c.Claim), term(c.Quote))
		switch {
		case ns != nil:
			fmt.Fprintf(w, "    but the server did not start\n")
		case c.Check != "":
			also := ""
			if len(c.See) > 0 {
				also = " (see also " + checks.CheckWords(termAll(c.See)) + ")"
			}
			fmt.Fprintf(w, "    but check %s failed%s: %s\n", term(c.Check), also, term(c.Evidence))
		case len(c.See) == 0:
			fmt.Fprintf(w, "    but %s\n", term(c.Evidence))
		default:
			fmt.Fprintf(w, "    but %s failed: see above\n", checks.CheckWords(termAll(c.See)))
		}
	}
	for _, p := range v.Problems {
		if p.Line > 0 {
			fmt.Fprintf(w, "  incomplete: %s (line %d): %s\n", term(p.Field), p.Line, term(p.Why))
		} else {
			fmt.Fprintf(w, "  incomplete: %s: %s\n", term(p.Field), term(p.Why))
		}
	}
	for _, q := range v.Unread {
		fmt.Fprintf(w, "  read this yourself: line %d, %s: %s\n", q.Line, term(q.Why), term(q.Quote))
	}
	for _, q := range v.OwnTests {
		fmt.Fprintf(w, "  your own tests, not checked by this run: line %d: %s\n", q.Line, term(q.Quote))
	}
	for _, n := range v.Notes {
		fmt.Fprintf(w, "  from another run: %s\n", term(n))
	}
	if v.Generated {
		fmt.Fprintf(w, "  written by --learner-record: after changing the server, run this command with --learner-record %s to write it again\n", term(v.File))
	}
	fmt.Fprintf(w, "%d passed, %d failed\n", run.Passed, run.Failed)
}

func termAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = term(s)
	}
	return out
}

func firstLine(s, fallback string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return fallback
	}
	l, _, cut := strings.Cut(s, "\n")
	if cut {
		l += " …"
	}
	return l
}
