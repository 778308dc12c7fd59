package class

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"practice-notes/tests/acceptance/checks"
	"practice-notes/tests/acceptance/record"
)

// csvHeader is the first line of summary.csv.
var csvHeader = []string{"learner", "passed", "failed", "not_run", "warnings", "failed_checks", "record", "record_unread_lines", "regraded"}

// notRun lists the checks that could not run because the learner's server
// never started. The run counts them as failed; the outputs count them
// apart, so that one fault is not shown as many.
func notRun(r *Result) []string {
	ns := serverNeverStarted(r)
	if ns == nil {
		return nil
	}
	var ids []string
	for _, id := range ns.NotRun {
		if c := r.RunParsed.Find(id); c != nil && c.Status == checks.StatusFail {
			ids = append(ids, id)
		}
	}
	return ids
}

// failedCount is how many checks failed, less those that were not run.
func failedCount(r *Result) int { return r.RunParsed.Failed - len(notRun(r)) }

// writeCSV writes one row per learner. A learner that was not graded has
// empty counts, and a record not read against a run an empty
// record_unread_lines. Every cell goes through csvCell: a learner's folder
// name is never read as a formula.
func writeCSV(w io.Writer, results []*Result) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(csvHeader); err != nil {
		return err
	}
	for _, r := range results {
		row := []string{r.Learner, "", "", "", "", "", string(r.Record.State), "", ""}
		row[8], _ = regradeOutcome(r)
		if run := r.RunParsed; run != nil {
			row[1], row[2], row[3], row[4] = strconv.Itoa(run.Passed), strconv.Itoa(failedCount(r)), strconv.Itoa(len(notRun(r))), strconv.Itoa(run.Warnings)
			row[5] = strings.Join(slices.DeleteFunc(run.FailedIDs(), func(id string) bool { return slices.Contains(notRun(r), id) }), " ")
			if r.Record.State != record.Missing {
				row[7] = strconv.Itoa(r.Record.UnreadLines)
			}
		}
		for i := range row {
			row[i] = csvCell(row[i])
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// SummaryLine is the class's result in one line, for a terminal.
func SummaryLine(results []*Result) string { return summary(results, term) }

// summary is the class's result in one line, each learner's name and
// message passed through esc.
func summary(results []*Result, esc func(string) string) string {
	graded, clean := 0, 0
	var notGraded, noDeps, review []string
	for _, r := range results {
		switch {
		case r.DepsMissing:
			noDeps = append(noDeps, esc(r.Learner)+" ("+esc(strings.TrimPrefix(r.Error, "dependencies not installed: "))+")")
			continue
		case r.RunParsed == nil:
			notGraded = append(notGraded, esc(r.Learner))
			continue
		}
		graded++
		if r.ToReview() {
			review = append(review, esc(r.Learner))
		}
		if r.RunParsed.Failed == 0 {
			clean++
		}
	}
	s := fmt.Sprintf("%s graded, %d passed every check", Learners(graded), clean)
	if len(notGraded) > 0 || len(noDeps) > 0 {
		s = fmt.Sprintf("%d of %s graded, %d passed every check", graded, Learners(len(results)), clean)
	}
	if len(review) > 0 {
		s += "; to review (a call unanswered in one run of two): " + strings.Join(review, ", ")
	}
	if len(noDeps) > 0 {
		s += "; dependencies not installed: " + strings.Join(noDeps, ", ")
	}
	if len(notGraded) > 0 {
		s += "; not graded: " + strings.Join(notGraded, ", ")
	}
	return s
}

// Learners counts learners in words: "1 learner", "7 learners".
func Learners(n int) string {
	if n == 1 {
		return "1 learner"
	}
	return fmt.Sprintf("%d learners", n)
}

// resultWords is a learner's result in words, not escaped.
func resultWords(r *Result) string {
	if r.RunParsed == nil {
		return "not graded: " + r.Error
	}
	run := r.RunParsed
	if n := len(notRun(r)); n > 0 {
		return fmt.Sprintf("%d passed, %d failed, %d not run, %d warnings", run.Passed, failedCount(r), n, run.Warnings)
	}
	return fmt.Sprintf("%d passed, %d failed, %d warnings", run.Passed, run.Failed, run.Warnings)
}

// writeMarkdownSummary writes summary.md: the CSV's table for a person,
// each learner linked to their feedback file.
func writeMarkdownSummary(w io.Writer, results []*Result) error {
	var b strings.Builder
	b.WriteString("# Class results\n\n")
	b.WriteString(summary(results, mdInline) + ".\n\n")
	b.WriteString("| Learner | Passed | Failed | Not run | Warnings | Failed checks | Record |\n")
	b.WriteString("|---|---:|---:|---:|---:|---|---|\n")
	for _, r := range results {
		name := fmt.Sprintf("[%s](%s)", mdInline(r.Learner), linkTarget(r.Learner, ".md"))
		if r.ToReview() {
			name += " (to review)"
		}
		if run := r.RunParsed; run != nil {
			var failed []string
			if ns := serverNeverStarted(r); ns != nil {
				failed = append(failed, "server did not start: "+mdInline(ns.Cause))
			} else {
				for _, id := range run.FailedIDs() {
					failed = append(failed, mdInline(id)+": "+mdInline(reason(r, id)))
				}
			}
			fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %s | %s |\n", name, run.Passed, failedCount(r), len(notRun(r)), run.Warnings,
				strings.Join(failed, "; "), recordWords(r.Record))
		} else {
			fmt.Fprintf(&b, "| %s | | | | | %s | %s |\n", name, mdInline("not graded: "+r.Error), recordWords(r.Record))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// recordWords is a record's state for a table cell, with the number of
// claim lines a person must read when there are any: the reader never
// counts them as consistent.
func recordWords(v *record.Verdict) string {
	if n := v.UnreadLines; n > 0 {
		return fmt.Sprintf("%s, %s to read", v.State, lineCount(n))
	}
	return string(v.State)
}

// lineCount counts lines in words: "1 line", "3 lines".
func lineCount(n int) string {
	if n == 1 {
		return "1 line"
	}
	return fmt.Sprintf("%d lines", n)
}

// checkColumns lists every check id any learner's run has, in id order,
// with the first title seen for it.
func checkColumns(results []*Result) (ids []string, titles map[string]string) {
	titles = map[string]string{}
	for _, r := range results {
		if r.RunParsed == nil {
			continue
		}
		for _, c := range r.RunParsed.Checks {
			if _, ok := titles[c.ID]; !ok {
				titles[c.ID] = c.Title
				ids = append(ids, c.ID)
			}
		}
	}
	slices.SortFunc(ids, record.CompareIDs)
	return ids, titles
}
