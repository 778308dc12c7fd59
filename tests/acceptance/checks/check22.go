package checks

import (
	"fmt"

	"practice-notes/tests/acceptance/visible"
)

const stepTrapWord = "a word inside the traps"

var check22 = &Check{
	ID:       "22",
	Process:  Unreadable,
	Section:  SectionBoundary,
	Title:    "an unreadable file is reported honestly without absolute paths, and the search still answers",
	Hint:     "Catch permission errors per file, skip the file with a short reason, and never put absolute paths in replies.",
	Fixtures: []string{"locked-note.md"},
	// Searches with a mode-000 note among the traps; the path rule
	// judges whether a reply names an absolute path.
	Probe: func(w Wire, f *Facts) bool {
		search(w, SignIn, SignIn)
		search(w, stepTrapWord, f.Fixtures[TrapPhrase].Marker)
		return true
	},
	Judge: func(f *Facts) Verdict {
		var v Verdict
		ex, _ := f.step(SignIn)
		switch {
		case ex.Error != "":
			v.fail(ex, "a search over a root holding an unreadable file got no answer: %s", visible.Clip(ex.Error, 120))
		case toolResult(ex).IsError:
			v.fail(ex, "a search over a root holding an unreadable file failed: %q", visible.Clip(ToolText(toolResult(ex)), 160))
		}
		// An answer is not enough: it must hold what the readable notes
		// hold.
		for _, st := range []struct{ step, query string }{{SignIn, SignIn}, {stepTrapWord, f.Fixtures[TrapPhrase].Marker}} {
			ex, _ := f.step(st.step)
			if !answered(ex) || toolResult(ex).IsError {
				continue
			}
			a, ok := f.answer(st.query)
			if !ok {
				continue
			}
			// Only an answer that presents none of the true hits is
			// charged: which hits a server shows is other checks' rule.
			if miss := missed(f.read(ex, st.query), a); len(miss) > 0 && len(miss) == len(required(a)) {
				v.Findings = append(v.Findings, Finding{Step: ex.Step,
					Msg:  fmt.Sprintf("%q presented none of the %d passage(s) its true answer holds in readable notes once one file was unreadable: %s", st.query, len(miss), hitList(miss)),
					Hint: "Skip the file you cannot read and go on searching the others; report it as skipped."})
			}
		}
		if len(v.Findings) > 0 {
			return v
		}
		v.Summary = "searches answered with traps/locked-note.md unreadable, and no absolute path was revealed"
		return v
	},
}
