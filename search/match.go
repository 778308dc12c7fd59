package search

import (
	"bytes"
	"unicode"
	"unicode/utf8"
)

// MaxPassage is the longest passage returned, in bytes. A longer paragraph
// is cut to a window around the match.
const MaxPassage = 1000

// passage is one paragraph of a text that holds a match. Start and End are
// byte offsets into the text, so the passage is always text[Start:End].
type passage struct {
	Start, End int
	Line       int    // 1-based line where the (first) match starts
	NoteID     string // see noteID; "" when there is none
	Clipped    bool   // the paragraph was longer than MaxPassage
}

// findPassages returns the first max passages of text that contain q, in order, and
// whether more passages matched. A paragraph is a maximal run of non-blank
// lines, and a Markdown heading line is a paragraph of its own; each
// paragraph yields at most one passage however many matches it holds, and a
// match never extends beyond its paragraph.
//
// Candidates are found by the query's anchor rune (see Query.chooseAnchor):
// every byte that can start a rune folding to it is looked for with
// [bytes.IndexByte], or, on amd64 with AVX2, the anchor and the rune after
// it are looked for together when both fold within ASCII (see choosePair
// and indexPair). From an anchor, the runes and gaps before it are
// matched backwards, which gives the only position a match through that
// anchor can start at; the whole match is then checked forwards from there,
// exactly as if every position had been tried. Matches are met in the order
// of their starts, since two matches cannot hold one another's anchor (each
// match holds the same number of non-space runes). findPassages does not allocate
// unless it returns passages.
//
// A UTF-8 byte-order mark at the start of text is not text: the note is
// searched from the byte after it, so a heading or front matter right after
// it is one, and the offsets returned still index text itself.
func findPassages(text []byte, q *Query, max int) (passages []passage, more bool) {
	if !bytes.HasPrefix(text, bom) {
		return find(text, q, max)
	}
	passages, more = find(text[len(bom):], q, max)
	for i := range passages {
		passages[i].Start += len(bom)
		passages[i].End += len(bom)
	}
	return passages, more
}

// bom is the UTF-8 encoding of U+FEFF, the byte-order mark.
var bom = []byte("\uFEFF")

func find(text []byte, q *Query, max int) (passages []passage, more bool) {
	var (
		lines lineCounter
		ids   idScanner
		c     = newCursor(q.lead)
		from  int // no match may start before from
	)
	for a := q.candidate(&c, text, 0); a >= 0; a = q.candidate(&c, text, a+1) {
		if !q.plausible(text, a) {
			continue
		}
		i, ok := q.startFor(text, a)
		if !ok || i < from {
			continue
		}
		end, ok := q.matchAt(text, i)
		if !ok {
			continue
		}
		ps, pe := paragraph(text, i)
		if end > pe {
			continue // the match runs into the next paragraph
		}
		if len(passages) == max {
			return passages, true
		}
		p := passage{Start: ps, End: pe, Line: lines.at(text, i), NoteID: ids.at(text, ps)}
		if pe-ps > MaxPassage {
			p.Start, p.End = window(text, ps, pe, i, end)
			p.Clipped = true
		}
		passages = append(passages, p)
		from = pe + 1 // one passage per paragraph
		if a < pe {
			a = pe
		}
	}
	return passages, false
}

// candidate returns the first offset at or after from where the anchor may
// be: by the vector pair scan when the query has a pair, else by c.
func (q *Query) candidate(c *cursor, text []byte, from int) int {
	if !q.pair {
		return c.next(text, from)
	}
	if from >= len(text) {
		return -1
	}
	j := indexPair(text[from:], q.pc0, q.pm0, q.pc1, q.pm1)
	if j < 0 {
		return -1
	}
	return from + j
}

// cursor finds, in increasing order, the offsets of a text that hold one of
// up to four bytes, remembering for each byte where it occurs next so that no
// byte of the text is scanned twice for the same value.
type cursor struct {
	n    int
	b    [4]byte
	at   [4]int // next offset of b[k] at or after from[k], or -1
	from [4]int // where next[k] was searched from
}

func newCursor(lead []byte) cursor {
	var c cursor
	c.n = copy(c.b[:], lead)
	for k := range c.n {
		c.from[k] = -1
	}
	return c
}

// next returns the smallest offset at or after from whose byte is one of the
// cursor's, or -1. Calls must not decrease from.
func (c *cursor) next(text []byte, from int) int {
	best := -1
	for k := 0; k < c.n; k++ {
		if c.from[k] < 0 || (c.at[k] >= 0 && c.at[k] < from) {
			c.from[k] = from
			c.at[k] = -1
			if from < len(text) {
				if j := bytes.IndexByte(text[from:], c.b[k]); j >= 0 {
					c.at[k] = from + j
				}
			}
		}
		if n := c.at[k]; n >= 0 && (best < 0 || n < best) {
			best = n
		}
	}
	return best
}

// plausible is a quick test of the bytes on either side of an ASCII anchor
// at offset a: false means no match can hold this anchor.
func (q *Query) plausible(text []byte, a int) bool {
	if text[a] >= utf8.RuneSelf {
		return true
	}
	if q.needBefore && (a == 0 || !q.before[text[a-1]]) {
		return false
	}
	if !q.needAfter {
		return true
	}
	return a+1 < len(text) && q.after[text[a+1]]
}

