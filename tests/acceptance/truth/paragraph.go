package truth

import (
	"bytes"
	"unicode"
	"unicode/utf8"
)

// para is one paragraph of a note: data[start:end], starting on line
// line. forms are other texts as right as it (see Hit.Forms).
type para struct {
	start, end int
	line       int
	forms      []string
}

// bom is the UTF-8 byte-order mark: an encoding mark, not text, at the
// start of a note.
const bom = "\uFEFF"

// lineSpan is one line: data[start:end] without its line ending.
type lineSpan struct {
	start, end int
	blank      bool
	heading    bool
}

// lines splits data at LF, from offset from; a CR right before an LF is
// part of the line ending.
func lines(data []byte, from int) []lineSpan {
	var out []lineSpan
	for ls := from; ls < len(data); {
		le, next := len(data), len(data)
		if i := bytes.IndexByte(data[ls:], '\n'); i >= 0 {
			le, next = ls+i, ls+i+1
			if le > ls && data[le-1] == '\r' {
				le--
			}
		}
		text := data[ls:le]
		out = append(out, lineSpan{start: ls, end: le, blank: isBlank(text), heading: isHeading(text)})
		ls = next
	}
	return out
}

// isBlank reports whether a line holds only spaces, tabs and CRs.
func isBlank(line []byte) bool {
	return len(bytes.Trim(line, " \t\r")) == 0
}

// isHeading reports whether a line is an ATX heading: up to three spaces,
// one to six '#', then a space, a tab or the end of the line.
func isHeading(line []byte) bool {
	i := 0
	for i < 3 && i < len(line) && line[i] == ' ' {
		i++
	}
	n := 0
	for i+n < len(line) && line[i+n] == '#' {
		n++
	}
	i += n
	return n >= 1 && n <= 6 && (i == len(line) || line[i] == ' ' || line[i] == '\t')
}

// paragraphs splits a note into paragraphs: runs of non-blank lines, each
// heading line a paragraph of its own. A paragraph that a split at blank
// lines only would make longer (a heading touching text) has that longer
// run among its forms, and the first paragraph of a note that starts with a
// byte-order mark has its text with the mark among them.
func paragraphs(data []byte) []para {
	from := 0
	if bytes.HasPrefix(data, []byte(bom)) {
		from = len(bom)
	}
	ls := lines(data, from)
	var out []para
	lineNo := func(off int) int { return 1 + bytes.Count(data[:off], []byte{'\n'}) }
	for i := 0; i < len(ls); {
		if ls[i].blank {
			i++
			continue
		}
		// The run of non-blank lines [i, j): a paragraph when split at
		// blank lines only.
		j := i
		for j < len(ls) && !ls[j].blank {
			j++
		}
		run := string(data[ls[i].start:ls[j-1].end])
		for k := i; k < j; {
			m := k + 1
			if !ls[k].heading {
				for m < j && !ls[m].heading {
					m++
				}
			}
			p := para{start: ls[k].start, end: ls[m-1].end, line: lineNo(ls[k].start)}
			text := string(data[p.start:p.end])
			if run != text {
				p.forms = append(p.forms, run)
			}
			if from > 0 && ls[i].start == from {
				// A note's first paragraph, under a byte-order mark.
				if p.start == from {
					p.forms = append(p.forms, bom+text)
				}
				if run != text {
					p.forms = append(p.forms, bom+run)
				}
			}
			out = append(out, p)
			k = m
		}
		i = j
	}
	return out
}

// span is data[start:end] of a paragraph, offsets in the paragraph.
type span struct{ start, end int }

// partsWhenWhiteEnds returns the parts a paragraph falls into for a reader
// that takes a line of white space alone for blank, once with lines
// ending at LF and a lone CR (Python's text mode, CommonMark), once with
// lines ending also at a form feed, a vertical tab, U+0085, U+2028 and
// U+2029 (Python's str.splitlines, Unicode's line breaks): nil when
// neither reading splits it. The specification does not say what ends a
// paragraph, so each part is as right as the whole for a phrase it holds.
func partsWhenWhiteEnds(text []byte) []span {
	var out []span
	for _, wide := range []bool{false, true} {
		parts := whiteSplit(text, wide)
		if len(parts) < 2 {
			continue
		}
		for _, p := range parts {
			if !containsSpan(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

func containsSpan(ss []span, s span) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// whiteSplit splits text at lines of white space alone: maximal runs of
// other lines, each without its final line ending.
func whiteSplit(text []byte, wide bool) []span {
	var out []span
	cur := span{-1, -1}
	lineStart := 0
	flush := func(lineEnd, next int) {
		line := text[lineStart:lineEnd]
		if len(bytes.TrimFunc(line, unicode.IsSpace)) == 0 {
			if cur.start >= 0 {
				out = append(out, cur)
				cur = span{-1, -1}
			}
		} else {
			if cur.start < 0 {
				cur.start = lineStart
			}
			cur.end = lineEnd
		}
		lineStart = next
	}
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRune(text[i:])
		switch {
		case r == '\n':
			flush(i, i+1)
		case r == '\r' && i+1 < len(text) && text[i+1] == '\n':
			flush(i, i+2)
			i++
		case r == '\r':
			flush(i, i+1)
		case wide && (r == '\f' || r == '\v' || r == '\u0085' || r == '\u2028' || r == '\u2029'):
			flush(i, i+size)
		}
		i += size
	}
	flush(len(text), len(text))
	if cur.start >= 0 {
		out = append(out, cur)
	}
	return out
}
