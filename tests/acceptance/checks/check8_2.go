package checks

var check8_2 = &Check{
	ID:      "8.2",
	Process: Raw,
	Section: SectionProtocol,
	Title:   "a string request id is echoed unchanged",
	Hint:    "Copy the request's id into the reply as it came, string or number.",
	// Opens the protocol session: initialize with a string id and, if
	// that gets no answer, the same request with a number.
	Probe: func(w Wire, _ *Facts) bool {
		if ex := w.Send(stepInit, initLine(`"init-1"`), `"init-1"`); ex.Reply == "" {
			if ex := w.Send(stepInitNumber, initLine(`1`), `1`); ex.Reply == "" {
				return false
			}
		}
		w.Send(stepInitialized, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, "")
		return true
	},
	Needs: []need{needExchanges, needStderr},
	Judge: func(f *Facts) Verdict {
		if _, _, ok := f.opened(); !ok {
			v := notOpened(f)
			v.Filed = []string{stepInit}
			return v
		}
		v := Verdict{Filed: []string{stepInit}}
		if m, _ := f.reply(stepInit); m == nil {
			v.Findings = append(v.Findings, warnOn(stepInit, `initialize with the string id "init-1" was not answered, the same request with id 1 was`))
		} else {
			v.Summary = `initialize with id "init-1" was answered with id "init-1"`
		}
		return v
	},
	Says: `\bstring (?:request )?ids?\b|\brequest ids?\b|` + saysProtocol,
}
