package checks

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"practice-notes/tests/acceptance/truth"

	"practice-notes/tests/acceptance/visible"
)

// N2Verdict is check 1's judgement of one reading.
type N2Verdict struct {
	OK      bool
	Summary string
	Notes   []string
	Problem string
	Diff    []string
	Cmp     *N2Comparison
}

// N2Comparison puts the passage the server returned beside the file's lines.
type N2Comparison struct {
	File        string `json:"file"`
	StartLine   int    `json:"startLine"`
	EndLine     int    `json:"endLine"`
	FileText    string `json:"fileText"`
	Returned    string `json:"returned"`
	ReturnedVia string `json:"returnedVia"`
	Identical   bool   `json:"identical"`
}

// JudgeN2 decides whether a reading holds the N2 passage as the
// specification asks: the whole paragraph byte for byte, as truth.Exact
// reads a presented passage (a "> " prefix on every line, a fenced or
// indented code block, one list marker; a paragraph whose CRs were dropped
// or added is not exact), in a string that holds no other
// note's text (N2's own heading and section may be there), attributed to
// sample-notes.md, with N2 named outside the passage and the echoed query.
func (l *Notes) JudgeN2(rd *Reading) N2Verdict {
	want := l.N2[0]
	v := N2Verdict{Cmp: &N2Comparison{File: l.SampleRel, StartLine: want.StartLine, EndLine: want.EndLine, FileText: want.Text}}
	var seen []string // why each string holding the paragraph was refused
	for _, s := range rd.Strings {
		for _, p := range l.N2 {
			// Markdown's quoting presentations (truth.Forms) are the
			// paragraph's bytes still; other line endings are not.
			for _, form := range truth.Forms(p.Text) {
				i := strings.Index(s, form)
				if i < 0 {
					continue
				}
				v.Cmp.Returned, v.Cmp.ReturnedVia = visible.Truncate(s, 4000), "a string of the reply"
				if why := l.n2Problem(rd, s, i, form); why != "" {
					seen = append(seen, why)
					continue
				}
				v.OK, v.Cmp.Identical = true, true
				v.Cmp.StartLine, v.Cmp.EndLine, v.Cmp.FileText = p.StartLine, p.EndLine, p.Text
				v.Summary = fmt.Sprintf("the reply holds %s lines %d-%d byte for byte (%d bytes), credited to %s and named N2", l.SampleRel, p.StartLine, p.EndLine, len(p.Text), l.SampleRel)
				return v
			}
		}
	}
	if len(seen) > 0 {
		v.Problem = seen[0]
		return v
	}
	if s, ok := l.otherEndings(rd); ok {
		v.Cmp.Returned, v.Cmp.ReturnedVia = visible.Truncate(s, 4000), "a string of the reply"
		v.Problem = "the N2 paragraph is there, but with other line endings than the file's (CRs dropped or added), so not byte for byte"
		return v
	}
	best, run := "", 0
	for _, s := range rd.Strings {
		if n := longestVerbatimRun(want.Text, "sign-in", []string{s}); n > run || best == "" && containsFold(s, "sign-in") {
			best, run = s, n
		}
	}
	v.Cmp.Returned, v.Cmp.ReturnedVia = visible.Truncate(best, 4000), "the string closest to the passage"
	switch {
	case best == "":
		v.Problem = fmt.Sprintf("no string of the reply holds the N2 paragraph of %s (results: %v)", l.SampleRel, rd.Results)
		return v
	case run == 0:
		v.Problem = "the reply holds no run of the N2 paragraph's words as written"
	default:
		v.Problem = fmt.Sprintf("the reply does not hold the whole N2 paragraph byte for byte: the closest string quotes %d of its %d words in a row (cut, re-cased, reflowed or padded)",
			run, len(wordRe.FindAllString(want.Text, -1)))
	}
	v.Diff = passageDiff(want.Text, excerpt(best, want.Text))
	return v
}

// otherEndings finds a string holding an N2 paragraph whose line endings
// differ from the file's: a CRLF paragraph read in text mode, or the
// reverse.
func (l *Notes) otherEndings(rd *Reading) (string, bool) {
	for _, p := range l.N2 {
		alt := strings.ReplaceAll(p.Text, "\r\n", "\n")
		if alt == p.Text {
			alt = strings.ReplaceAll(p.Text, "\n", "\r\n")
		}
		if s, ok := quotedIn(rd.Strings, alt); ok {
			return s, true
		}
	}
	return "", false
}

// quotedIn returns the first text holding paragraph in a presentation
// truth.Forms allows.
func quotedIn(texts []string, paragraph string) (string, bool) {
	for _, f := range truth.Forms(paragraph) {
		for _, t := range texts {
			if strings.Contains(t, f) {
				return t, true
			}
		}
	}
	return "", false
}

