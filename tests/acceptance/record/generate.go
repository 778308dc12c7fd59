package record

import (
	"fmt"
	"strings"

	"practice-notes/tests/acceptance/checks"
)

// Generate writes a completion record for the run: the specification's six
// fields with what the run knows filled in and ___ where a person must
// write, then the run's results check by check in a block the record check
// recognises and compares with the run it is graded against. previous, if
// not empty, is the record being replaced: what a person wrote in place of
// a ___ of "Server source created" or "Exact passage manually checked" is
// kept.
func Generate(run *Run, previous string) string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	date := run.Date.UTC().Format("2006-01-02 15:04 MST")
	kept := map[string]string{}
	if previous != "" {
		prev := parse(previous)
		for _, name := range []string{fieldSource, fieldPassage} {
			if f, ok := prev.fields[name]; ok && !strings.Contains(f.Value, "___") && strings.TrimSpace(f.Value) != "" {
				kept[name] = strings.Join(strings.Fields(f.Value), " ")
			}
		}
	}
	or := func(name, blank string) string {
		if v, ok := kept[name]; ok {
			return v
		}
		return blank
	}
	p("# Completion record\n\n")
	p("<!-- Written by scripts/acceptance.sh --learner-record from the acceptance run on %s. Replace each ___ with what a person did; after changing the server, run the same command again (what you wrote in place of a ___ of the first and third fields is kept). -->\n\n", date)
	source := "___ (where the server's source is: folder or repository, and commit)"
	if run.ServerSource != "" {
		source = mdText(run.ServerSource)
	}
	p("**Server source created:** %s\n\n", or(fieldSource, source))

	var failed []string
	for _, c := range run.Checks {
		if c.Status == checks.StatusFail {
			failed = append(failed, c.ID)
		}
	}
	p("**Boundary tests run:** the acceptance harness (`scripts/acceptance.sh`) on %s, over stdio: %d passed, %d failed", date, run.Passed, run.Failed)
	if len(failed) > 0 {
		p(" (failed: checks %s)", strings.Join(failed, ", "))
	}
	p(", %d warnings, %d skipped; ", run.Warnings, run.Skipped)
	// What the harness saw of the N2 passage belongs here, not in the
	// next field, which only a person fills in.
	if run.N2 != nil && run.N2.Identical {
		p("the harness found the passage returned for sign-in byte-identical to %s lines %d-%d; ", mdText(run.N2.File), run.N2.StartLine, run.N2.EndLine)
	} else {
		p("the harness did not find the N2 passage byte for byte in the reply to sign-in; ")
	}
	p("every check is in the results below.\n\n")

	p("**Exact passage manually checked:** %s\n\n", or(fieldPassage, "___ (who compared the passage the server returned for sign-in with sample-notes.md, and on what date)"))

	client := "the acceptance harness's MCP client"
	if run.HarnessSDK != "" {
		client += " (" + mdText(run.HarnessSDK) + ")"
	}
	p("**Client and transport:** %s, stdio, the server started as a separate process; any other client you connected, and its transport: ___\n\n", client)

	c8 := run.Find(testCheck(8))
	switch {
	case c8 == nil:
		p("**Integration demonstrated:** not shown by this run (it has no check 8); with an AI client: ___\n\n")
	case c8.Status == checks.StatusFail:
		p("**Integration demonstrated:** not demonstrated: check 8 (tool discovery and a tool call) failed in this run; with an AI client: ___\n\n")
	default:
		p("**Integration demonstrated:** check 8: tool discovery and a search_notes call by the harness's client, as a separate process; with an AI client (name it, or write pending): ___\n\n")
	}
	p("**Unverified behavior:**\n\n")
	p("- This run connected no AI desktop client and used no model.\n")
	p("- Only stdio was exercised: a local stdio server is not a remotely reachable HTTPS connector.\n")
	for _, c := range run.Checks {
		switch c.Status {
		case checks.StatusSkip:
			p("- Check %s was skipped: %s\n", c.ID, mdText(firstLineOf(c.Evidence, c.Title)))
		case checks.StatusWarn:
			p("- Check %s warned: %s\n", c.ID, mdText(firstLineOf(c.Evidence, c.Title)))
		}
	}
	p("\n## Results of the run\n\n")
	p("%s; run %s; write nothing inside this block, run the command again -->\n", generatedBegin, run.Date.UTC().Format("2006-01-02T15:04:05Z"))
	p("| Check | Result | What it checks |\n|---|---|---|\n")
	for _, c := range run.Checks {
		p("| %s | %s | %s |\n", mdText(c.ID), strings.ToUpper(string(c.Status)), mdText(c.Title))
	}
	p("| all | %d passed, %d failed | %d warnings, %d skipped |\n", run.Passed, run.Failed, run.Warnings, run.Skipped)
	p("%s\n", generatedEnd)
	return b.String()
}

// mdText makes text from a run safe inside a Markdown table cell and an
// HTML comment: one line, no cell bars, no comment ends.
func mdText(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return strings.NewReplacer("|", `\|`, "-->", "- ->", "<!--", "<! --", "`", "'").Replace(s)
}

func firstLineOf(s, fallback string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return fallback
	}
	l, _, _ := strings.Cut(s, "\n")
	return clip(l, 300)
}
