package class

import (
	"fmt"
	"io"
	"net/url"
	"strings"

	"practice-notes/tests/acceptance/checks"
	"practice-notes/tests/acceptance/record"

	"practice-notes/tests/acceptance/visible"
)

// fileBase is the name of a learner's output files: the folder's name
// with controls and bidi characters written as escapes, so that listing
// the output folder prints none of them.
func fileBase(name string) string { return visible.Escape(name, "") }

func linkTarget(name, ext string) string { return url.PathEscape(fileBase(name)) + ext }

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// pwshQuote quotes s for PowerShell, where a single-quoted string
// doubles its quotes.
func pwshQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// kitPath stands for the learner's copy of this kit in the rerun command.
const kitPath = "path/to/practice-notes"

// harnessCommands is the one command a learner types in their project
// folder to run the checks with the kit's Go harness, on every system:
// go -C runs it in the kit's module, --dir "$PWD" brings the server
// command and the record back to the project ("$PWD" means the current
// folder in bash, zsh and PowerShell alike). A server command holding a
// single quote is quoted differently by the two shells: then the second
// form is PowerShell's.
func harnessCommands(r *Result, flag string) []string {
	form := func(quote func(string) string) string {
		return fmt.Sprintf("go -C %s run ./tests/acceptance/cmd/acceptance --dir \"$PWD\" --server %s %s %s", kitPath, quote(serverCommand(r)), flag, RecordFile)
	}
	if sh, ps := form(shellQuote), form(pwshQuote); sh != ps {
		return []string{sh, ps}
	}
	return []string{form(shellQuote)}
}

// mdCommands shows the forms of harnessCommands in fenced blocks.
func mdCommands(forms []string) string {
	if len(forms) == 1 {
		return mdFence(forms[0])
	}
	return mdFence(forms[0]) + "\nIn PowerShell:\n\n" + mdFence(forms[1])
}

// rerunCommand repeats the checks and the record check.
func rerunCommand(r *Result) string { return mdCommands(harnessCommands(r, "--completion")) }

// learnerRecordCommand writes COMPLETION.md from a run of the checks.
func learnerRecordCommand(r *Result) string {
	return mdCommands(harnessCommands(r, "--learner-record"))
}

func serverCommand(r *Result) string {
	if r.Command != "" {
		return r.Command
	}
	return "COMMAND THAT STARTS YOUR SERVER {root}"
}

// isolationLine says in one line how the learner's server was contained,
// from the words of the run's isolation report, without the grader's
// paths; the details are in docs/grading-isolation.md.
func isolationLine(iso string) string {
	const more = ` (details: the kit's docs/grading-isolation.md).`
	var parts []string
	if strings.Contains(iso, "ran as uid") {
		parts = append(parts, "a user of its own")
	}
	if strings.Contains(iso, "network") && strings.Contains(iso, "namespaces") {
		parts = append(parts, "no network")
	}
	if strings.Contains(iso, "mount") && strings.Contains(iso, "namespaces") {
		parts = append(parts, "only its own folders writable")
	}
	if strings.Contains(iso, "limits") {
		parts = append(parts, "limits on memory, processes and CPU time")
	}
	switch len(parts) {
	case 0:
		return "Your server ran in a process group of its own, not in a sandbox" + more
	case 1:
		return "Your server ran with " + parts[0] + more
	}
	return "Your server ran in a sandbox: " + strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1] + more
}

// Evidence is cut for the learner's page: the whole transcript is in the
// learner's .json.
const (
	evidenceLineBytes = 300
	evidenceLines     = 14
)

