package search

import (
	"bytes"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// The oracle below restates the matching rules from the package
// documentation independently of the implementation: lines are split with
// bytes.IndexByte, paragraphs are grouped line by line, and runes are
// compared with strings.EqualFold, which is Unicode simple case folding.

// oParagraph is a paragraph: [start, end) without its final line break.
type oParagraph struct{ start, end int }

// oParagraphs splits text into paragraphs: maximal runs of non-blank lines,
// where a Markdown ATX heading line is a paragraph of its own. A blank line
// holds only spaces, tabs and carriage returns. A byte-order mark at the
// start is not text: the first line starts after it.
func oParagraphs(text []byte) []oParagraph {
	var paras []oParagraph
	open := false
	first := 0
	if strings.HasPrefix(string(text), "\uFEFF") {
		first = len("\uFEFF")
	}
	for s := first; s <= len(text); {
		e, next := len(text), len(text)+1
		if nl := bytes.IndexByte(text[s:], '\n'); nl >= 0 {
			e, next = s+nl, s+nl+1
			if e > s && text[e-1] == '\r' {
				e--
			}
		}
		line := text[s:e]
		switch {
		case len(bytes.Trim(line, " \t\r")) == 0:
			open = false
		case oHeading(line):
			paras = append(paras, oParagraph{s, e})
			open = false
		case open:
			paras[len(paras)-1].end = e
		default:
			paras = append(paras, oParagraph{s, e})
			open = true
		}
		s = next
	}
	return paras
}

// oHeading: up to three spaces, one to six '#', then a space, a tab or the
// end of the line.
func oHeading(line []byte) bool {
	rest := line
	for i := 0; i < 3 && len(rest) > 0 && rest[0] == ' '; i++ {
		rest = rest[1:]
	}
	n := len(rest) - len(bytes.TrimLeft(rest, "#"))
	if n < 1 || n > 6 {
		return false
	}
	rest = rest[n:]
	return len(rest) == 0 || rest[0] == ' ' || rest[0] == '\t'
}

// oMatch reports whether the query's words match text at i, and where the
// match ends: each rune equal under strings.EqualFold, and between words a
// non-empty run of Unicode white space holding at most one "\n".
func oMatch(text []byte, i int, words []string) (int, bool) {
	j := i
	for wi, w := range words {
		if wi > 0 {
			k, breaks := j, 0
			for k < len(text) {
				r, size := utf8.DecodeRune(text[k:])
				if !unicode.IsSpace(r) {
					break
				}
				if r == '\n' {
					breaks++
				}
				k += size
			}
			if k == j || breaks > 1 {
				return 0, false
			}
			j = k
		}
		for _, want := range w {
			if j >= len(text) {
				return 0, false
			}
			_, size := utf8.DecodeRune(text[j:])
			if !strings.EqualFold(string(text[j:j+size]), string(want)) {
				return 0, false
			}
			j += size
		}
	}
	return j, true
}

// oFind returns, for each paragraph holding a match that stays inside it,
// the paragraph and the start and end of its first match. With runeStarts
// set, matches are only tried where a rune starts.
func oFind(text []byte, query string, runeStarts bool) (paras []oParagraph, starts, ends []int) {
	words := strings.Fields(query)
	for _, p := range oParagraphs(text) {
		for i := p.start; i < p.end; i++ {
			if runeStarts && !utf8.RuneStart(text[i]) {
				continue
			}
			if end, ok := oMatch(text, i, words); ok && end <= p.end {
				paras = append(paras, p)
				starts = append(starts, i)
				ends = append(ends, end)
				break
			}
		}
	}
	return paras, starts, ends
}

// FuzzFindOracle checks findPassages against the oracle. On any input: no panic,
// passages within the text, in order and apart, each inside a paragraph
// that really holds a match, and the max/more contract. On valid UTF-8 (the
// only text the boundary hands out): exactly the oracle's paragraphs, each
// whole or clipped around its first match, with the right line number.
func FuzzFindOracle(f *testing.F) {
	seeds := []struct{ text, query string }{
		{"# N2 · Sign-in loop\n\nThe SIGN-IN form\nloops.\n", "sign-in"},
		{"wrapped phrase across\na line break\n", "across a line"},
		{"blank\n\nline between\n", "blank line"},
		{"blank\n  \t\r\nline between\n", "blank line"},
		{"crlf phrase\r\nwrapped\r\n", "phrase wrapped"},
		{"lone\rcr\n", "lone cr"},
		{"# heading\nbody text\n", "heading body"},
		{"####### seven\n", "seven"},
		{"   # three spaces\n    # four spaces\n", "spaces"},
		{"#nospace heading\n", "nospace"},
		{"CAFÉ and café and CAFE\u0301\n", "café"},
		{"İstanbul istanbul ISTANBUL\n", "İstanbul"},
		{"i̇stanbul\n", "İstanbul"},
		{"ſign and SIGN and sign\n", "sign"},
		{"\u212Aelvin kelvin KELVIN\n", "kelvin"},
		{"\u212Aelvin\n", "\u212A"},
		{"straße STRASSE STRAẞE\n", "straße"},
		{"ΣΊΣΥΦΟΣ σίσυφος σίσυφοςς\n", "Σίσυφος"},
		{"ǅ ǆ Ǆ\n", "ǅ"},
		{"invalid \xff\xfe bytes \xc3 here\n", "bytes"},
		{"cut \xe2\x84 kelvin\n", "kelvin"},
		{"replacement \uFFFD and \xff\n", "\uFFFD"},
		{"é\n", "\uFFFD"},
		{"nul\x00byte\n", "byte"},
		{strings.Repeat("long paragraph ", 200) + "needle" + strings.Repeat(" filler", 200) + "\n", "needle"},
		{strings.Repeat("é", 600) + "needle" + strings.Repeat("ü", 600) + "\n", "needle"},
		{"needle " + strings.Repeat("x", 2000) + "\n", "needle"},
		{strings.Repeat("a ", 20) + "\n", "a a a"},
		{"---\nid: N9\n---\n# N1\ntext\n", "text"},
		{"tab\tseparated\n", "tab separated"},
		{"two  spaces\n", "two spaces"},
		{"end", "end"},
		{"", "x"},
		{"\n\n\n", "x"},
		{"a\n#\nb", "a b"},
		{"alpha\u00a0beta\n", "alpha beta"},
		{"alpha\u3000\u2028 beta\n", "alpha\u00a0beta"},
		{"alpha\u2028\nbeta\n", "alpha beta"},
		{"alpha\u00a0\n\u00a0\nbeta\n", "alpha beta"},
		{"\uFEFF# N1 heading\nbody\n", "heading"},
		{"\uFEFF---\nid: FM-2\n---\ntext\n", "text"},
		{"\uFEFF\uFEFFtext\n", "text"},
	}
	for _, s := range seeds {
		f.Add([]byte(s.text), s.query)
	}
	f.Fuzz(func(t *testing.T, text []byte, query string) {
		q, err := ParseQuery(query)
		if err != nil {
			return
		}
		all, more := findPassages(text, false, q, 1<<30)
		if more {
			t.Fatalf("findPassages with no limit reported more")
		}
		valid := utf8.Valid(text)
		paras, starts, ends := oFind(text, q.String(), valid)
		prevEnd := -1
		for k, p := range all {
			if p.Start < 0 || p.Start > p.End || p.End > len(text) {
				t.Fatalf("passage %d [%d,%d) outside a text of %d bytes", k, p.Start, p.End, len(text))
			}
			if p.Start <= prevEnd {
				t.Fatalf("passage %d [%d,%d) does not follow the one before (end %d)", k, p.Start, p.End, prevEnd)
			}
			prevEnd = p.End
			if p.NoteID != "" && !bytes.Contains(text, []byte(p.NoteID)) {
				t.Fatalf("note ID %q is not in the text", p.NoteID)
			}
			// Sound: the passage lies in a paragraph holding a real match.
			pi := -1
			for j, op := range paras {
				if op.start <= p.Start && p.End <= op.end {
					pi = j
				}
			}
			if pi < 0 && valid {
				t.Fatalf("passage %d %q is in no paragraph holding a match of %q; oracle: %v", k, text[p.Start:p.End], query, paras)
			}
			if pi < 0 {
				// Invalid UTF-8: findPassages may also match where a rune does not
				// start; the oracle must then agree when allowed to.
				ap, _, _ := oFind(text, q.String(), false)
				for _, op := range ap {
					if op.start <= p.Start && p.End <= op.end {
						pi = 0
					}
				}
				if pi < 0 {
					t.Fatalf("passage %d %q holds no match of %q", k, text[p.Start:p.End], query)
				}
			}
		}
		if !valid {
			return
		}
		// Complete and exact on valid UTF-8.
		if len(all) != len(paras) {
			t.Fatalf("findPassages gave %d passages for %q; the oracle finds %d: %v", len(all), query, len(paras), paras)
		}
		for k, p := range all {
			op, i, end := paras[k], starts[k], ends[k]
			if want := 1 + bytes.Count(text[:i], []byte("\n")); p.Line != want {
				t.Errorf("passage %d: line %d, want %d", k, p.Line, want)
			}
			if op.end-op.start <= MaxPassage {
				if p.Clipped || p.Start != op.start || p.End != op.end {
					t.Fatalf("passage %d = [%d,%d) clipped %v; want the whole paragraph [%d,%d)", k, p.Start, p.End, p.Clipped, op.start, op.end)
				}
				continue
			}
			if !p.Clipped || p.End-p.Start > MaxPassage || p.Start < op.start || p.End > op.end {
				t.Fatalf("passage %d = [%d,%d) clipped %v; want at most %d bytes of [%d,%d)", k, p.Start, p.End, p.Clipped, MaxPassage, op.start, op.end)
			}
			if !utf8.Valid(text[p.Start:p.End]) {
				t.Fatalf("passage %d is cut inside a rune", k)
			}
			if i < p.Start || i >= p.End || (end-i <= MaxPassage-2*utf8.UTFMax && end > p.End) {
				t.Fatalf("passage %d = [%d,%d) does not hold its match [%d,%d)", k, p.Start, p.End, i, end)
			}
		}
		// The limit: the first MaxMatches, and more when there are others.
		some, more := findPassages(text, false, q, MaxMatches)
		if n := min(len(all), MaxMatches); len(some) != n || more != (len(all) > MaxMatches) {
			t.Fatalf("with max %d: %d passages, more %v; want %d, %v", MaxMatches, len(some), more, n, len(all) > MaxMatches)
		}
		for k := range some {
			if some[k] != all[k] {
				t.Fatalf("with max %d, passage %d differs", MaxMatches, k)
			}
		}
	})
}
