package checks

import "fmt"

var check8_1 = &Check{
	ID:      "8.1",
	Process: Raw,
	Section: SectionProtocol,
	Title:   "ping is answered with an empty result",
	Hint:    "Answer ping with {} (the official SDKs do this for you).",
	Probe: func(w Wire, _ *Facts) bool {
		w.Send(stepPing, `{"jsonrpc":"2.0","id":2,"method":"ping"}`, `2`)
		return true
	},
	Needs: []need{needExchanges, needStderr},
	Judge: func(f *Facts) Verdict {
		if _, _, ok := f.opened(); !ok {
			return notOpened(f)
		}
		m, ex := f.reply(stepPing)
		v := Verdict{Filed: []string{stepPing}}
		switch {
		case m == nil:
			v.Findings = append(v.Findings, warnOn(stepPing, "ping got no answer"))
		case m.err() != nil:
			v.Findings = append(v.Findings, warnOn(stepPing, "ping got an error"))
		default:
			v.Summary = fmt.Sprintf("ping answered in %d ms with %s", ex.Millis, string(m["result"]))
		}
		return v
	},
	Says: `\bping\b|` + saysProtocol,
}
