package checks

import (
	"fmt"

	"practice-notes/tests/acceptance/visible"
)

var check8_3 = &Check{
	ID:      "8.3",
	Process: Raw,
	Section: SectionProtocol,
	Title:   "an unknown method gets error -32601",
	Hint:    "Answer a method you do not implement with JSON-RPC error -32601 (method not found).",
	Probe: func(w Wire, _ *Facts) bool {
		w.Send(stepUnknown, `{"jsonrpc":"2.0","id":3,"method":"practice/no_such_method","params":{}}`, `3`)
		return true
	},
	Needs: []need{needExchanges, needStderr},
	Judge: func(f *Facts) Verdict {
		if _, _, ok := f.opened(); !ok {
			return notOpened(f)
		}
		m, _ := f.reply(stepUnknown)
		v := Verdict{Filed: []string{stepUnknown}}
		switch e := m.err(); {
		case m == nil:
			v.Findings = append(v.Findings, warnOn(stepUnknown, "an unknown method got no answer"))
		case e == nil:
			v.Findings = append(v.Findings, warnOn(stepUnknown, "an unknown method got a result instead of an error"))
		case e.Code != -32601:
			v.Findings = append(v.Findings, warnOn(stepUnknown, fmt.Sprintf("an unknown method got error %d, not -32601", e.Code)))
		default:
			v.Summary = "practice/no_such_method got -32601 " + visible.Clip(e.Message, 60)
		}
		return v
	},
	Says: `\bunknown methods?\b|-32601\b|\bmethod not found\b|` + saysProtocol,
}
