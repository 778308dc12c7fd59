package checks

import (
	"fmt"
	"practice-notes/tests/acceptance/truth"
	"strings"
)

const (
	stepUnicodeUpper = "in upper case"
	// stepUnicodeProof searches an ASCII word on the phrase's own line:
	// when it finds the note and the phrase does not, the phrase was
	// missed for its letters, not for where the note lies (check 3).
	stepUnicodeProof = "its ASCII word"
)

// unicodeNote holds a non-ASCII phrase, its proof word on the phrase's
// own line.
var unicodeNote = &Plant{Name: "unicode-note.md", Make: func(g *Ground) (Fixture, error) {
	f := Fixture{Rel: "extra/unicode-note.md", Marker: "crème-brûlée-" + g.Token(4), Proof: "unicodeproof" + g.Token(5)}
	spread, err := g.Plant(spreadPhrase)
	if err != nil {
		return f, err
	}
	return f, g.Write(g.Root, f.Rel, fmt.Sprintf("# Dessert note\n\nThe café served %s with the proof word %s,\nafter the session.\n\nThe word %s is in several notes.\n",
		f.Marker, f.Proof, spread.Marker))
}}

var check10 = &Check{
	ID:      "10",
	Section: SectionTool,
	Title:   "a non-ASCII phrase in another case is found (CRÈME-BRÛLÉE finds crème-brûlée)",
	// Lowercasing (Go strings.ToLower, JavaScript toLowerCase) leaves σ
	// and ς apart: the hint names only what folds.
	Hint:     "Compare under Unicode case folding, not lowercasing: Go strings.EqualFold or unicode.SimpleFold, Python str.casefold, a JavaScript regular expression with the iu flags.",
	Fixtures: []*Plant{unicodeNote},
	// Searches the phrase as written, in upper case and an ASCII word of
	// its line, then the hard cases.
	Probe: func(w Wire, f *Facts) bool {
		note := f.of(unicodeNote)
		if ref := search(w, unicodeNote.Name, note.Marker); !answered(ref) {
			return true
		}
		search(w, stepUnicodeUpper, strings.ToUpper(note.Marker))
		search(w, stepUnicodeProof, note.Proof)
		sendHardCases(w)
		return true
	},
	Needs: []need{needFixtures, needNotes, needTruth, needExchanges},
	Judge: func(f *Facts) Verdict {
		v := judgeUnicode(f)
		for _, fd := range judgeHardCases(f) {
			if fd.Owner == nil {
				v.Summary = ""
			}
			v.Findings = append(v.Findings, fd)
		}
		return v
	},
	Says: `\bnon-?ascii\b|\bunicode\b|\baccent\w*|\bdiacritic\w*|\butf-?8\b|` + saysCase,
}

// judgeUnicode judges the searches for the non-ASCII phrase.
func judgeUnicode(f *Facts) Verdict {
	var v Verdict
	note := f.of(unicodeNote)
	ref, _ := f.step(unicodeNote.Name)
	if !v.answered(ref, "tools/call") {
		return v
	}
	refRd := f.read(ref, note.Marker)
	if a, ok := f.answer(note.Marker); ok {
		if miss := missed(refRd, a); len(miss) > 0 {
			return judgeUnicodeMissed(f, v, ref, note, miss)
		}
	} else if !refRd.Names(note.Rel) && !refRd.Quotes(note.Proof) {
		v.Skip = fmt.Sprintf("%q as written did not find %s, so its other case has nothing to match (see check 3 for nested notes)", note.Marker, note.Rel)
		return v
	}
	q := strings.ToUpper(note.Marker)
	ex, _ := f.step(stepUnicodeUpper)
	if !answered(ex) {
		if !ex.NotSent {
			v.Findings = append(v.Findings, Finding{Warn: true, Step: ex.Step, Msg: fmt.Sprintf("%q got no answer", q)})
		}
		return v
	}
	rd := f.read(ex, q)
	if a, ok := f.answer(q); ok {
		if miss := missed(rd, a); len(miss) > 0 {
			v.Findings = append(v.Findings, Finding{Warn: true, Step: ex.Step,
				Msg: fmt.Sprintf("%q missed %d passage(s) of the true answer that %q as written finds: %s", q, len(miss), note.Marker, hitList(miss))})
			return v
		}
	} else if miss := rd.Missing(refRd); len(miss) > 0 {
		v.Findings = append(v.Findings, Finding{Warn: true, Step: ex.Step,
			Msg: fmt.Sprintf("%q found less than %q as written: no %s", q, note.Marker, strings.Join(miss, "; "))})
		return v
	}
	v.Summary = fmt.Sprintf("%q found %s, written %q", q, note.Rel, note.Marker)
	return v
}

// judgeUnicodeMissed judges a server that did not find the non-ASCII
// phrase as written, although the note holds it byte for byte. When an
// ASCII word of the same line finds the note, the server reads the note
// and loses the phrase in its letters (an encoding other than UTF-8, a
// normalisation): a true answer missed, which fails. When it does not,
// the note was not searched at all, which is check 3's rule.
func judgeUnicodeMissed(f *Facts, v Verdict, ref Exchange, note Fixture, miss []truth.Hit) Verdict {
	proof, _ := f.step(stepUnicodeProof)
	a, ok := f.answer(note.Proof)
	if !answered(proof) || !ok || len(required(a)) == 0 || len(missed(f.read(proof, note.Proof), a)) > 0 {
		v.Skip = fmt.Sprintf("%q as written did not find %s, and neither did a word of its own line, so the note was not searched (see check 3 for nested notes)", note.Marker, note.Rel)
		return v
	}
	msg := fmt.Sprintf("%q as written is in the root (%s) and was not found, although %q on the same line finds the note: the note's text is not read as UTF-8, or the phrase is compared in another form", note.Marker, hitList(miss), note.Proof)
	if up, _ := f.step(stepUnicodeUpper); answered(up) {
		q := strings.ToUpper(note.Marker)
		if ua, ok := f.answer(q); ok && len(missed(f.read(up, q), ua)) > 0 {
			msg += fmt.Sprintf("; %q did not find it either", q)
		}
	}
	v.Findings = append(v.Findings, Finding{Step: ref.Step, Msg: msg,
		Hint: "Read every note as UTF-8 (Python: open(path, encoding=\"utf-8\"); Node: readFileSync(path, \"utf8\")) and compare the query with the text as it is."})
	return v
}
