package checks

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"practice-notes/tests/acceptance/diagnose"
	"practice-notes/tests/acceptance/truth"
)

// The hard cases (truth.HardCases) are planted under truth.HardDir and
// searched in check 10's process. Each reply is judged by the true
// answer: a passage that is not a true paragraph byte for byte (CRs
// dropped, a window cut at a folded copy's offsets, a separator rewritten)
// breaks check 1's rule, an exact passage; a true hit missed is a case
// fold gone wrong, check 10's rule, a warning as for any incomplete
// non-ASCII fold. A note found that holds no hit under simple folding
// (İSTANBUL for istanbul, as Go's and JavaScript's lowercasing give) is
// not charged: the specification asks that capitals not be required, not
// that a wider fold be refused. The phrases whose words occur only apart
// are check 11's.

// hardStep is the step a hard-case query is recorded under.
func hardStep(query string) string { return "hard case: " + query }

// sendHardCases searches every hard-case probe.
func sendHardCases(w Wire) {
	_, probes := truth.HardCases()
	for _, p := range probes {
		if !slices.Contains(phraseQueries, p.Query) {
			search(w, hardStep(p.Query), p.Query)
		}
	}
}

// judgeHardCases judges every hard-case reply the process recorded.
func judgeHardCases(f *Facts) []Finding {
	var out []Finding
	_, probes := truth.HardCases()
	// A hit missed in a note the server never named in any of these
	// replies says where the server searches (check 3's rule for nested
	// notes), not how it compares text: only a server that reached the
	// hard-case notes is charged for what it missed among them.
	reached := false
	var replies []diagnose.Reply
	for _, p := range probes {
		ex, ok := f.step(hardStep(p.Query))
		a, known := f.answer(p.Query)
		if !ok || !known || !answered(ex) {
			continue
		}
		rd := f.read(ex, p.Query)
		for _, h := range a.Hits {
			reached = reached || namesFile(rd, h.File)
		}
		replies = append(replies, hardReply(rd, a))
	}
	for _, p := range probes {
		ex, ok := f.step(hardStep(p.Query))
		a, known := f.answer(p.Query)
		if !ok || !known || !answered(ex) || toolResult(ex).IsError {
			continue // not sent or not answered: check 8's and the timeout rule's
		}
		rd := f.read(ex, p.Query)
		miss := missed(rd, a)
		for _, h := range a.Hits {
			if !namesFile(rd, h.File) || slices.ContainsFunc(miss, func(m truth.Hit) bool { return m.File == h.File && m.StartLine == h.StartLine }) {
				continue // a hit missed is judged below, not as a passage
			}
			if bad := inexact(f, rd, h); bad != "" {
				m := diagnose.Passage(hardTree(), h, rd.Strings)
				out = append(out, Finding{Owner: check1, Step: ex.Step,
					Msg:  fmt.Sprintf("%q: the passage of %s line %d is not its paragraph byte for byte: %s (%s)", p.Query, h.File, h.StartLine, bad, m),
					Hint: diagnose.Of(m).Hint})
			}
		}
		if len(miss) > 0 && reached {
			d := diagnoseMiss(hardReply(rd, a), replies)
			out = append(out, Finding{Warn: true, Step: ex.Step,
				Msg:  fmt.Sprintf("%q missed %s of the true answer: %s", p.Query, hitList(miss), d.Mistake),
				Hint: d.Hint})
		}
	}
	return out
}

// namesFile reports whether a reading names rel as a result (leniently:
// a leading "/" or "./", or a folder before it).
func namesFile(rd *Reading, rel string) bool {
	for _, r := range rd.Results {
		n := strings.TrimPrefix(cleanName(r), "/")
		if n == rel || strings.HasSuffix(n, "/"+rel) {
			return true
		}
	}
	for _, it := range rd.Items {
		n := strings.TrimPrefix(cleanName(it.File), "/")
		if n == rel || strings.HasSuffix(n, "/"+rel) {
			return true
		}
	}
	// A string value that is the name alone, as a JSON reply holds it.
	for _, s := range rd.Strings {
		if n := strings.TrimPrefix(cleanName(s), "/"); n == rel {
			return true
		}
	}
	return false
}

