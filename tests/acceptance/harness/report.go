package harness

import (
	"fmt"
	"io"
	"strings"

	"practice-notes/tests/acceptance/checks"
	"practice-notes/tests/acceptance/visible"
)

// Line is the one-line result of a check: "PASS 1 …", "FAIL 4 …",
// "WARN 19 …" or "SKIP 22 …".
func (c *CheckResult) Line() string {
	label := strings.ToUpper(string(c.Status))
	var msg string
	switch c.Status {
	case checks.StatusPass:
		msg = c.Summary
		if msg == "" {
			msg = c.Title
		}
	case checks.StatusSkip:
		msg = c.Title + ": skipped, " + c.SkipReason
	case checks.StatusWarn:
		msg = c.Warnings[0]
		if n := len(c.Warnings) - 1; n > 0 {
			msg += fmt.Sprintf(" (+%d more)", n)
		}
	default:
		msg = c.Failures[0]
		if n := len(c.Failures) - 1; n > 0 {
			msg += fmt.Sprintf(" (+%d more)", n)
		}
	}
	return fmt.Sprintf("%s %s %s", label, c.ID, visible.Clip(msg, 400))
}

// FinalLine is exactly "N passed, M failed".
func (r *Report) FinalLine() string {
	return fmt.Sprintf("%d passed, %d failed", r.Passed, r.Failed)
}

// IDs lists the checks with the given status, in report order.
func (r *Report) IDs(status checks.Status) []string {
	var ids []string
	for _, c := range r.Checks {
		if c.Status == status {
			ids = append(ids, c.ID)
		}
	}
	return ids
}

func (r *Report) shapeLine() string {
	return "replies: read for what they present (plain text, several text blocks, JSON text or structuredContent of any field names); only the tool name search_notes and its argument query are assumed"
}

func (r *Report) resourcesLine() string {
	if r.ResourcesOffered {
		return "resources: offered; checks 3-5 and 17-19 also probed resources/read"
	}
	return "resources: not offered; checks 3-5 and 17-19 probed search_notes and any other read-only tool that takes a path"
}

// n2Lines renders the file's N2 lines beside the returned passage.
func (r *Report) n2Lines() []string {
	n := r.N2
	if n == nil {
		return []string{"N2 passage: not compared (check 1 got no usable reply)"}
	}
	out := []string{fmt.Sprintf("N2 passage in %s, lines %d-%d, as in the file:", n.File, n.StartLine, n.EndLine)}
	for i, l := range strings.Split(n.FileText, "\n") {
		out = append(out, fmt.Sprintf("  %4d | %s", n.StartLine+i, l))
	}
	if n.Returned == "" {
		out = append(out, "as returned: nothing that contains sign-in")
		return out
	}
	out = append(out, fmt.Sprintf("as returned by the server (%s):", n.ReturnedVia))
	for _, l := range strings.Split(strings.TrimRight(n.Returned, "\n"), "\n") {
		out = append(out, "       | "+l)
	}
	verdict := "no"
	if n.Identical {
		verdict = "yes"
	}
	out = append(out, fmt.Sprintf("byte-identical per harness: %s (a person still has to compare; the record's \"Exact passage manually checked\" stays pending until then)", verdict))
	return out
}

// WriteText prints the human summary: "#" lines of context, one line per
// check with its notes (a runtime's files, not charged, among them), then
// the final count line.
func (r *Report) WriteText(w io.Writer) {
	// Every line may hold what the server wrote (its name, replies,
	// stderr) or what a learner chose (the command): none of it reaches
	// the terminal as a control or a bidi override.
	line := func(s string) { fmt.Fprintln(w, visible.Escape(s, "\t")) }
	hdr := []string{
		"practice-notes acceptance harness",
		"server command: " + r.Server,
		fmt.Sprintf("practice root: %s/root (fresh temp dir, %s)", r.TempDir, map[bool]string{true: "kept", false: "removed after the run"}[r.TempKept]),
		fmt.Sprintf("client: %s, %s; transport %s; %s; server %q", r.HarnessSDK, r.HarnessGo, r.Transport, r.protocols(), r.ServerInfo),
		"isolation: " + r.Isolation,
		fmt.Sprintf("generated cases: seed %d (replay with --seed %d)", r.Seed, r.Seed),
		r.resourcesLine(),
		r.shapeLine(),
	}
	hdr = append(hdr, r.n2Lines()...)
	for _, h := range hdr {
		line("# " + h)
	}
	for _, c := range r.Checks {
		line(c.Line())
		if c.Status == checks.StatusFail || c.Status == checks.StatusWarn {
			for _, l := range strings.Split(c.Evidence, "\n") {
				line("    " + l)
			}
			line("    fix: " + c.Hint)
		}
		for _, n := range c.Notes {
			line("    note: " + visible.Clip(n, 400))
		}
	}
	line(r.FinalLine())
}

func (r *Report) protocols() string {
	return fmt.Sprintf("protocol %s negotiated by the SDK default for checks 1-6 and 9-22, %s requested through initialize for check 8, 2024-11-05 for checks 8.1-8.7",
		orDash(r.ProtocolVersion), orDash(r.Check8Protocol))
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func (r *Report) check(id string) *CheckResult {
	for _, c := range r.Checks {
		if c.ID == id {
			return c
		}
	}
	return &CheckResult{ID: id}
}

func status(c *CheckResult) string { return strings.ToUpper(string(c.Status)) }

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
