package harness

import (
	"encoding/json"
	"fmt"

	"practice-notes/tests/acceptance/checks"

	"practice-notes/tests/acceptance/visible"
)

// answered reports whether the harness read an answer to ex: a result
// the client could use, or a JSON-RPC error reply the server wrote for
// it. A reply on the wire that the client could not take (the session
// had been dropped) is no answer.
func answered(e *checks.Exchange) bool {
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
	if r.unreadable != "" && def != checks.Integration() {
		return r.unreadable
	}
	if def == checks.Integration() || def.Section == checks.SectionProtocol || r.notStarted != "" {
		return ""
	}
	exs := r.checks[def.ID].Exchanges
	if len(exs) == 0 && (def == checks.FileStates() || def == checks.HomeAndTemp()) {
		exs = r.allExchanges
	}
	var first *checks.Exchange
	for _, ex := range exs {
		if answered(ex) || ex.TimedOut || ex.NotSent {
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
		len(exs), r.calls.label(first), visible.Clip(first.Error, 120))
}

// wireAt places a received line: its stdout line number, and how many
// lines the client had sent when it came.
type wireAt struct{ line, sent int }

// idless finds the first reply the server wrote without an id (or with
// a null id), which no client can match to a request: the line, where it
// came on stdout, and the last notification (a message without an id)
// the client had sent before it, which such a reply usually answers.
func (w *wire) idless() (line string, at int, notification string, ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for i, g := range w.got {
		var m map[string]json.RawMessage
		if json.Unmarshal([]byte(g), &m) != nil {
			continue // a batch: the client reads its members
		}
		if _, isCall := m["method"]; isCall {
			continue
		}
		if id, has := m["id"]; has && string(id) != "null" {
			continue
		}
		for k := min(w.gotAt[i].sent, len(w.sent)) - 1; k >= 0 && notification == ""; k-- {
			var sent struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			if json.Unmarshal([]byte(w.sent[k]), &sent) == nil && len(sent.ID) == 0 && sent.Method != "" {
				notification = sent.Method
			}
		}
		return g, w.gotAt[i].line, notification, true
	}
	return "", 0, "", false
}
