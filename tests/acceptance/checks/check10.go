package checks

import (
	"fmt"
	"strings"
)

const stepUnicodeUpper = "in upper case"

var check10 = &Check{
	ID:       "10",
	Section:  SectionTool,
	Title:    "a non-ASCII phrase in another case is found (CRÈME-BRÛLÉE finds crème-brûlée)",
	Hint:     "Use a Unicode-aware case fold (Go strings.EqualFold/ToLower, Python str.casefold, JavaScript toLowerCase), not an ASCII-only one.",
	Fixtures: []string{UnicodeNote},
	// Searches the phrase as written and, if that finds its note, in
	// upper case.
	Probe: func(w Wire, f *Facts) bool {
		note := f.Fixtures[UnicodeNote]
		ref := search(w, UnicodeNote, note.Marker)
		if !answered(ref) {
			return true
		}
		if rd := f.read(ref, note.Marker); !rd.Names(note.Rel) && !rd.Quotes(note.Proof) {
			return true
		}
		search(w, stepUnicodeUpper, strings.ToUpper(note.Marker))
		return true
	},
	Judge: func(f *Facts) Verdict {
		var v Verdict
		note := f.Fixtures[UnicodeNote]
		ref, _ := f.step(UnicodeNote)
		if !v.answered(ref, "tools/call") {
			return v
		}
		refRd := f.read(ref, note.Marker)
		if !refRd.Names(note.Rel) && !refRd.Quotes(note.Proof) {
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
		if miss := f.read(ex, q).Missing(refRd); len(miss) > 0 {
			v.Findings = append(v.Findings, Finding{Warn: true, Step: ex.Step,
				Msg: fmt.Sprintf("%q found less than %q as written: no %s", q, note.Marker, strings.Join(miss, "; "))})
			return v
		}
		v.Summary = fmt.Sprintf("%q found %s, written %q", q, note.Rel, note.Marker)
		return v
	},
}
