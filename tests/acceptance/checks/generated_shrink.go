package checks

import (
	"bytes"
	"cmp"
	"maps"
	"slices"

	"practice-notes/tests/acceptance/diagnose"
	"practice-notes/tests/acceptance/truth"
)

// A generated failure is shown on the smallest case the judge finds
// without asking the server again. The server's reply to the full case
// is held fixed; notes are left out of the root, then paragraphs out of
// the notes kept, for as long as the true answer over what is left, set
// against that same reply, still names the finding's mistake and no
// mistake the full case did not show. The shrunk case is thus one that
// the truth and the diagnosis confirm, quoting the server's words from
// the full case: a server whose reply depends on a note left out might
// answer the shrunk case otherwise. A case is first shrunk to show its
// mistake by itself; only where no case does is what the server's other
// replies showed it does right (diagnose.Shown) taken in too.

// shrunkCase is a generated failure's case cut down.
type shrunkCase struct {
	root   diagnose.Root
	answer truth.Answer
	// left is how many notes of the full root were left out, cut how
	// many paragraphs of the notes kept.
	left, cut int
	// elsewhere is set when the case shows its mistake only with what
	// the server's other replies showed.
	elsewhere bool
}

// maxCutNote is the longest note whose paragraphs are cut: a longer one
// is there for its size (the 102,400-byte limit), and each try would
// search it again.
const maxCutNote = 16 << 10

// judgeOn sets gr's reply against the true answer over root; ok reports
// whether the diagnosis names m and nothing that full (the diagnoses of
// the whole case) does not. What the reply shows the server does right
// is learnt over root; with elsewhere, what its other replies showed
// counts too.
func (gr *generatedReply) judgeOn(root diagnose.Root, m diagnose.Mistake, full []diagnose.Diagnosis, elsewhere bool) (truth.Answer, bool) {
	a := truth.Ask(root.Now, gr.query)
	r := compare(root.Now, gr.rd, &a)
	r.Shown = diagnose.Learn(root, []diagnose.Reply{r})
	if elsewhere {
		r.Shown = r.Shown.Or(gr.reply.Shown)
	}
	named := false
	for _, d := range classify(root, r) {
		if d.Mistake == m {
			named = true
		} else if !slices.ContainsFunc(full, func(f diagnose.Diagnosis) bool { return f.Mistake == d.Mistake }) {
			return a, false
		}
	}
	return a, named
}

// shrink returns the smallest case of gr that still shows d, one of full,
// the diagnoses classify gave the whole case: one that shows it by
// itself where there is one.
func (gr *generatedReply) shrink(d diagnose.Diagnosis, full []diagnose.Diagnosis) shrunkCase {
	for _, elsewhere := range []bool{false, true} {
		if c, ok := gr.shrinkWith(d, full, elsewhere); ok {
			return c
		}
	}
	return shrunkCase{root: gr.root, answer: gr.answer, elsewhere: true}
}

// shrinkWith shrinks gr's case for d as shrink does, with or without
// what the server showed elsewhere. It tries the notes d names alone
// first, then leaves notes out one at a time, the largest first, then
// cuts paragraphs of each note kept. ok is false when neither the notes
// d names nor the whole case show d so.
func (gr *generatedReply) shrinkWith(d diagnose.Diagnosis, full []diagnose.Diagnosis, elsewhere bool) (shrunkCase, bool) {
	all := noteNames(gr.root)
	best := shrunkCase{root: gr.root, answer: gr.answer, elsewhere: elsewhere}
	try := func(root diagnose.Root) bool {
		a, ok := gr.judgeOn(root, d.Mistake, full, elsewhere)
		if ok {
			best.root, best.answer = root, a
		}
		return ok
	}
	kept := all
	named := slices.DeleteFunc(slices.Clone(d.Files), func(f string) bool { return !slices.Contains(all, f) })
	switch {
	case try(only(gr.root, named)):
		kept = named
	case !try(gr.root):
		// Where the whole case does not show it so, fewer notes, which
		// show less of what the server does, are not tried.
		return best, false
	}
	bySize := slices.Clone(kept)
	slices.SortStableFunc(bySize, func(a, b string) int { return cmp.Compare(noteSize(gr.root, b), noteSize(gr.root, a)) })
	for _, n := range bySize {
		fewer := slices.DeleteFunc(slices.Clone(kept), func(k string) bool { return k == n })
		if try(only(gr.root, fewer)) {
			kept = fewer
		}
	}
	best.left = len(all) - len(kept)
	for _, n := range kept {
		best.cut += cutParagraphs(&best.root, n, try)
	}
	return best, true
}

