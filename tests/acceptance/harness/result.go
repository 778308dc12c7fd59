package harness

import (
	"fmt"

	"practice-notes/tests/acceptance/checks"
	"practice-notes/tests/acceptance/visible"
)

// Sections group checks by the part of the specification they come from.
const (
	SectionAcceptance = checks.SectionAcceptance // the specification's eight acceptance tests
	SectionTool       = checks.SectionTool       // its "One tool" rules
	SectionBoundary   = checks.SectionBoundary   // its "Access boundary" rules
	SectionProtocol   = checks.SectionProtocol   // MCP protocol basics, under check 8
)

// CheckResult is the outcome of one check.
type CheckResult struct {
	ID      string        `json:"id"`
	Section string        `json:"section"`
	Title   string        `json:"title"`
	Status  checks.Status `json:"status"`
	// Evidence quotes the request(s) and the reply, stdout or stderr lines
	// behind a fail or warn verdict.
	Evidence string `json:"evidence"`
	// Hint says in one sentence what to fix; empty for pass.
	Hint string `json:"hint"`

	Summary    string   `json:"summary,omitempty"`
	Failures   []string `json:"failures,omitempty"`
	Warnings   []string `json:"warnings,omitempty"`
	SkipReason string   `json:"skipReason,omitempty"`
	Notes      []string `json:"notes,omitempty"`
	// Observed holds observations that are not request/reply pairs (file
	// states, process exit).
	Observed  []string           `json:"observed,omitempty"`
	Exchanges []*checks.Exchange `json:"exchanges,omitempty"`

	def *checks.Check
	// findings are charged to this check; their Exchange is the request
	// and reply behind them, if any.
	findings []checks.Finding
}

func (c *CheckResult) add(f checks.Finding) { c.findings = append(c.findings, f) }

// failedOn reports whether the check already failed on ex.
func (c *CheckResult) failedOn(ex *checks.Exchange) bool {
	for _, f := range c.findings {
		if f.Exchange == ex && !f.Warn {
			return true
		}
	}
	return false
}

// fail records a failure that no single exchange shows.
func (c *CheckResult) fail(format string, args ...any) {
	c.add(checks.Finding{Msg: fmt.Sprintf(format, args...)})
}

// skip marks the check as not run, with the reason.
func (c *CheckResult) skip(format string, args ...any) {
	c.SkipReason = fmt.Sprintf(format, args...)
}

func (c *CheckResult) note(format string, args ...any) {
	c.Notes = append(c.Notes, fmt.Sprintf(format, args...))
}

// evidenceLines quotes the request and what came back, bounded.
func evidenceLines(e *checks.Exchange) []string {
	if len(e.Wire) > 0 {
		out := []string{"   -> " + visible.Truncate(e.Wire[0], 600)}
		switch {
		case len(e.Wire) > 1:
			out = append(out, fmt.Sprintf("   <- %s   (%d ms)", visible.Truncate(e.Wire[1], 1500), e.Millis))
		case e.Error != "":
			out = append(out, fmt.Sprintf("   <- error after %d ms: %s", e.Millis, visible.Truncate(e.Error, 600)))
		}
		return out
	}
	out := []string{fmt.Sprintf("   -> %s %s", e.Method, visible.Truncate(e.Request, 400))}
	switch {
	case e.Error != "":
		out = append(out, fmt.Sprintf("   <- error after %d ms: %s", e.Millis, visible.Truncate(e.Error, 600)))
	default:
		reply := e.Display
		if reply == "" {
			reply = e.Decoded
		}
		out = append(out, fmt.Sprintf("   <- %d ms: %s", e.Millis, visible.Truncate(reply, 1200)))
	}
	return out
}
