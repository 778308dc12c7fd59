package harness

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"

	"practice-notes/tests/acceptance/checks"
	"practice-notes/tests/acceptance/visible"
)

// EvidencePath is where --record FILE puts the full evidence: FILE with
// ".evidence.md" in place of ".md" (COMPLETION.md -> COMPLETION.evidence.md).
func EvidencePath(record string) string {
	return strings.TrimSuffix(record, ".md") + ".evidence.md"
}

var tempPathRe = regexp.MustCompile(regexp.QuoteMeta(filepath.Clean(os.TempDir())) + `/[^/\s"'` + "`" + `]+`)

// untemp replaces the run's temp folders by "<tmp>", so that the one-page
// record reads the same on every machine.
func untemp(s string) string { return tempPathRe.ReplaceAllString(s, "<tmp>") }

func cell(s string, n int) string {
	return strings.ReplaceAll(visible.Clip(untemp(s), n), "|", `\|`)
}

// oneLine is a check's result in one line of evidence.
func (c *CheckResult) oneLine() string {
	switch c.Status {
	case checks.StatusFail:
		return c.Failures[0]
	case checks.StatusWarn:
		return c.Warnings[0]
	case checks.StatusSkip:
		return c.SkipReason
	}
	if c.Summary != "" {
		return c.Summary
	}
	return c.Title
}

// Record renders the completion record on one page: the specification's
// six fields and one line per check. The full evidence is in the file
// named evidence, written by the same run. cr, when not nil, is a real
// client's run for the same commit (see LoadClientRun): the transport and
// integration fields then say what it showed, and only that.
func (r *Report) Record(evidence string, cr *ClientRun) string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	date := r.Date.UTC().Format("2006-01-02 15:04 MST")
	p("# Completion record: practice-notes MCP server\n\n")
	p("Written by `scripts/acceptance.sh --record` from the run on %s: **%s** (%d warnings, %d skipped). ", date, r.FinalLine(), r.Warnings, r.Skipped)
	p("Every statement comes from that run. The requests, replies and file states behind each line are in [%s](%s), written by the same run.\n\n", evidence, evidence)

	p("## Completion record\n\n")
	src := r.ServerSource
	if src == "" {
		src = fmt.Sprintf("not stated by the caller; the command graded was `%s`.", untemp(r.Server))
	}
	p("**Server source created:** %s\n\n", src)
	p("**Boundary tests run:** the specification's eight acceptance tests and %d further checks of its \"One tool\" and \"Access boundary\" rules and of protocol basics, run on %s against `%s` over stdio in %d server processes with a practice root built in a fresh temp dir (%s inside and outside the root, recorded by sha256 and mtime before the first call) and a fresh empty HOME and TMPDIR for each process. Isolation: %s. Result: %s, %d warnings, %d skipped (table below).\n\n",
		len(r.Checks)-8, date, untemp(r.Server), r.Processes, r.FixtureCounts, r.Isolation, r.FinalLine(), r.Warnings, r.Skipped)
	if r.N2 != nil && r.N2.Identical {
		p("**Exact passage manually checked:** Pending: no person has compared it yet. The harness found the returned passage byte-identical to %s lines %d-%d (both are shown in the evidence file); whoever compares them should replace this field with their name and the date.\n\n", r.N2.File, r.N2.StartLine, r.N2.EndLine)
	} else {
		p("**Exact passage manually checked:** Pending: no person has compared it, and the harness did not find a byte-identical N2 passage in this run.\n\n")
	}
	server := r.ServerInfo
	if server == "" {
		server = "(no serverInfo)"
	}
	p("**Client and transport:** the acceptance harness's own MCP client, %s built with %s; stdio transport (newline-delimited JSON-RPC on the server's stdin and stdout, the server started as a separate process through /bin/sh, diagnostics on stderr); %s; the server identified itself as %q.",
		r.HarnessSDK, r.HarnessGo, r.protocols(), server)
	if ran := cr.transports(true); ran != "" {
		p(" And %s %s, Anthropic's CLI client, in scripts/interop.sh at the same commit on %s: %s, with a scripted stand-in for the model API on loopback, not a real model.",
			cr.Client, cr.Version, cr.Date.UTC().Format("2006-01-02 15:04 MST"), ran)
	}
	p("\n\n")
	c8 := r.check(checks.Integration().ID)
	if c8.Status != checks.StatusFail {
		p("**Integration demonstrated:** check 8 PASS: %s. This was the harness's scripted SDK client, not an AI desktop application", untemp(c8.Summary))
		if ran := cr.transports(false); ran != "" {
			p(". %s %s %s with a scripted model: discovery and the tool call demonstrated (the model was shown mcp__practice-notes__search_notes with the server's description and input schema; sign-in came back in the tool_result as the exact N2 passage with its file and note ID, an absent phrase as the no-match message, a 201-character query as a tool error; `claude mcp list` said Connected). Integration with Claude Desktop, Cursor or VS Code, and with a real model, is pending.\n\n",
				cr.Client, cr.Version, ran)
		} else {
			p("; integration with a desktop client is pending.\n\n")
		}
	} else {
		p("**Integration demonstrated:** not demonstrated: check 8 FAILED (%s). Integration with any client is pending.\n\n", untemp(strings.Join(c8.Failures, "; ")))
	}
	p("**Unverified behavior:**\n\n")
	for _, u := range r.unverified(cr) {
		p("- %s\n", u)
	}
	p("\n## Checks\n\n")
	p("| Id | Section | Result | Check | Evidence (one line; all of it in [%s](%s)) |\n|---|---|---|---|---|\n", evidence, evidence)
	for _, c := range r.Checks {
		p("| %s | %s | %s | %s | %s |\n", c.ID, c.Section, status(c), cell(c.Title, 110), cell(c.oneLine(), 170))
	}
	return b.String()
}