// inexact says why a reading that names h's file does not present h's
// paragraph exactly, or "" when it does. It is exact when a result entry
// of that file is the paragraph (truth.Exact), or when a string of the
// reply holds the paragraph in a form truth.Forms allows and does not go
// on, right before or after it, with the note's paragraph above or below
// (a window cut wider than the paragraph); a heading above it is allowed,
// as check 1 allows N2's.
func inexact(f *Facts, rd *Reading, h truth.Hit) string {
	texts := append([]string{h.Text}, h.Forms...)
	for _, it := range rd.Items {
		for _, t := range texts {
			if it.Passage != "" && truth.Exact(it.Passage, t) {
				return ""
			}
		}
	}
	prev, next := neighbours(f, h)
	held := false
	for _, s := range rd.Strings {
		if isJSONDoc(s) {
			continue // its values are among the strings, unescaped
		}
		for _, t := range texts {
			// A part of the paragraph (a reader that ends it at a line of
			// white space) has the rest of it above or below instead.
			tPrev, tNext := prev, next
			if j := strings.Index(h.Text, t); j >= 0 && t != h.Text {
				tPrev = orElse(strings.TrimRightFunc(h.Text[:j], unicode.IsSpace), prev)
				tNext = orElse(strings.TrimLeftFunc(h.Text[j+len(t):], unicode.IsSpace), next)
			}
			for _, form := range truth.Forms(t) {
				i := strings.Index(s, form)
				if i < 0 {
					continue
				}
				held = true
				if !spills(s[:i], s[i+len(form):], tPrev, tNext) {
					return ""
				}
			}
		}
	}
	if held {
		return "the string that holds it goes on into the paragraph above or below"
	}
	return "no string of the reply holds it"
}

// neighbours returns the text of the paragraphs right above (unless it
// is a heading) and right below h in its note, "" where there is none.
func neighbours(f *Facts, h truth.Hit) (prev, next string) {
	if f.Notes == nil {
		return "", ""
	}
	end := h.StartLine + strings.Count(h.Text, "\n")
	prevLine, nextLine := 0, 0
	for _, p := range f.Notes.Paras {
		if p.File != h.File {
			continue
		}
		if p.EndLine < h.StartLine && p.EndLine > prevLine && HeadingLevel(p.Text) == 0 {
			prev, prevLine = p.Text, p.EndLine
		}
		if p.StartLine > end && (nextLine == 0 || p.StartLine < nextLine) {
			next, nextLine = p.Text, p.StartLine
		}
	}
	return prev, next
}

// minSpill is the least text of a neighbouring paragraph, in bytes, that
// counts as a passage going on into it: a letter or two shared by chance
// with a reply's own words does not.
const minSpill = 4

// spills reports whether the text right before or after a paragraph in a
// reply's string goes on into the paragraph above or below it.
func spills(before, after, prev, next string) bool {
	if next != "" && sharedPrefix(strings.TrimLeftFunc(after, unicode.IsSpace), next) >= minSpill {
		return true
	}
	if prev == "" {
		return false
	}
	b := strings.TrimRightFunc(before, unicode.IsSpace)
	n := 0
	for n < len(b) && n < len(prev) && b[len(b)-1-n] == prev[len(prev)-1-n] {
		n++
	}
	return n >= minSpill
}

// sharedPrefix returns how many leading bytes a and b share.
func sharedPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// orElse returns s, or alt when s is empty.
func orElse(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

// isJSONDoc reports whether s is a JSON object or array: a reply's text
// whose string values the reading lists apart.
func isJSONDoc(s string) bool {
	t := strings.TrimSpace(s)
	return (strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")) && json.Valid([]byte(t))
}
