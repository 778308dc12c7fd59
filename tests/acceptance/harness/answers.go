package harness

import (
	"encoding/json"
	"fmt"

	"practice-notes/tests/acceptance/checks"
)

// answered reports whether the harness read an answer to ex: a result
// the client could use, or a JSON-RPC error reply the server wrote for
// it. A reply on the wire that the client could not take (the session
// had been dropped) is no answer.
func (e *Exchange) answered() bool {
	if e.NotSent || e.TimedOut {
		return false
	}
	if e.Error == "" {
		return true
	}
	if len(e.Wire) < 2 {
		return false
	}
	var m struct {
		Error json.RawMessage `json:"error"`
	}
	return json.Unmarshal([]byte(e.Wire[1]), &m) == nil && len(m.Error) > 0 && string(m.Error) != "null"
}

// notGraded says why a check is not graded, or "": a check is graded
// only on answers it read, so when the transport failed on every call it
// made (no reply and no timeout: the session was dropped or the reply
// could not be read), its own verdict rests on nothing. A request that
// timed out is the server's own fault, charged where it was sent. Check 8
// and its protocol checks judge the transport itself; checks 7 and 16,
// which send nothing of their own, depend on the whole run's answers.
func (r *runner) notGraded(def *checks.Check) string {
	if def.ID == "8" || def.Section == checks.SectionProtocol || r.notStarted != "" {
		return ""
	}
	exs := r.checks[def.ID].Exchanges
	if len(exs) == 0 && (def.ID == "7" || def.ID == "16") {
		exs = r.allExchanges
	}
	var first *Exchange
	for _, ex := range exs {
		if ex.answered() || ex.TimedOut || ex.NotSent {
			return ""
		}
		if first == nil {
			first = ex
		}
	}
	if first == nil {
		return ""
	}
	return fmt.Sprintf("not graded: the server did not answer; see check 8 (none of %d calls answered; the first, %s: %s)",
		len(exs), first.label(), clip(first.Error, 120))
}
