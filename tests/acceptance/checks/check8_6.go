package checks

import (
	"encoding/json"
	"fmt"
)

var check8_6 = &Check{
	ID:      "8.6",
	Process: Raw,
	Section: SectionProtocol,
	Title:   "initialize with the older revision 2024-11-05 is answered with that revision",
	Hint:    "When initialize asks for a revision you support, answer with that same revision.",
	// Judges the initialize check 8.2 sent.
	Needs: []need{needExchanges, needStderr},
	Judge: func(f *Facts) Verdict {
		m, ex, ok := f.opened()
		if !ok {
			return notOpened(f)
		}
		v := Verdict{Filed: []string{ex.Step}}
		var res struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		if e := m.err(); e != nil {
			v.Findings = append(v.Findings, warnOn(ex.Step, fmt.Sprintf("initialize asking for 2024-11-05 got error %d %q", e.Code, e.Message)))
		} else if err := json.Unmarshal(m["result"], &res); err != nil {
			v.Findings = append(v.Findings, warnOn(ex.Step, fmt.Sprintf("the initialize result does not decode: %v", err)))
		} else if res.ProtocolVersion != "2024-11-05" {
			v.Findings = append(v.Findings, warnOn(ex.Step, fmt.Sprintf("initialize asking for 2024-11-05 was answered with %q", res.ProtocolVersion)))
		} else {
			v.Summary = "initialize asking for 2024-11-05 was answered with 2024-11-05"
		}
		return v
	},
	Says: `\bprotocol (?:revision|version)s?\b|\b(?:older|old) revision\b|\brevision 20\d\d-\d\d-\d\d\b|\b2024-11-05\b|\bversion negotiation\b|\bnegotiat\w* (?:the )?(?:protocol|version)\b|` + saysProtocol,
}