// unverified lists what this run, and the client run cr if any, did not
// exercise.
func (r *Report) unverified(cr *ClientRun) []string {
	out := []string{
		"No AI desktop or hosted client (for example Claude Desktop or an IDE) was connected: their configuration, tool-approval prompts and how they present results are untested.",
		"Only local stdio was exercised: no HTTP transport was tested, and a local stdio server is not a remotely reachable HTTPS connector.",
	}
	if cr.transports(false) != "" {
		out[0] = fmt.Sprintf("No AI desktop client (Claude Desktop, Cursor, VS Code) was connected, and no real model: %s %s ran in print mode (-p) with the tool pre-approved and a scripted stand-in choosing each call, so a real model's choice of tool and arguments, tool-approval prompts and how any client presents results to a person are untested.", cr.Client, cr.Version)
	}
	if cr.Passed("http") {
		out[1] = fmt.Sprintf("The harness exercised stdio only; HTTP was exercised only by %s against `serve -http` on 127.0.0.1, and a local server is not a remotely reachable HTTPS connector.", cr.Client)
	}
	out = append(out,
		fmt.Sprintf("Not exercised: files or directories swapped for symlinks while a search runs, concurrent or cancelled calls, more than 20 skipped files, and operating systems other than %s.", runtime.GOOS),
		"The N2 passage was compared byte-for-byte by the harness only; the manual comparison is pending.",
	)
	if !strings.HasPrefix(r.Isolation, "process group;") {
		out = append(out, "The server ran without private namespaces, so writes outside its HOME, TMPDIR and the fixtures, and any network use, were neither prevented nor observed.")
	}
	for _, c := range r.Checks {
		if c.Status == checks.StatusSkip {
			out = append(out, fmt.Sprintf("Check %s (%s) was skipped: %s.", c.ID, c.Title, strings.TrimSuffix(c.SkipReason, ".")))
		}
	}
	if !r.ResourcesOffered {
		out = append(out, "The server offered no resources, so resources/read path handling was not exercised; the boundary checks used search_notes only.")
	}
	return out
}

var skippedListRe = regexp.MustCompile(`"skipped":\[[^\[\]]*\]`)

