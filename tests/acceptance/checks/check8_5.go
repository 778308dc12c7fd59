package checks

var check8_5 = &Check{
	ID:      "8.5",
	Process: Raw,
	Section: SectionProtocol,
	Title:   "a line that is not JSON gets -32700 and the session lives on",
	Hint:    "Answer a line that does not parse with error -32700 (id null) and keep reading; do not exit.",
	Probe: func(w Wire, _ *Facts) bool {
		w.Send(stepNotJSON, `this line is not JSON {`, "")
		w.Send(stepPingAfter, `{"jsonrpc":"2.0","id":5,"method":"ping"}`, `5`)
		return true
	},
	Needs: []need{needExchanges, needStderr},
	Judge: func(f *Facts) Verdict {
		if _, _, ok := f.opened(); !ok {
			return notOpened(f)
		}
		m, ping := f.reply(stepPingAfter)
		v := Verdict{Filed: []string{stepNotJSON, stepPingAfter}}
		switch {
		case m == nil:
			v.Findings = append(v.Findings, Finding{Warn: true, Step: stepNotJSON,
				Msg:    "after a line that is not JSON the session ended: a ping got no answer (" + ping.Error + ")",
				Detail: append([]string{"then -> ping: " + ping.Error}, tailLines("stderr", f.Stderr)...)})
		case ParseError(ping.Out) == "":
			v.Findings = append(v.Findings, warnOn(stepNotJSON, "a line that is not JSON got no -32700 reply (the session lived on)"))
		default:
			v.Summary = "a line that is not JSON got -32700 and a ping afterwards was answered"
		}
		return v
	},
	Says: `\bparse errors?\b|-32700\b|\bnot json\b|\binvalid json\b|\bmalformed (?:json|lines?)\b|` + saysProtocol,
}

// ParseError returns the last -32700 error among lines; "" if none.
func ParseError(lines []string) string {
	found := ""
	for _, l := range lines {
		if e := parse(l).err(); e != nil && e.Code == -32700 {
			found = l
		}
	}
	return found
}