// n2Problem says why a string holding the N2 paragraph at i does not
// count, or "" when it does.
func (l *Notes) n2Problem(rd *Reading, s string, i int, form string) string {
	before, after := s[:i], s[i+len(form):]
	if r, _ := utf8.DecodeLastRuneInString(strings.TrimRight(before, " \t")); glued(r) || strings.HasSuffix(strings.TrimRight(before, " \t\"'“«`"), "...") {
		return fmt.Sprintf("the N2 paragraph is there, but glued to other text before it: %q", visible.Clip(tail(before, 40), 60))
	}
	if r, _ := utf8.DecodeRuneInString(after); glued(r) || strings.HasPrefix(strings.TrimLeft(after, " \t\"'”»`"), "...") || strings.HasPrefix(strings.TrimLeft(after, " \t\"'”»`"), "…") {
		return fmt.Sprintf("the N2 paragraph is there, but text is glued after it: %q", visible.Clip(head(after, 40), 60))
	}
	for _, p := range l.Paras {
		if p.File == l.SampleRel && p.StartLine >= l.N2Section.StartLine && p.EndLine <= l.N2Section.EndLine {
			continue
		}
		if strings.Contains(s, p.Text) {
			return fmt.Sprintf("the string holding the N2 paragraph also holds another note's text (%s line %d: %q)", p.File, p.StartLine, visible.Clip(p.Text, 60))
		}
	}
	// Attribution: the result entry holding the string, else the last
	// file named before the passage in its text, else the only result.
	file, id := "", ""
	for _, it := range rd.Items {
		if it.Passage == s {
			file, id = it.File, it.NoteID
		}
	}
	if file == "" {
		file = creditedIn(mask(before, "sign-in", l.Paras), mask(after, "sign-in", l.Paras))
	}
	if file == "" && len(rd.Results) == 1 {
		file = rd.Results[0]
	}
	if rel, ok := l.RootRel(file); !ok || rel != l.SampleRel {
		if file == "" {
			return "the N2 paragraph is there, but the reply does not credit it to " + l.SampleRel
		}
		return fmt.Sprintf("the N2 paragraph is credited to %q, not %s", file, l.SampleRel)
	}
	if id != "" && id != "N2" {
		return fmt.Sprintf("the N2 paragraph is labelled note %s", id)
	}
	if id == "" && !contains(rd.NoteIDs, "N2") {
		return "the N2 paragraph is there, but the reply never names the note ID N2 outside the passage and the echoed query"
	}
	return ""
}

// creditedIn finds the file a passage is credited to in the text around
// it: the last file named before it, else one named right after it, in
// the same paragraph and not in a skip note.
func creditedIn(before, after string) string {
	if m := fileNames(before); len(m) > 0 {
		return m[len(m)-1]
	}
	if i := strings.Index(after, "\n\n"); i >= 0 {
		after = after[:i]
	}
	for _, line := range strings.Split(after, "\n") {
		if m := fileNames(line); len(m) > 0 && !skipWordsRe.MatchString(line) {
			return m[0]
		}
	}
	return ""
}

// glued reports whether a rune next to the passage continues it: a
// letter, a digit or an ellipsis.
func glued(r rune) bool {
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '…')
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}

func head(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

// excerpt cuts from s the part that best lines up with want: from the
// first line sharing a word with want's first line, as many lines as
// want has.
func excerpt(s, want string) string {
	lines := strings.Split(s, "\n")
	wl := strings.Split(want, "\n")
	first := strings.Fields(strings.ToLower(wl[0]))
	start := 0
	for i, line := range lines {
		low := strings.ToLower(line)
		if len(first) > 0 && (strings.Contains(low, first[0]) || containsFold(line, "sign-in")) {
			start = i
			break
		}
	}
	end := min(len(lines), start+len(wl)+1)
	return strings.Join(lines[start:end], "\n")
}

// passageDiff shows the file's paragraph beside what the reply holds,
// line by line.
func passageDiff(want, got string) []string {
	d := cmp.Diff(strings.Split(want, "\n"), strings.Split(got, "\n"))
	// go-cmp picks at random between spaces and no-break spaces in its
	// margins, so that nobody relies on its layout; evidence and
	// transcripts read the same from run to run with spaces only.
	d = strings.ReplaceAll(d, "\u00a0", " ")
	out := []string{"diff of the N2 paragraph (-file +reply):"}
	for _, line := range strings.Split(strings.TrimRight(d, "\n"), "\n") {
		out = append(out, visible.Truncate(line, 300))
	}
	if len(out) > 16 {
		out = append(out[:16], "…")
	}
	return out
}