// startFor returns where a match whose anchor rune starts at offset a would
// have to start: the runes before the anchor are matched backwards, and each
// gap backwards over white space. It reports false when they
// do not match; a true answer is still to be checked with matchAt.
func (q *Query) startFor(text []byte, a int) (int, bool) {
	j := a
	for w, r := q.anchorWord, q.anchorRune; ; {
		word := q.words[w]
		for ri := r - 1; ri >= 0; ri-- {
			if j == 0 {
				return 0, false
			}
			c, size := rune(text[j-1]), 1
			if c >= utf8.RuneSelf {
				c, size = utf8.DecodeLastRune(text[:j])
			}
			if fold(c) != word[ri] {
				return 0, false
			}
			j -= size
		}
		if w == 0 {
			return j, true
		}
		k := j
		for k > 0 {
			if c := text[k-1]; c < utf8.RuneSelf {
				if !asciiSpace[c] {
					break
				}
				k--
				continue
			}
			r, size := utf8.DecodeLastRune(text[:k])
			if !unicode.IsSpace(r) {
				break
			}
			k -= size
		}
		if k == j {
			return 0, false
		}
		j = k
		w--
		r = len(q.words[w])
	}
}

// asciiSpace holds the ASCII white space bytes: space, \t, \n, \v, \f, \r.
var asciiSpace = [utf8.RuneSelf]bool{' ': true, '\t': true, '\n': true, '\v': true, '\f': true, '\r': true}

// matchAt reports whether q matches text starting at offset i, and where the
// match ends. Runes compare under simple case folding; each gap between the
// query's words matches a run of Unicode white space (unicode.IsSpace: also
// NBSP, U+3000, U+2028 and the like) holding at most one "\n".
func (q *Query) matchAt(text []byte, i int) (end int, ok bool) {
	j := i
	for wi, w := range q.words {
		if wi > 0 {
			k, breaks := j, 0
			for k < len(text) {
				if c := text[k]; c < utf8.RuneSelf {
					if !asciiSpace[c] {
						break
					}
					if c == '\n' {
						breaks++
					}
					k++
					continue
				}
				r, size := utf8.DecodeRune(text[k:])
				if !unicode.IsSpace(r) {
					break
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
			r, size := rune(text[j]), 1
			if r >= utf8.RuneSelf {
				r, size = utf8.DecodeRune(text[j:])
			}
			if fold(r) != want {
				return 0, false
			}
			j += size
		}
	}
	return j, true
}

// paragraph returns the bounds of the paragraph holding offset i, without
// its final line break.
func paragraph(text []byte, i int) (start, end int) {
	ls := lineStart(text, i)
	start, end = ls, lineEnd(text, ls)
	if isHeading(text[start:end]) {
		return start, end
	}
	for start > 0 {
		prev := lineStart(text, start-1)
		line := text[prev:lineEnd(text, prev)]
		if isBlank(line) || isHeading(line) {
			break
		}
		start = prev
	}
	for end < len(text) {
		next := end + 1
		if text[end] == '\r' {
			next++ // lineEnd stopped before "\r\n"
		}
		if next > len(text) {
			break
		}
		ne := lineEnd(text, next)
		line := text[next:ne]
		if next == len(text) || isBlank(line) || isHeading(line) {
			break
		}
		end = ne
	}
	return start, end
}

// lineStart returns the offset of the start of the line holding offset i.
func lineStart(text []byte, i int) int {
	return bytes.LastIndexByte(text[:i], '\n') + 1
}

// lineEnd returns the offset of the end of the line starting at ls, before
// its "\n" or "\r\n".
func lineEnd(text []byte, ls int) int {
	e := bytes.IndexByte(text[ls:], '\n')
	if e < 0 {
		return len(text)
	}
	e += ls
	if e > ls && text[e-1] == '\r' {
		e--
	}
	return e
}

func isBlank(line []byte) bool {
	for _, c := range line {
		if c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}

// isHeading reports whether line is a Markdown ATX heading: up to three
// spaces, one to six '#', then a space, a tab or the end of the line.
func isHeading(line []byte) bool {
	_, ok := headingText(line)
	return ok
}

func headingText(line []byte) ([]byte, bool) {
	i := 0
	for i < 3 && i < len(line) && line[i] == ' ' {
		i++
	}
	n := 0
	for i < len(line) && line[i] == '#' {
		i++
		n++
	}
	if n == 0 || n > 6 {
		return nil, false
	}
	if i < len(line) && line[i] != ' ' && line[i] != '\t' {
		return nil, false
	}
	return bytes.TrimLeft(line[i:], " \t"), true
}

// window cuts a paragraph [ps, pe) longer than MaxPassage down to at most
// MaxPassage bytes around the match [ms, me), on UTF-8 boundaries. A match
// longer than the window keeps its start.
func window(text []byte, ps, pe, ms, me int) (start, end int) {
	room := max(0, MaxPassage-(me-ms))
	start = max(ps, ms-room/2)
	end = min(pe, start+MaxPassage)
	start = max(ps, end-MaxPassage)
	for !utf8.RuneStart(text[start]) {
		start++ // never past ms, which starts a rune
	}
	for end < len(text) && !utf8.RuneStart(text[end]) {
		end--
	}
	return start, end
}

// lineCounter turns increasing offsets into 1-based line numbers, counting
// each line break once.
type lineCounter struct{ off, line int }

func (c *lineCounter) at(text []byte, i int) int {
	if c.line == 0 {
		c.line = 1
	}
	c.line += bytes.Count(text[c.off:i], []byte{'\n'})
	c.off = i
	return c.line
}
