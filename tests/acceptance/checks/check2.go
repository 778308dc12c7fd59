package checks

import (
	"fmt"
	"regexp"
	"strings"

	"practice-notes/tests/acceptance/visible"
)

// absentPhrase is a phrase in no file.
var absentPhrase = &Plant{Name: "absent phrase", Make: func(g *Ground) (Fixture, error) {
	return Fixture{Marker: "absentphrase-" + g.Token(6)}, nil
}}

var check2 = &Check{
	ID:       "2",
	Section:  SectionAcceptance,
	Title:    "an absent phrase returns no matches and no invented passage",
	Hint:     "When nothing matches, return an empty list and a plain no-match message; never compose a passage that is not in a file.",
	Fixtures: []*Plant{absentPhrase},
	Probe: func(w Wire, f *Facts) bool {
		search(w, absentPhrase.Name, f.of(absentPhrase).Marker)
		return true
	},
	Needs: []need{needFixtures, needNotes, needExchanges},
	Judge: func(f *Facts) Verdict {
		var v Verdict
		absent := f.of(absentPhrase).Marker
		ex, _ := f.step(absentPhrase.Name)
		if !v.answered(ex, "tools/call") {
			return v
		}
		rd := f.read(ex, absent)
		text := ToolText(toolResult(ex))
		if rd.IsError {
			v.Notes = append(v.Notes, "the miss was reported with isError true (false is preferred)")
		}
		switch {
		case len(rd.Items) > 0:
			it := rd.Items[0]
			v.fail(ex, "%d result(s) for a phrase in no file, first: %s %q", len(rd.Items), it.File, visible.Clip(it.Passage, 100))
		case len(rd.Results) > 0:
			v.fail(ex, "the reply names %s as result(s) for a phrase in no file", strings.Join(rd.Results, ", "))
		case len(rd.Quoted) > 0:
			v.fail(ex, "the reply quotes %d note paragraph(s) for a phrase in no file, first: %q", len(rd.Quoted), visible.Clip(rd.Quoted[0].Text, 100))
		}
		if !rd.NoMatch {
			v.fail(ex, "the reply does not say that nothing matched (a no, none, 0 or not with match, result, found, passage or note): %q", visible.Clip(text, 160))
		}
		// The phrase may be echoed, but not embedded in a sentence that
		// presents it as found.
		for _, t := range rd.Strings {
			for _, line := range strings.Split(t, "\n") {
				if presentsAsFound(line, absent) {
					v.Findings = append(v.Findings, Finding{Warn: true, Step: ex.Step,
						Msg: fmt.Sprintf("a line puts the absent phrase in a sentence without saying it was not found: %q", visible.Clip(line, 160))})
				}
			}
		}
		if len(v.Findings) == 0 {
			v.Summary = fmt.Sprintf("no result, and the reply says so: %q", visible.Clip(text, 100))
		}
		return v
	},
	Test:    2,
	Says:    saysAbsent,
	Forbids: forbidsInvented,
}

var (
	negativeRe  = regexp.MustCompile(`(?i)\b(no|not|none|nothing|zero|0)\b|didn't|did not|n't`)
	proseWordRe = regexp.MustCompile(`\pL{2,}`)
)

// presentsAsFound reports whether a line embeds phrase in prose (four or
// more other words) without any negation: likely an invented passage.
// An echo such as `"query": "phrase",` or `No notes matched "phrase".` is not.
func presentsAsFound(line, phrase string) bool {
	if !strings.Contains(line, phrase) {
		return false
	}
	rest := strings.ReplaceAll(line, phrase, " ")
	if negativeRe.MatchString(rest) {
		return false
	}
	return len(proseWordRe.FindAllString(rest, -1)) >= 4
}
