package checks

import (
	"bytes"
	"fmt"
	"strings"

	"practice-notes/tests/acceptance/diagnose"
	"practice-notes/tests/acceptance/truth"
)

// caseBound is the most bytes of one text a failing case quotes.
const caseBound = 400

// maxCaseNotes is the most notes a failing case shows.
const maxCaseNotes = 4

// smallestCase is the failing case of a generated reply, shrunk to what
// still shows d (generated_shrink.go): the seed that replays it, what was
// left out, the notes kept (each cut to its start and end when long, and
// as it was before the changes when it changed), the query, the true
// answer over the notes kept and what the server said of them, every
// text escaped as a Go string so that it pastes into a test. ds are
// every diagnosis of the reply. A diagnosis that needs no note (a
// query's length) shows none.
func smallestCase(seed uint64, gr *generatedReply, d diagnose.Diagnosis, ds []diagnose.Diagnosis) []string {
	out := []string{fmt.Sprintf("seed: %d (replay: --seed %d)", seed, seed)}
	// A limit is shown by the query alone.
	c := shrunkCase{root: diagnose.Root{Now: truth.Tree{}}, answer: gr.answer}
	if !gr.refused && diagnose.Limit(gr.query, false) == "" {
		if c = gr.shrink(d, ds); c.left > 0 || c.cut > 0 {
			given := ""
			if c.elsewhere {
				given = ", given what the server's other replies showed it does right"
			}
			out = append(out, fmt.Sprintf("shrunk: %d of %d notes left out, %d paragraphs cut; the true answer over what is left still differs from the server's reply in the same way%s (the reply is the server's to the whole case: it was not asked again)",
				c.left, len(noteNames(gr.root)), c.cut, given))
		}
	}
	names := noteNames(c.root)
	for i, n := range names {
		if i == maxCaseNotes {
			out = append(out, fmt.Sprintf("and %d more notes", len(names)-i))
			break
		}
		out = append(out, noteLines(c.root, n)...)
	}
	out = append(out, fmt.Sprintf("query: %s", quoteCut(gr.query)))
	out = append(out, answerLines(&c.answer)...)
	return append(out, "server said: "+gr.said(c.root))
}

// noteLines shows note n of root: as it is, and as it was before the
// changes when it changed.
func noteLines(root diagnose.Root, n string) []string {
	show := func(e truth.Entry) string {
		if e.Unreadable && e.Data == nil {
			return "unreadable (mode 000)"
		}
		return fmt.Sprintf("(%d bytes): %s", len(e.Data), quoteCut(string(e.Data)))
	}
	now, inNow := root.Now[n]
	before, inBefore := root.Before[n]
	switch {
	case root.Before == nil || inNow && inBefore && bytes.Equal(now.Data, before.Data):
		return []string{fmt.Sprintf("note %q %s", n, show(now))}
	case !inBefore:
		return []string{fmt.Sprintf("note %q, added before this search %s", n, show(now))}
	case !inNow:
		return []string{fmt.Sprintf("note %q, removed before this search; it held %s", n, show(before))}
	}
	return []string{fmt.Sprintf("note %q, edited before this search %s", n, show(now)),
		fmt.Sprintf("note %q before the edit %s", n, show(before))}
}

// answerLines shows the true answer a.
func answerLines(a *truth.Answer) []string {
	hits := a.Under(0)
	var out []string
	switch {
	case a.Refusal == truth.MustRefuse:
		out = append(out, "true answer: a bounded error (over 200 characters)")
	case len(hits) == 0 && len(a.Hits) == 0:
		out = append(out, "true answer: no match")
	case len(hits) == 0:
		out = append(out, fmt.Sprintf("true answer: no passage required; %d may be returned", len(a.Hits)))
	}
	for i, h := range hits {
		if i == 5 {
			out = append(out, fmt.Sprintf("true answer: and %d more", len(hits)-i))
			break
		}
		out = append(out, fmt.Sprintf("true answer: %s line %d: %s", h.File, h.StartLine, quoteCut(h.Text)))
	}
	return out
}

// said is what the server said, escaped: of a reply whose result entries
// name their files, the entries of the notes kept, less those quoting a
// paragraph the shrunk case left out, and how many others there were;
// of any other reply, of one that names a note kept only outside its
// entries (a note removed) and of a case of no note (a limit), every
// string it carried.
func (gr *generatedReply) said(kept diagnose.Root) string {
	if gr.refused {
		return "a tool error"
	}
	all := quoteCut(strings.Join(gr.reply.Strings, "\n"))
	if gr.rd == nil || len(gr.rd.Items) == 0 || len(noteNames(kept)) == 0 {
		return all
	}
	var parts []string
	others := 0
	for _, it := range gr.rd.Items {
		n, ok := keptNote(kept, strings.TrimPrefix(cleanName(it.File), "/"))
		if !ok || leftOut(gr.root, kept, n, it.Passage) {
			others++
			continue
		}
		parts = append(parts, fmt.Sprintf("%q: %s", it.File, quoteCut(it.Passage)))
	}
	if len(parts) == 0 {
		for _, n := range noteNames(kept) {
			if containsAny(gr.reply.Strings, n) {
				return all
			}
		}
		parts = append(parts, "no result of the notes shown")
	}
	if others > 0 {
		parts = append(parts, fmt.Sprintf("and %d results of notes or paragraphs left out of this case", others))
	}
	return strings.Join(parts, "; ")
}

// keptNote returns the note of kept a file named name is: the same
// root-relative name, or one ending in it.
func keptNote(kept diagnose.Root, name string) (string, bool) {
	for _, k := range noteNames(kept) {
		if name == k || strings.HasSuffix(name, "/"+k) {
			return k, true
		}
	}
	return "", false
}

// leftOut reports whether passage is text of note n that the shrunk root
// kept no longer holds and the full root did.
func leftOut(full, kept diagnose.Root, n, passage string) bool {
	p := []byte(strings.Trim(passage, "\r\n"))
	in := func(r diagnose.Root) bool {
		return len(p) > 0 && (bytes.Contains(r.Now[n].Data, p) || bytes.Contains(r.Before[n].Data, p))
	}
	return in(full) && !in(kept)
}

// quoteCut escapes s as a Go string, keeping its first and last bytes
// when it is longer than caseBound.
func quoteCut(s string) string {
	if len(s) <= caseBound {
		return fmt.Sprintf("%q", s)
	}
	head, tail := s[:caseBound/2], s[len(s)-caseBound/2:]
	return fmt.Sprintf("%q + … %d bytes … + %q", head, len(s)-len(head)-len(tail), tail)
}
