package checks

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"practice-notes/tests/acceptance/visible"
)

var check20 = &Check{
	ID:       "20",
	Section:  SectionBoundary,
	Title:    "a FIFO named like a note, a directory named x.md, a dangling link and a binary file neither hang nor break a search",
	Hint:     "Before reading, lstat each entry and read only regular files (skip FIFOs, directories, sockets and broken links); skip files that are not valid UTF-8 text.",
	Fixtures: []*Plant{trapPhrase},
	// Compares sign-in, with the traps present, with check 1's search.
	Requires: []*Check{check1},
	Process:  WithPlanting,
	Planting: check20Traps,
	Probe: func(w Wire, f *Facts) bool {
		search(w, SignIn, SignIn)
		search(w, stepTrapWord, f.of(trapPhrase).Marker)
		return true
	},
	Needs: []need{needNotes, needSignIn, needExchanges},
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
	Test:  6,
	Says:  `\bfifos?\b|\bnamed pipes?\b|\bdangling\b|\bbinary files?\b|\bdirectory named\b`,
	Parts: parts20,
}

// trapPhrase is the traps' folder, empty but while check 20 or 22 runs,
// and the word the traps hold.
var trapPhrase = &Plant{Name: "trap phrase", Make: func(g *Ground) (Fixture, error) {
	f := Fixture{Rel: "traps", Marker: "trapmark-" + g.Token(5)}
	return f, os.Mkdir(filepath.Join(g.Root, f.Rel), 0o755)
}}

// check20Traps are the files a naive reader trips on, planted around
// check 20's process only.
var check20Traps = &Planting{In: trapPhrase, Plant: func(dir, marker string) ([]Planted, error) {
	return plantAll(dir, []plantStep{
		{Planted{Rel: "pipe-note.md", What: "a FIFO named like a note"}, mkfifo},
		{Planted{Rel: "folder.md", What: "a directory named like a note", Inside: []string{"inner-note.md"}}, func(p string) error {
			if err := os.Mkdir(p, 0o755); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(p, "inner-note.md"), []byte("# Inside folder.md\n\nThe word "+marker+" sits in a note inside a directory named folder.md.\n"), 0o644)
		}},
		{Planted{Rel: "dangling-note.md", What: "a dangling symlink"}, func(p string) error { return os.Symlink("missing-note.md", p) }},
		{Planted{Rel: "binary-note.md", What: "a binary file with NUL bytes and invalid UTF-8"}, func(p string) error {
			return os.WriteFile(p, []byte("\x00\xff\xfe\x00binary "+marker+" \xc3\x28\x00\x01\x02\n"), 0o644)
		}},
	})
}}
