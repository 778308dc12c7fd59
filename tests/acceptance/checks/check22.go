package checks

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"practice-notes/tests/acceptance/truth"
	"practice-notes/tests/acceptance/visible"
)

const stepTrapWord = "a word inside the traps"

var check22 = &Check{
	ID:       "22",
	Process:  WithPlanting,
	Planting: check22Locked,
	Section:  SectionBoundary,
	Title:    "an unreadable file is reported honestly without absolute paths, and the search still answers",
	Hint:     "Catch permission errors per file, skip the file with a short reason, and never put absolute paths in replies.",
	// Compares sign-in, with a file unreadable, with check 1's search.
	Requires: []*Check{check1},
	// Searches with a mode-000 note among the traps; the path rule
	// judges whether a reply names an absolute path.
	Probe: func(w Wire, f *Facts) bool {
		search(w, SignIn, SignIn)
		search(w, stepTrapWord, f.of(trapPhrase).Marker)
		return true
	},
	Needs: []need{needFixtures, needNotes, needSignIn, needTruth, needExchanges},
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
		// hold. Sign-in is held to what the server itself found in check 1,
		// without the unreadable file: a server that never finds sign-in
		// breaks check 1's rule, not this one. The trap word, which check 1
		// never searched, is held to the true answer.
		var notes []string
		if ex, _ := f.step(SignIn); answered(ex) && !toolResult(ex).IsError {
			if found, ok := f.signInFound(); !ok {
				notes = append(notes, "sign-in not compared (check 1 got no answer)")
			} else if miss := missed(f.read(ex, SignIn), &truth.Answer{Query: SignIn, Hits: found}); len(found) > 0 && len(miss) == len(found) {
				v.Findings = append(v.Findings, Finding{Step: ex.Step,
					Msg:    fmt.Sprintf("%q presented none of the %d passage(s) it presented in check 1 once one file was unreadable: %s", SignIn, len(miss), hitList(miss)),
					Detail: append([]string{"check 1, without the unreadable file:"}, quote(*f.SignIn)...),
					Hint:   "Skip the file you cannot read and go on searching the others; report it as skipped."})
			}
		}
		if ex, _ := f.step(stepTrapWord); answered(ex) && !toolResult(ex).IsError {
			q := f.of(trapPhrase).Marker
			if a, ok := f.answer(q); ok {
				// Only an answer that presents none of the true hits is
				// charged: which hits a server shows is other checks' rule.
				if miss := missed(f.read(ex, q), a); len(miss) > 0 && len(miss) == len(required(a)) {
					v.Findings = append(v.Findings, Finding{Step: ex.Step,
						Msg:  fmt.Sprintf("%q presented none of the %d passage(s) its true answer holds in readable notes once one file was unreadable: %s", q, len(miss), hitList(miss)),
						Hint: "Skip the file you cannot read and go on searching the others; report it as skipped."})
				}
			}
		}
		if len(v.Findings) > 0 {
			return v
		}
		v.Summary = strings.Join(append([]string{"searches answered with traps/locked-note.md unreadable, and no absolute path was revealed"}, notes...), "; ")
		return v
	},
	Says:    `\bunreadable\b|\bpermission denied\b|\bchmod 000\b|\bmode 000\b`,
	Forbids: `\babsolute paths? in (?:errors?|replies|messages?|output)\b|\bno (?:file ?system )?paths? (?:in|leak\w*)\b|\bunreadable\b`,
}

// signInFound returns the true hits for sign-in, in this check's root,
// that check 1's search presented; false when check 1 got no answer to
// compare with.
func (f *Facts) signInFound() ([]truth.Hit, bool) {
	a, ok := f.answer(SignIn)
	if f.SignIn == nil || !answered(*f.SignIn) || toolResult(*f.SignIn).IsError || !ok {
		return nil, false
	}
	lost := missed(f.read(*f.SignIn, SignIn), a)
	var found []truth.Hit
	for _, h := range required(a) {
		if !slices.ContainsFunc(lost, func(l truth.Hit) bool { return l.File == h.File && l.StartLine == h.StartLine }) {
			found = append(found, h)
		}
	}
	return found, true
}

// check22Locked is the mode-000 note, planted around check 22's process
// only.
var check22Locked = &Planting{In: trapPhrase, Locked: "locked-note.md", Plant: func(dir, marker string) ([]Planted, error) {
	p := filepath.Join(dir, "locked-note.md")
	if err := os.WriteFile(p, []byte("# Locked\n\nThe word "+marker+" is in a file no one may read.\n"), 0o644); err != nil {
		return nil, err
	}
	return []Planted{{Rel: "locked-note.md", What: "a file without read permission"}}, os.Chmod(p, 0)
}}
