package class

import (
	"fmt"
	"io"
	"net/url"
	"regexp"
	"strings"

	"practice-notes/tests/acceptance/record"
)

func linkTarget(name, ext string) string { return url.PathEscape(name) + ext }

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// kitPath stands for the learner's copy of this kit in the rerun command.
const kitPath = "path/to/practice-notes"

// rerunCommand is the one command a learner runs in their own project
// folder to repeat the checks and the record check.
func rerunCommand(r *Result) string {
	cmd := r.Command
	if cmd == "" {
		cmd = "COMMAND THAT STARTS YOUR SERVER {root}"
	}
	return fmt.Sprintf("%s/scripts/acceptance.sh --server %s --completion %s", kitPath, shellQuote(cmd), RecordFile)
}

var tildeRunRe = regexp.MustCompile("~{3,}|`{3,}")

// fenced puts text in a fenced block no line of it can close.
func fenced(text string) string {
	n := 4
	for _, m := range tildeRunRe.FindAllString(text, -1) {
		if len(m) >= n {
			n = len(m) + 1
		}
	}
	f := strings.Repeat("~", n)
	return f + "\n" + strings.TrimRight(text, "\n") + "\n" + f + "\n"
}

// writeFeedback writes the feedback to hand to one learner: what failed
// and why with the exact evidence, what to fix, the warnings, the record's
// state with each contradiction, and the command to rerun the checks.
func writeFeedback(w io.Writer, r *Result) error {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("# Practice-notes checks: %s\n\n", r.Learner)
	p("- Server command (from `%s`, run in your folder): `%s`\n", CommandFile, r.Command)
	p("- Result: %s\n", resultWords(r))
	p("- Completion record (`%s`): %s\n", RecordFile, r.Record.State)
	if run := r.RunParsed; run != nil && run.Isolation != "" {
		p("- Isolation: %s\n", run.Isolation)
	}
	p("\n")

	if run := r.RunParsed; run == nil {
		p("## Not graded\n\n%s.\n\n", r.Error)
		if r.HarnessStderr != "" {
			p("The harness's last words:\n\n%s\n", fenced(r.HarnessStderr))
		}
	} else {
		writeChecks(&b, run, record.StatusFail, "What failed")
		writeChecks(&b, run, record.StatusWarn, "Warnings")
		writeChecks(&b, run, record.StatusSkip, "Skipped")
	}

	writeRecord(&b, r.Record)

	p("## Rerun the checks on your machine\n\n")
	p("In your project folder, where `%s` is your copy of the practice-notes kit:\n\n", kitPath)
	p("%s\n", fenced(rerunCommand(r)))

	if run := r.RunParsed; run != nil {
		var passed []string
		for _, c := range run.Checks {
			if c.Status == record.StatusPass {
				passed = append(passed, fmt.Sprintf("- %s %s", c.ID, c.Title))
			}
		}
		if len(passed) > 0 {
			p("## Passed\n\n%s\n", strings.Join(passed, "\n")+"\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeChecks(b *strings.Builder, run *record.Run, status, heading string) {
	first := true
	for _, c := range run.Checks {
		if c.Status != status {
			continue
		}
		if first {
			fmt.Fprintf(b, "## %s\n\n", heading)
			first = false
		}
		fmt.Fprintf(b, "### Check %s: %s\n\n", c.ID, c.Title)
		fmt.Fprintf(b, "Section: %s. Status: %s.\n\n", c.Section, c.Status)
		if c.Hint != "" {
			fmt.Fprintf(b, "What to fix: %s\n\n", c.Hint)
		}
		if strings.TrimSpace(c.Evidence) != "" {
			fmt.Fprintf(b, "Evidence:\n\n%s\n", fenced(c.Evidence))
		}
	}
}

func writeRecord(b *strings.Builder, v *record.Verdict) {
	fmt.Fprintf(b, "## Completion record: %s\n\n", v.State)
	switch v.State {
	case record.Missing:
		fmt.Fprintf(b, "There is no `%s` in your folder. Fill in the specification's six fields from a real run.\n\n", RecordFile)
		return
	case record.Consistent:
		fmt.Fprintf(b, "Every field is filled in and nothing in it is refuted by this run.\n\n")
	}
	for _, c := range v.Contradictions {
		fmt.Fprintf(b, "- Contradicted: line %d of `%s` claims %s:\n\n", c.Line, RecordFile, c.Claim)
		fmt.Fprintf(b, "  > %s\n\n", c.Quote)
		var ids []string
		for _, ch := range c.Checks {
			ids = append(ids, ch.ID)
		}
		fmt.Fprintf(b, "  but this run failed %s:\n\n", checkWords(ids))
		for _, ch := range c.Checks {
			ev := ch.Evidence
			if strings.TrimSpace(ev) == "" {
				ev = "(the run gave no evidence text)"
			}
			fmt.Fprintf(b, "  Check %s (%s):\n\n%s\n", ch.ID, ch.Title, indent(fenced(ev), "  "))
		}
	}
	for _, pr := range v.Problems {
		where := ""
		if pr.Line > 0 {
			where = fmt.Sprintf(" (line %d)", pr.Line)
		}
		fmt.Fprintf(b, "- Incomplete: \"%s\"%s: %s.\n", pr.Field, where, pr.Why)
	}
	if len(v.Problems) > 0 {
		b.WriteString("\n")
	}
}

func indent(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n") + "\n"
}

// checkWords names checks in a sentence: "check 4", "checks 4 and 5",
// "checks 1, 2 and 8".
func checkWords(ids []string) string {
	switch len(ids) {
	case 0:
		return "no check"
	case 1:
		return "check " + ids[0]
	}
	return "checks " + strings.Join(ids[:len(ids)-1], ", ") + " and " + ids[len(ids)-1]
}
