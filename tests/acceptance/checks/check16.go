package checks

import "fmt"

// maxRuntimeNotes bounds the runtime places check 16 names.
const maxRuntimeNotes = 12

var check16 = &Check{
	ID:      "16",
	Process: RunWide,
	Section: SectionTool,
	Title:   "nothing is written into HOME or TMPDIR (fresh empty folders, checked after every process)",
	Hint:    "Do not write history, caches or logs anywhere; log to stderr only.",
	// The run-wide HOME and TMPDIR rule: every server process gets fresh
	// empty folders of its own, listed after it ends. What its runtime
	// wrote by itself (the sandbox sends it to folders of the run) is
	// the runtime's, named in a note and not charged.
	Needs: []need{needNotStarted, needHomeDirs, needLeftovers},
	Judge: func(f *Facts) Verdict {
		var v Verdict
		for _, left := range f.Leftovers {
			if len(left.Lines) == 0 {
				continue
			}
			shown := left.Lines
			if len(shown) > 8 {
				shown = append(shown[:8:8], fmt.Sprintf("… and %d more", len(left.Lines)-8))
			}
			v.Findings = append(v.Findings, Finding{
				Msg:    fmt.Sprintf("%s wrote into its fresh HOME, TMPDIR or config folder: %s", ProcessOf(left.Process), left.Lines[0]),
				Detail: shown,
			})
		}
		more := 0
		for _, left := range f.Leftovers {
			for _, l := range left.Runtime {
				if len(v.Notes) == maxRuntimeNotes {
					more++
					continue
				}
				v.Notes = append(v.Notes, fmt.Sprintf("runtime files, not charged: %s, in %s", l, ProcessOf(left.Process)))
			}
		}
		if more > 0 {
			v.Notes = append(v.Notes, fmt.Sprintf("runtime files, not charged: … and %d more places", more))
		}
		if f.NotStarted != "" {
			v.Findings = append(v.Findings, Finding{
				Msg:  "server did not start; see check " + f.NotStarted + " (an empty HOME proves nothing then)",
				Hint: "Make the server start and answer initialize (see check " + f.NotStarted + ").",
			})
		}
		v.Summary = fmt.Sprintf("HOME and TMPDIR of all %d server processes were fresh empty folders and stayed empty", f.HomeDirs)
		return v
	},
	Test:    7,
	Says:    `\bhome\b|\btmpdir\b|\btemp (?:dir|folder)\w*|\bcaches?\b`,
	Forbids: forbidsWriting,
	Keeps:   keepsReadOnly,
}