// Evidence renders everything behind the one-page record: per check the
// verdict, hint, observations and every request with its reply. A list of
// skipped files is shown once and referred to when it repeats.
func (r *Report) Evidence(record string) string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("# Evidence for the completion record\n\n")
	p("Written by the same `scripts/acceptance.sh --record` run as [%s](%s), on %s: **%s** (%d warnings, %d skipped).\n\n",
		record, record, r.Date.UTC().Format("2006-01-02 15:04 MST"), r.FinalLine(), r.Warnings, r.Skipped)
	p("%s.\n\n%s.\n\nIsolation: %s.\n\n", upperFirst(r.shapeLine()), upperFirst(r.resourcesLine()), r.Isolation)
	seenSkipped := map[string]bool{}
	for _, c := range r.Checks {
		p("## %s %s: %s\n\n", status(c), c.ID, c.Title)
		p("Section: %s.", c.Section)
		if c.Summary != "" {
			p(" %s", c.Summary)
		}
		p("\n\n")
		if c.Evidence != "" {
			p("~~~~~~\n%s\n~~~~~~\n\n", c.Evidence)
		}
		if c.Hint != "" {
			p("Fix: %s\n\n", c.Hint)
		}
		for _, n := range c.Notes {
			p("- Note: %s\n", n)
		}
		if len(c.Notes) > 0 {
			p("\n")
		}
		if len(c.Observed) > 0 {
			p("Observed:\n\n~~~~~~\n%s\n~~~~~~\n\n", strings.Join(c.Observed, "\n"))
		}
		if len(c.Exchanges) > 0 {
			p("Requests sent and replies received:\n\n~~~~~~\n")
			for _, ex := range c.Exchanges {
				if len(ex.Wire) > 0 {
					p("-> %s\n", visible.Truncate(ex.Wire[0], 1000))
					if len(ex.Wire) > 1 {
						p("<- %s   (%d ms)\n", visible.Truncate(skippedListRe.ReplaceAllStringFunc(ex.Wire[1], func(m string) string {
							if seenSkipped[m] {
								return `"skipped":[the same list as above]`
							}
							seenSkipped[m] = true
							return m
						}), 4000), ex.Millis)
					} else if ex.Error != "" {
						p("<- error after %d ms: %s\n", ex.Millis, visible.Truncate(ex.Error, 600))
					}
					for _, l := range ex.Leaks {
						p("!! leak: %s\n", l)
					}
					continue
				}
				p("-> %s %s\n", ex.Method, visible.Truncate(ex.Request, 300))
				if ex.Error != "" {
					p("<- error after %d ms: %s\n", ex.Millis, visible.Truncate(ex.Error, 600))
				} else {
					reply := ex.Display
					if reply == "" {
						reply = ex.Decoded
					}
					reply = skippedListRe.ReplaceAllStringFunc(reply, func(m string) string {
						if seenSkipped[m] {
							return `"skipped":[the same list as above]`
						}
						seenSkipped[m] = true
						return m
					})
					p("<- %d ms: %s\n", ex.Millis, visible.Truncate(reply, 4000))
				}
				for _, l := range ex.Leaks {
					p("!! leak: %s\n", l)
				}
			}
			p("~~~~~~\n\n")
		}
	}
	p("## N2 passage\n\n~~~~~~\n%s\n~~~~~~\n\n", strings.Join(r.n2Lines(), "\n"))
	p("## Run details\n\n")
	p("- Date: %s\n- Server command: `%s`\n- Practice data copied from: `%s`\n- Temp dir: `%s` (%s)\n- Server processes: %d\n- Tools listed: %s\n- Exit after stdin closed (check 8): %d ms, status %d\n- Harness run time: %d ms\n- OS: %s/%s\n",
		r.Date.UTC().Format("2006-01-02T15:04:05Z"), r.Server, r.PracticeData, r.TempDir,
		map[bool]string{true: "kept", false: "removed after the run"}[r.TempKept], r.Processes,
		strings.Join(r.Tools, ", "), r.ExitAfterMs, r.ExitCode, r.DurationMs, runtime.GOOS, runtime.GOARCH)
	return b.String()
}
