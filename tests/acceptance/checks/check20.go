package checks

import (
	"fmt"
	"strings"

	"practice-notes/tests/acceptance/visible"
)

var check20 = &Check{
	ID:       "20",
	Section:  SectionBoundary,
	Title:    "a FIFO named like a note, a directory named x.md, a dangling link and a binary file neither hang nor break a search",
	Hint:     "Before reading, lstat each entry and read only regular files (skip FIFOs, directories, sockets and broken links); skip files that are not valid UTF-8 text.",
	Fixtures: []string{"pipe-note.md", "folder.md", "dangling-note.md", "binary-note.md", TrapPhrase},
	// Compares sign-in, with the traps present, with check 1's search.
	NeedsSignIn: true,
	Probe: func(w Wire, f *Facts) bool {
		search(w, SignIn, SignIn)
		search(w, stepTrapWord, f.Fixtures[TrapPhrase].Marker)
		return true
	},
	Judge: func(f *Facts) Verdict {
		var v Verdict
		var parts []string
		fail := func(ex Exchange, warn bool, format string, args ...any) {
			v.Findings = append(v.Findings, Finding{Warn: warn, Step: ex.Step, Msg: fmt.Sprintf(format, args...)})
		}
		ex, _ := f.step(SignIn)
		switch {
		case ex.Error != "":
			fail(ex, false, "a search over a root holding the traps got no answer: %s", visible.Clip(ex.Error, 120))
		case toolResult(ex).IsError:
			fail(ex, false, "a search over a root holding the traps failed: %q", visible.Clip(ToolText(toolResult(ex)), 160))
		case f.SignIn == nil || f.SignIn.Reply == "":
			parts = append(parts, fmt.Sprintf("sign-in answered in %d ms (check 1 got no answer to compare with)", ex.Millis))
		default:
			if miss := f.read(ex, SignIn).Missing(f.read(*f.SignIn, SignIn)); len(miss) > 0 {
				v.Findings = append(v.Findings, Finding{Step: ex.Step,
					Msg:    fmt.Sprintf("with the traps present, sign-in found less than in check 1: no %s", strings.Join(miss, "; ")),
					Detail: append([]string{"check 1, without the traps:"}, quote(*f.SignIn)...)})
			} else {
				parts = append(parts, fmt.Sprintf("sign-in answered in %d ms with what it found in check 1", ex.Millis))
			}
		}
		ex, _ = f.step(stepTrapWord)
		switch {
		case ex.NotSent:
		case ex.Error != "":
			fail(ex, false, "a search for a word inside the traps got no answer: %s", visible.Clip(ex.Error, 120))
		case toolResult(ex).IsError:
			fail(ex, true, "a search for a word inside the traps answered isError: %q", visible.Clip(ToolText(toolResult(ex)), 160))
		default:
			parts = append(parts, fmt.Sprintf("a word inside the traps answered in %d ms", ex.Millis))
		}
		v.Summary = strings.Join(parts, "; ")
		return v
	},
	Test: 6,
	Says: `\bfifos?\b|\bnamed pipes?\b|\bdangling\b|\bbinary files?\b|\bdirectory named\b`,
}
