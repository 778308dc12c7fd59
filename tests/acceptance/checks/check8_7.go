package checks

import "encoding/json"

var check8_7 = &Check{
	ID:      "8.7",
	Process: Raw,
	Section: SectionProtocol,
	Title:   "initialize declares the tools capability",
	Hint:    "Declare \"tools\": {} in the capabilities of your initialize result.",
	// Judges the initialize check 8.2 sent; an error or a result that
	// does not decode is check 8.6's finding.
	Needs: []need{needExchanges, needStderr},
	Judge: func(f *Facts) Verdict {
		m, ex, ok := f.opened()
		if !ok {
			return notOpened(f)
		}
		v := Verdict{Filed: []string{ex.Step}}
		var res struct {
			Capabilities map[string]json.RawMessage `json:"capabilities"`
		}
		if m.err() != nil || json.Unmarshal(m["result"], &res) != nil {
			return v
		}
		if tools, ok := res.Capabilities["tools"]; ok {
			v.Summary = "capabilities.tools is declared: " + string(tools)
		} else {
			v.Findings = append(v.Findings, warnOn(ex.Step, "the initialize result's capabilities have no \"tools\" entry"))
		}
		return v
	},
	Says: `\btools capability\b|\bcapabilit(?:y|ies)\b|` + saysProtocol,
}
