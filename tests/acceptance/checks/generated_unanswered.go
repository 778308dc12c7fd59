package checks

import (
	"fmt"
	"slices"

	"practice-notes/tests/acceptance/visible"
)

// judgeUnanswered fails the generated phase's owner (check 1) on the
// first search of the phase that got no answer: it timed out, or the
// process ended or closed its stdout. Every check fails so on a call of
// its own; the timeout rule then finds the request charged and does not
// charge it again. The server is sent nothing more once it hangs or ends
// (Unsent counts what was left), so one finding says it all. A JSON-RPC
// error is an answer; the oversized request lines and the call after
// them are judgeOversized's.
func judgeUnanswered(g *Generated) []Finding {
	for _, ex := range g.Exchanges {
		q, ok := g.Queries[ex.Step]
		if !ok || ex.NotSent || ex.Error == "" || rpcErrorIn(ex.Out) ||
			slices.Contains(g.Oversized, ex.Step) || ex.Step == g.AfterOversized {
			continue
		}
		detail := []string{fmt.Sprintf("seed: %d (replay: --seed %d)", g.Seed, g.Seed),
			"query: " + quoteCut(q), "no answer: " + visible.Clip(ex.Error, 200)}
		if g.Unsent > 0 {
			detail = append(detail, fmt.Sprintf("not sent: the %d searches of the phase after it", g.Unsent))
		}
		return []Finding{{Owner: GeneratedPhase(), Step: ex.Step, Detail: detail,
			Msg:  fmt.Sprintf("generated case (seed %d), query %q: got no answer: %s", g.Seed, visibleQuery(q), visible.Clip(ex.Error, 120)),
			Hint: unansweredHint}}
	}
	if g.Unsent > 0 {
		// It ended between two searches, each answered.
		return []Finding{{Owner: GeneratedPhase(),
			Msg:    fmt.Sprintf("generated phase (seed %d): the server ended after %d searches; %d were not sent", g.Seed, len(g.Exchanges), g.Unsent),
			Detail: []string{fmt.Sprintf("seed: %d (replay: --seed %d)", g.Seed, g.Seed)},
			Hint:   unansweredHint}}
	}
	return nil
}

const unansweredHint = "Answer every search and keep running until stdin closes: run the replayed seed and read the server's stderr for the query that stopped it."