// writeFeedback writes the feedback to hand to one learner: what failed
// and why with the evidence that matters, what to fix, the warnings, the
// record's state with each contradiction, and the command to rerun the
// checks. Everything the learner controls is escaped: names with
// mdInline, commands, quotes and evidence in fenced blocks (mdFence).
func writeFeedback(w io.Writer, r *Result) error {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("# Practice-notes checks: %s\n\n", mdInline(r.Learner))
	p("Server command (from `%s`, run in your folder):\n\n%s\n", CommandFile, mdFence(r.Command))
	if r.DepsMissing {
		p("- Result: not graded, dependencies not installed\n")
	} else {
		p("- Result: %s\n", mdInline(resultWords(r)))
	}
	p("- Completion record (`%s`): %s\n", RecordFile, r.Record.State)
	if run := r.RunParsed; run != nil && run.Isolation != "" {
		p("- %s\n", isolationLine(run.Isolation))
	}
	if run := r.RunParsed; run != nil && run.Seed != 0 {
		p("- %s\n", seedLine(run.Seed))
	}
	p("\n")
	writeRegraded(&b, r)

	ns := serverNeverStarted(r)
	switch run := r.RunParsed; {
	case r.DepsMissing:
		p("## Not graded: dependencies not installed\n\n")
		p("The checks run your server without a network, so your folder must already hold what it imports. In your folder, run:\n\n%s\n", mdFence(r.Install))
	case run == nil:
		p("## Not graded\n\n%s\n", mdFence(r.Error))
		if r.HarnessStderr != "" {
			p("The harness's last words:\n\n%s\n", mdFence(lastLines(r.HarnessStderr, 8)))
		}
	case ns != nil:
		writeNoStart(&b, r, ns)
	default:
		writeChecks(&b, r, checks.StatusFail, "What failed")
		writeChecks(&b, r, checks.StatusWarn, "Warnings")
		var skipped []string
		for _, c := range run.Checks {
			if c.Status == checks.StatusSkip {
				skipped = append(skipped, mdInline(c.ID)+" ("+mdInline(firstLine(c.Evidence, c.Title))+")")
			}
		}
		if len(skipped) > 0 {
			p("## Skipped\n\n%s.\n\n", strings.Join(skipped, "; "))
		}
	}

	writeRuntimeFiles(&b, r)
	writeRecord(&b, r, ns != nil)

	p("## Rerun the checks on your machine\n\n")
	p("In your project folder, where `%s` is your copy of the practice-notes kit (with Go installed; bash, zsh or PowerShell):\n\n", kitPath)
	p("%s\n", rerunCommand(r))

	if run := r.RunParsed; run != nil {
		var passed []string
		for _, c := range run.Checks {
			if c.Status == checks.StatusPass {
				passed = append(passed, mdInline(c.ID))
			}
		}
		if len(passed) > 0 {
			p("## Passed\n\nChecks %s.\n", strings.Join(passed, ", "))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeNoStart is the one section of a learner whose server never
// started: the command, how it ended, its last stderr lines, the likely
// cause, and the checks that could not run.
func writeNoStart(b *strings.Builder, r *Result, ns *noStart) {
	p := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	p("## Your server did not start\n\n")
	how := "It did not answer `initialize` within the start limit."
	if ns.Exit != "" {
		how = "It ended with " + mdInline(ns.Exit) + " before answering `initialize`."
	}
	p("The checks ran your command in your folder. %s\n\n", how)
	if len(ns.Stderr) > 0 {
		p("Its last lines on stderr:\n\n%s\n", mdFence(clipLines(ns.Stderr)))
	} else {
		p("It wrote nothing on stderr.\n\n")
	}
	if len(ns.Stdout) > 0 {
		p("Its first lines on stdout:\n\n%s\n", mdFence(clipLines(ns.Stdout)))
	}
	p("Likely cause: %s\n\n", mdInline(ns.Cause))
	p("Not run, because the server did not start: checks %s.\n\n", mdInline(strings.Join(ns.NotRun, ", ")))
}

func clipLines(lines []string) string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l
		if len(l) > evidenceLineBytes {
			out[i] = safeCut(l, evidenceLineBytes) + " …"
		}
	}
	return strings.Join(out, "\n")
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return clipLines(lines)
}

func writeChecks(b *strings.Builder, r *Result, status checks.Status, heading string) {
	first := true
	fs := findings(r)
	for _, c := range r.RunParsed.Checks {
		if c.Status != status {
			continue
		}
		if first {
			fmt.Fprintf(b, "## %s\n\n", heading)
			first = false
		}
		fmt.Fprintf(b, "### Check %s: %s\n\n", mdInline(c.ID), mdInline(c.Title))
		for _, f := range fs[c.ID] {
			fmt.Fprintf(b, "- %s\n", mdItem(clipWords(f, evidenceLineBytes)))
		}
		if len(fs[c.ID]) > 0 {
			b.WriteString("\n")
		}
		if c.Hint != "" {
			fmt.Fprintf(b, "What to fix: %s\n\n", mdInline(c.Hint))
		}
		if strings.TrimSpace(c.Evidence) != "" {
			// The evidence is folded, so that each check reads on one
			// screen; no learner text goes into the raw HTML lines.
			ev, cut := cutEvidence(c.Evidence, evidenceLineBytes, evidenceLines)
			b.WriteString("<details><summary>Evidence</summary>\n\n")
			if cut {
				fmt.Fprintf(b, "Cut; the whole transcript is in %s.\n\n", mdInline(fileBase(r.Learner)+".json"))
			}
			fmt.Fprintf(b, "%s\n</details>\n\n", mdFence(ev))
		}
	}
}

// writeRecord writes the record's section: its state; each contradiction
// once, with its claim quoted, the one evidence line of the check that
// refutes it and "see also" for the other refuting checks; the problems;
// the claim lines a person must read; the lines about the learner's own
// tests; notes on results from another run; and, for a record that
// --learner-record wrote, how to write it again.
func writeRecord(b *strings.Builder, r *Result, noStart bool) {
	p := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	v := r.Record
	p("## Completion record: %s\n\n", v.State)
	switch v.State {
	case record.Missing:
		p("There is no `%s` in your folder. Fill in the specification's six fields from a real run, or let the checks write them, with `___` where a person must write, in your project folder:\n\n%s\n", RecordFile, learnerRecordCommand(r))
		return
	case record.Consistent:
		p("Every field is filled in and nothing in it is refuted by this run.\n\n")
	case record.Review:
		p("Every field is filled in and nothing the record check understood is refuted by this run, but it did not understand every line: a person reads the lines below.\n\n")
	}
	for _, c := range v.Contradictions {
		p("Contradicted: line %d of `%s` claims %s:\n\n%s\n", c.Line, RecordFile, mdInline(c.Claim), mdFence(c.Quote))
		switch {
		case noStart:
			p("but your server did not start, so no check passed.\n\n")
		case c.Check != "":
			also := ""
			if len(c.See) > 0 {
				also = " (see also " + checks.CheckWords(mdInlineAll(c.See)) + ")"
			}
			p("but check %s failed%s:\n\n%s\n", mdInline(c.Check), also, mdFence(c.Evidence))
		case len(c.See) > 0:
			p("but this run failed %s: see above.\n\n", checks.CheckWords(mdInlineAll(c.See)))
		default:
			p("but %s.\n\n", mdInline(c.Evidence))
		}
	}
	for _, pr := range v.Problems {
		where := ""
		if pr.Line > 0 {
			where = fmt.Sprintf(" (line %d)", pr.Line)
		}
		p("- Incomplete: \"%s\"%s: %s.\n", mdInline(pr.Field), where, mdInline(pr.Why))
	}
	if len(v.Problems) > 0 {
		p("\n")
	}
	if len(v.Unread) > 0 {
		p("### Read these yourself\n\n")
		p("The record check could not tell what these lines claim, so it counted them neither for nor against your record; a person reads them against the run.\n\n")
		for _, q := range v.Unread {
			p("Line %d, %s:\n\n%s\n", q.Line, mdInline(q.Why), mdFence(q.Quote))
		}
	}
	if len(v.OwnTests) > 0 {
		var ns []string
		var quotes []string
		for _, q := range v.OwnTests {
			ns = append(ns, fmt.Sprint(q.Line))
			quotes = append(quotes, q.Quote)
		}
		p("### Your own tests, not checked by this run\n\n")
		verb := "speaks"
		if len(ns) > 1 {
			verb = "speak"
		}
		p("%s of `%s` %s of your own tests, which this run can neither confirm nor refute:\n\n%s\n", lineWords(ns), RecordFile, verb, mdFence(strings.Join(quotes, "\n")))
	}
	if len(v.Notes) > 0 {
		p("### Results from another run\n\n")
		p("Results in your record differ from this run without claiming more than it shows:\n\n")
		for _, n := range v.Notes {
			p("- %s\n", mdItem(n))
		}
		p("\n")
	}
	if v.Generated {
		p("### Write the record again\n\n")
		p("Your record holds the results that `--learner-record` wrote. After you change your server, write it again from a new run, in your project folder (what you wrote in place of a `___` of \"Server source created\" and \"Exact passage manually checked\" is kept):\n\n%s\n", learnerRecordCommand(r))
	}
}

func mdInlineAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = mdInline(s)
	}
	return out
}

