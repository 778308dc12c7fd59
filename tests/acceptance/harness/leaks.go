package harness

import (
	"fmt"
	"slices"

	"practice-notes/tests/acceptance/checks"
)

// Leaks are judged by the run-wide rule checks.LeakRule, from what every
// server process showed; the harness only records it.

// output records what a finished process showed: each reply as the
// client read it (the exchanges from first on in allExchanges), its
// stdout and stderr, the root's entries as they are now and the content
// of the root's files its replies credit passages to. The generated
// phase's process searched a root of its own (generatedEnded).
func (r *runner) output(s *session, first int) checks.Output {
	out := checks.Output{Checks: slices.Clone(s.checks), Stdout: s.tap.raw.String(), Stderr: s.stderr.String()}
	for i, ex := range s.exchanges {
		c := r.calls.of(ex)
		sh := checks.Shown{Check: ex.Check, Step: exchangeKey(first + i), Label: r.calls.label(ex), Sent: c.sent,
			Text: c.text, Tool: c.tool, Query: c.query}
		if c.result != nil {
			sh.Result = ex.Decoded
			if c.tool == "search_notes" && c.phase == "" {
				for _, it := range r.read(ex).Items {
					rel, ok := r.lay.rootRel(it.File)
					if _, done := out.Files[rel]; !ok || done {
						continue
					}
					if content, err := r.lay.rootFile(rel); err == nil {
						if out.Files == nil {
							out.Files = map[string]string{}
						}
						out.Files[rel] = content
					}
				}
			}
		}
		out.Shown = append(out.Shown, sh)
	}
	n := r.lay.notes()
	out.Entries, out.Taken = n.Entries, n.Taken
	return out
}

// exchangeKey names the i-th exchange of the run (from 0) in findings.
func exchangeKey(i int) string { return fmt.Sprintf("exchange %d", i+1) }

// leakFacts are the facts the leak rule reads. A process's root entries
// are kept only where they differ from the root's now.
func (r *runner) leakFacts() *checks.Facts {
	f := &checks.Facts{Fixtures: r.lay.fixtures(), Notes: r.lay.notes(), OutsideNames: r.lay.outsideNames,
		Secrets: slices.Clone(r.lay.secrets)}
	for _, o := range r.outputs {
		if slices.Equal(o.Entries, f.Notes.Entries) && slices.Equal(o.Taken, f.Notes.Taken) {
			o.Entries, o.Taken = nil, nil
		}
		f.Outputs = append(f.Outputs, o)
	}
	return f
}