// cutParagraphs leaves out the paragraphs of note n that try accepts
// leaving out, and returns how many it left out; try keeps the root it
// accepts. A note that changed is cut as it is now and as it was before,
// apart; one that did not, in both at once, so that it stays unchanged.
func cutParagraphs(root *diagnose.Root, n string, try func(diagnose.Root) bool) int {
	now, inNow := root.Now[n]
	before, inBefore := root.Before[n]
	same := inNow && inBefore && bytes.Equal(now.Data, before.Data)
	cut := 0
	for _, side := range []struct{ now, before bool }{{true, same}, {false, !same}} {
		e, ok := now, inNow && side.now
		if !side.now {
			e, ok = before, inBefore && side.before
		}
		if !ok || e.Data == nil || len(e.Data) > maxCutNote {
			continue
		}
		pieces := paragraphPieces(e.Data)
		for i := 0; i < len(pieces) && len(pieces) > 1; {
			if i > 0 && i < len(pieces)-1 && !endsBlank(pieces[i-1]) {
				i++ // the paragraphs around it would run together
				continue
			}
			fewer := slices.Delete(slices.Clone(pieces), i, i+1)
			e.Data = bytes.Join(fewer, nil)
			next := *root
			if side.now {
				next.Now = with(root.Now, n, e)
			}
			if side.before {
				next.Before = with(root.Before, n, e)
			}
			if try(next) {
				*root, pieces = next, fewer
				cut++
				continue
			}
			i++
		}
	}
	return cut
}

// paragraphPieces splits a note into pieces, each one paragraph (a
// heading line, or a run of other non-blank lines) with the blank lines
// after it, so that leaving pieces out keeps every other paragraph byte
// for byte. Blank lines before the first paragraph are a piece of their
// own.
func paragraphPieces(data []byte) [][]byte {
	var out [][]byte
	start, inPara, heading := 0, false, false
	for ls := 0; ls < len(data); {
		next := len(data)
		if i := bytes.IndexByte(data[ls:], '\n'); i >= 0 {
			next = ls + i + 1
		}
		line := data[ls:next]
		blank := len(bytes.Trim(line, " \t\r\n")) == 0
		h := isHeadingLine(line)
		// A paragraph starts at a non-blank line after a blank one, and
		// at every heading line or the line after one.
		if !blank && (!inPara || h || heading) && ls > start {
			out = append(out, data[start:ls])
			start = ls
		}
		if !blank {
			inPara, heading = true, h
		} else {
			inPara = false
		}
		ls = next
	}
	if start < len(data) {
		out = append(out, data[start:])
	}
	return out
}

// isHeadingLine reports whether a line is an ATX heading: up to three
// spaces, one to six '#', then white space or the end of the line.
func isHeadingLine(line []byte) bool {
	rest := bytes.TrimLeft(line, " ")
	if len(line)-len(rest) > 3 {
		return false
	}
	hashes := rest
	rest = bytes.TrimLeft(rest, "#")
	n := len(hashes) - len(rest)
	return n >= 1 && n <= 6 && (len(rest) == 0 || rest[0] == ' ' || rest[0] == '\t' || rest[0] == '\r' || rest[0] == '\n')
}

// endsBlank reports whether a piece ends with a blank line.
func endsBlank(piece []byte) bool {
	trimmed := bytes.TrimRight(piece, " \t\r")
	if !bytes.HasSuffix(trimmed, []byte("\n")) {
		return false
	}
	body := bytes.TrimRight(trimmed[:len(trimmed)-1], " \t\r")
	return bytes.HasSuffix(body, []byte("\n"))
}

// noteNames lists every note of root, now and before the changes, sorted.
func noteNames(root diagnose.Root) []string {
	names := slices.Collect(maps.Keys(root.Now))
	for n := range root.Before {
		if _, ok := root.Now[n]; !ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names
}

// noteSize is the larger size of a note now and before the changes.
func noteSize(root diagnose.Root, n string) int {
	return max(len(root.Now[n].Data), len(root.Before[n].Data))
}

// only is root with the notes names alone, now and before the changes
// (an empty tree before, not none, when the notes changed).
func only(root diagnose.Root, names []string) diagnose.Root {
	pick := func(t truth.Tree) truth.Tree {
		if t == nil {
			return nil
		}
		out := truth.Tree{}
		for _, n := range names {
			if e, ok := t[n]; ok {
				out[n] = e
			}
		}
		return out
	}
	return diagnose.Root{Now: pick(root.Now), Before: pick(root.Before)}
}

// with is a copy of t with note n set to e.
func with(t truth.Tree, n string, e truth.Entry) truth.Tree {
	out := maps.Clone(t)
	out[n] = e
	return out
}