// lineWords names record lines in a sentence: "Line 4", "Lines 4 and 9".
func lineWords(ns []string) string {
	if len(ns) == 1 {
		return "Line " + ns[0]
	}
	return "Lines " + strings.Join(ns[:len(ns)-1], ", ") + " and " + ns[len(ns)-1]
}

// runtimeNote starts check 16's notes on what a runtime wrote by itself.
const runtimeNote = "runtime files, not charged: "

// writeRuntimeFiles names the files the runtime of the learner's command
// wrote by itself (its caches), which the checks saw and did not charge.
func writeRuntimeFiles(b *strings.Builder, r *Result) {
	if r.RunParsed == nil {
		return
	}
	var lines []string
	for _, c := range r.RunParsed.Checks {
		for _, n := range c.Notes {
			if rest, ok := strings.CutPrefix(n, runtimeNote); ok && len(lines) < evidenceLines {
				lines = append(lines, clipWords(rest, evidenceLineBytes))
			}
		}
	}
	if len(lines) == 0 {
		return
	}
	fmt.Fprintf(b, "## Runtime files, not charged\n\n")
	fmt.Fprintf(b, "The runtime that runs your server wrote these by itself (its caches): the checks saw them and did not count them against check 16.\n\n")
	for _, l := range lines {
		fmt.Fprintf(b, "- %s\n", mdItem(l))
	}
	b.WriteString("\n")
}
