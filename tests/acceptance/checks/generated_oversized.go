package checks

import (
	"fmt"

	"practice-notes/tests/acceptance/diagnose"
	"practice-notes/tests/acceptance/visible"
)

// judgeOversized holds the generated phase's oversized request lines to
// the rule that an oversized query gets a bounded error: each line, and
// the call sent after them, must be answered, with a result or a
// JSON-RPC error (a server may refuse a line over its own limit). A server that ends or
// hangs on a long line is charged once, on the first call it left
// unanswered; a call never sent (the process had already stopped before
// the lines) is no finding of theirs.
func judgeOversized(g *Generated) []Finding {
	if len(g.Oversized) == 0 {
		return nil
	}
	byStep := map[string]Exchange{}
	for _, ex := range g.Exchanges {
		byStep[ex.Step] = ex
	}
	steps := append(append([]string(nil), g.Oversized...), g.AfterOversized)
	for i, step := range steps {
		ex, ok := byStep[step]
		if !ok || ex.NotSent {
			return nil
		}
		if ex.Error == "" || rpcErrorIn(ex.Out) {
			continue // a result, or a JSON-RPC error: both bounded
		}
		what := step
		if i == len(steps)-1 {
			what = "the call after " + g.Oversized[len(g.Oversized)-1]
		}
		d := diagnose.Of(diagnose.LineLimit)
		owner := mistakeOwner[d.Mistake]
		return []Finding{{Owner: owner, Step: step,
			Msg:    fmt.Sprintf("generated case (seed %d): %s got no answer: %s", g.Seed, what, d.Mistake),
			Detail: []string{fmt.Sprintf("seed: %d (replay: --seed %d)", g.Seed, g.Seed), "no answer: " + visible.Clip(ex.Error, 200)},
			Hint:   d.Hint}}
	}
	return nil
}

// rpcErrorIn reports whether one of lines is a JSON-RPC error reply.
func rpcErrorIn(lines []string) bool {
	for _, l := range lines {
		if parse(l).err() != nil {
			return true
		}
	}
	return false
}
