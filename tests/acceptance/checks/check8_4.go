package checks

import (
	"fmt"

	"practice-notes/tests/acceptance/visible"
)

var check8_4 = &Check{
	ID:      "8.4",
	Process: Raw,
	Section: SectionProtocol,
	Title:   "a call to an unknown tool gets a JSON-RPC error",
	Hint:    "Answer tools/call for a tool you do not offer with a JSON-RPC error (-32602), not a result.",
	Probe: func(w Wire, _ *Facts) bool {
		w.Send(stepUnknownTool, `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"no_such_tool","arguments":{"query":"sign-in"}}}`, `4`)
		return true
	},
	Needs: []need{needExchanges, needStderr},
	Judge: func(f *Facts) Verdict {
		if _, _, ok := f.opened(); !ok {
			return notOpened(f)
		}
		m, _ := f.reply(stepUnknownTool)
		v := Verdict{Filed: []string{stepUnknownTool}}
		switch e := m.err(); {
		case m == nil:
			v.Findings = append(v.Findings, warnOn(stepUnknownTool, "a call to an unknown tool got no answer"))
		case e == nil:
			v.Findings = append(v.Findings, warnOn(stepUnknownTool, "a call to an unknown tool got a result (isError or not) instead of a JSON-RPC error"))
		default:
			v.Summary = fmt.Sprintf("tools/call no_such_tool got error %d %s", e.Code, visible.Clip(e.Message, 60))
		}
		return v
	},
	Says: `\bunknown tools?\b|` + saysProtocol,
}
