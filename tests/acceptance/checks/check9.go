package checks

import (
	"fmt"
	"strings"
)

// The other spellings check 9 searches, against sign-in in the same process.
var check9Spellings = []string{"SIGN-IN", "Sign-In"}

const stepSignInRef = "sign-in, the reference"

var check9 = &Check{
	ID:      "9",
	Section: SectionTool,
	Title:   "SIGN-IN and Sign-In find the same N2 passage as sign-in",
	Hint:    "Compare case-insensitively: lower-case (or case-fold) both the query and the text before matching, but return the passage as written.",
	// Searches sign-in again in its own process, then, if that found
	// something, the other spellings.
	Probe: func(w Wire, f *Facts) bool {
		ref := search(w, stepSignInRef, SignIn)
		if !answered(ref) {
			return true
		}
		if files, passages := f.read(ref, SignIn).Found(); len(files) == 0 && len(passages) == 0 {
			return true
		}
		for _, q := range check9Spellings {
			search(w, q, q)
		}
		return true
	},
	Needs: []need{needNotes, needExchanges},
	Judge: func(f *Facts) Verdict {
		var v Verdict
		ref, _ := f.step(stepSignInRef)
		if !v.answered(ref, "tools/call") {
			return v
		}
		refRd := f.read(ref, SignIn)
		if files, passages := refRd.Found(); len(files) == 0 && len(passages) == 0 {
			v.Skip = "sign-in itself found no passage in this process, so other spellings have nothing to match; see check 1"
			return v
		}
		var ok []string
		shownRef := false
		for _, q := range check9Spellings {
			ex, _ := f.step(q)
			if !v.answered(ex, "tools/call") {
				continue
			}
			if miss := f.read(ex, q).Missing(refRd); len(miss) > 0 {
				fd := Finding{Step: ex.Step, Msg: fmt.Sprintf("%q found less than sign-in: no %s", q, strings.Join(miss, "; "))}
				if !shownRef {
					fd.Detail, shownRef = append([]string{"sign-in, in the same process:"}, quote(ref)...), true
				}
				v.Findings = append(v.Findings, fd)
				continue
			}
			ok = append(ok, q)
		}
		v.Summary = fmt.Sprintf("%s found the same files and passages as sign-in", strings.Join(ok, " and "))
		return v
	},
	Says: saysCase,
}
