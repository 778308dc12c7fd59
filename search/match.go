package search

import (
	"bytes"
	"slices"
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
// unless it returns passages, or the text is one where candidates are met
// nearly everywhere and each matches much of the query (combining marks
// against a query of them, one letter repeated): once checking them has
// cost a 32nd of the text's length, the rest of a valid text is searched
// by the query's rune rarest in it when that is much rarer than the
// anchor, or else in time linear in the text (findLinear), so no query
// costs more than a few passes over a note (BenchmarkFindWorstCase).
// valid says text is known to be valid UTF-8, as every note a read returns
// is (boundary checks it), which spares checking it again there.
//
// A UTF-8 byte-order mark at the start of text is not text: the note is
// searched from the byte after it, so a heading or front matter right after
// it is one, and the offsets returned still index text itself.
func findPassages(text []byte, valid bool, q *Query, max int) (passages []passage, more bool) {
	if !bytes.HasPrefix(text, bom) {
		return find(text, valid, q, max)
	}
	passages, more = find(text[len(bom):], valid, q, max)
	for i := range passages {
		passages[i].Start += len(bom)
		passages[i].End += len(bom)
	}
	return passages, more
}

// bom is the UTF-8 encoding of U+FEFF, the byte-order mark.
var bom = []byte("\uFEFF")

// verifyBase is the work find may spend checking candidates beyond a
// 32nd of the text's length before it looks for a rarer anchor or hands
// the rest of the text to findLinear; tests lower it to check findLinear
// everywhere.
var verifyBase = 1024

func find(text []byte, valid bool, q *Query, max int) (passages []passage, more bool) {
	var (
		lines lineCounter
		ids   idScanner
	)
	return q.findFrom(text, valid, 0, nil, max, &lines, &ids, false)
}

// findFrom is find for the matches starting at or after from, which
// passages does not hold yet; valid says text is known to be valid UTF-8. When checking candidates costs more than a
// 32nd of the text (see work), the rest of the text is searched by the
// query's rune that is rarest in it, when that is much rarer than the
// anchor (unless adapted says this is that search), or else by
// findLinear.
func (q *Query) findFrom(text []byte, valid bool, from int, passages []passage, max int, lines *lineCounter, ids *idScanner, adapted bool) ([]passage, bool) {
	c := newCursor(q.lead)
	// work bounds the bytes candidates are checked over: on a text where
	// nearly every position is a candidate that matches most of the query
	// (combining marks against a query of them, one letter repeated),
	// checking each would cost the query's length per byte.
	work := len(text)/32 + verifyBase
	for a := q.candidate(&c, text, from); a >= 0; a = q.candidate(&c, text, a+1) {
		if !q.plausible(text, a) {
			continue
		}
		if work < 0 && (valid || utf8.Valid(text)) {
			// Every match starting at or after from is yet to be met, in
			// order, whatever its anchor.
			if !adapted {
				if r := q.rarerAnchor(text[from:]); r != nil {
					return r.findFrom(text, true, from, passages, max, lines, ids, true)
				}
			}
			return q.findLinear(text, from, passages, max, lines, ids)
		}
		work -= q.beforeAnchor + 1
		i, ok := q.startFor(text, a)
		if !ok || i < from {
			continue
		}
		end, ok := q.matchAt(text, i)
		if !ok {
			// Ordinary text fails a candidate within a few bytes; what
			// goes beyond is what makes checking candidates costly.
			if end-i > 8 {
				work -= end - i - 8
			}
			continue
		}
		var full bool
		if passages, full, ok = takeMatch(text, i, end, passages, max, lines, ids); full {
			return passages, true
		}
		if !ok {
			work -= end - i // a match that runs into the next paragraph
		} else {
			_, pe := paragraph(text, i)
			from = pe + 1 // one passage per paragraph
			if a < pe {
				a = pe
			}
		}
	}
	return passages, false
}

// rarerAnchor returns a copy of q anchored on the rune of q whose lead
// bytes are rarest in text, when they are at most an eighth as frequent
// there as the anchor's, or nil. The pair scan is not used by the copy.
func (q *Query) rarerAnchor(text []byte) *Query {
	var (
		leads    [256]bool
		distinct []byte // the lead bytes of q's runes
	)
	for _, w := range q.words {
		for _, r := range w {
			if r == utf8.RuneError {
				return nil // anchored on its first rune (see chooseAnchor)
			}
			lead, n := leadSet(r)
			for _, b := range lead[:n] {
				if !leads[b] {
					leads[b] = true
					distinct = append(distinct, b)
				}
			}
		}
	}
	var freq [256]int
	if len(distinct) <= countApart {
		// A vector count of each is a fraction of one pass of the table.
		for _, b := range distinct {
			freq[b] = bytes.Count(text, []byte{b})
		}
	} else {
		// Four counts per byte value, so that runs of one byte do not
		// wait on one counter.
		var counts [4][256]int32
		i := 0
		for ; i+4 <= len(text); i += 4 {
			counts[0][text[i]]++
			counts[1][text[i+1]]++
			counts[2][text[i+2]]++
			counts[3][text[i+3]]++
		}
		for ; i < len(text); i++ {
			counts[0][text[i]]++
		}
		for b := range freq {
			freq[b] = int(counts[0][b]) + int(counts[1][b]) + int(counts[2][b]) + int(counts[3][b])
		}
	}
	count := func(r rune) int {
		lead, n := leadSet(r)
		sum := 0
		for _, b := range lead[:n] {
			sum += freq[b]
		}
		return sum
	}
	now := count(q.words[q.anchorWord][q.anchorRune])
	bestW, bestR, best := -1, -1, now
	for wi, w := range q.words {
		for ri, r := range w {
			if n := count(r); n < best {
				bestW, bestR, best = wi, ri, n
			}
		}
	}
	if bestW < 0 || best*8 > now {
		return nil
	}
	r := *q
	r.pair = false
	r.anchorWord, r.anchorRune, r.lead = bestW, bestR, leadBytes(q.words[bestW][bestR])
	r.before, r.after = [256]bool{}, [256]bool{}
	r.needBefore, r.needAfter = false, false
	r.setNeighbours()
	r.beforeAnchor = r.anchorRune
	for _, w := range r.words[:r.anchorWord] {
		r.beforeAnchor += len(w) + 1
	}
	return &r
}

// countApart is the most lead bytes rarerAnchor counts one at a time.
const countApart = 6

// takeMatch adds the passage of the match [i, end) to passages, unless the
// match runs into the next paragraph (ok is then false) or passages
// already holds max (full is then true).
func takeMatch(text []byte, i, end int, passages []passage, max int, lines *lineCounter, ids *idScanner) (_ []passage, full, ok bool) {
	ps, pe := paragraph(text, i)
	if end > pe {
		return passages, false, false
	}
	if len(passages) == max {
		return passages, true, false
	}
	p := passage{Start: ps, End: pe, Line: lines.at(text, i), NoteID: ids.at(text, ps)}
	if pe-ps > MaxPassage {
		p.Start, p.End = window(text, ps, pe, i, end)
		p.Clipped = true
	}
	return append(passages, p), false, true
}

// Tokens of findLinear besides folded runes: a run of white space holding
// at most one line break, which a gap of the query matches, and one
// holding more, which nothing matches.
const (
	gapToken      rune = -1
	blankGapToken rune = -2
)

// findLinear is find from offset from on, for valid UTF-8, in time linear
// in the text whatever the query: the text is read as a sequence of
// tokens, each a folded rune or a whole run of white space, and the query's
// tokens (its words' folded runes with a gapToken between words) are
// looked for with the Knuth-Morris-Pratt automaton. A match of the tokens
// is exactly a match matchAt accepts, since both take a gap as a whole run
// of white space; matches are met in the order of their starts, and each
// is taken as find takes it.
func (q *Query) findLinear(text []byte, from int, passages []passage, max int, lines *lineCounter, ids *idScanner) ([]passage, bool) {
	toks, fail := q.tokens, q.failure
	m := len(toks)
	starts := make([]int, m) // where the last m tokens started, by count mod m
	// Folds of the non-ASCII runes met, and whether the fold is one of
	// the query's tokens, direct-mapped: a text that makes this path worth
	// taking repeats a few runes.
	var cache [64]struct {
		r, f    rune
		isToken bool
	}
	for i := range cache {
		cache[i].r = -1
	}
	k, slot := 0, 0 // tokens of the query matched; where the next token's start goes in starts
	for j := from; j < len(text); {
		start := j
		var tok rune
		c := text[j]
		r, size := rune(c), 1
		switch {
		case c < utf8.RuneSelf:
		case c&0xE0 == 0xC0 && j+1 < len(text):
			// Two bytes, decoded in place: the text is valid UTF-8.
			r, size = rune(c&0x1F)<<6|rune(text[j+1]&0x3F), 2
		default:
			r, size = utf8.DecodeRune(text[j:])
		}
		known := false // tok is known to be one of the query's tokens
		switch {
		case c < utf8.RuneSelf && !asciiSpace[c]:
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			tok = rune(c)
			j++
		case c < utf8.RuneSelf || isSpace(r):
			breaks := 0
			for j < len(text) {
				if c := text[j]; c < utf8.RuneSelf {
					if !asciiSpace[c] {
						break
					}
					if c == '\n' {
						breaks++
					}
					j++
					continue
				}
				r, size := utf8.DecodeRune(text[j:])
				if !isSpace(r) {
					break
				}
				j += size
			}
			tok = gapToken
			if breaks > 1 {
				tok = blankGapToken
			}
		default:
			e := &cache[r%64]
			if e.r != r {
				e.r, e.f = r, fold(r)
				e.isToken = q.hasToken(e.f)
			}
			tok, known = e.f, true
			if !e.isToken {
				tok = blankGapToken // a token no query holds
			}
			j += size
		}
		starts[slot] = start
		if slot++; slot == m {
			slot = 0
		}
		if !known && !q.hasToken(tok) || tok == blankGapToken {
			k = 0 // no prefix of the query ends with it
			continue
		}
		for k > 0 && toks[k] != tok {
			k = fail[k-1]
		}
		if toks[k] == tok {
			k++
		}
		if k < m {
			continue
		}
		i := starts[slot] // the oldest of the last m starts
		var full, ok bool
		if passages, full, ok = takeMatch(text, i, j, passages, max, lines, ids); full {
			return passages, true
		}
		if ok {
			// One passage per paragraph: go on after it.
			_, pe := paragraph(text, i)
			j, k = pe+1, 0
			continue
		}
		k = fail[m-1]
	}
	return passages, false
}

// isSpace is unicode.IsSpace for a rune past ASCII, without a table
// search for the many runes below the first white space past Latin-1
// (U+1680).
func isSpace(r rune) bool {
	if r < 0x1680 {
		return r == 0x85 || r == 0xA0
	}
	return unicode.IsSpace(r)
}

// hasToken reports whether tok is one of the query's tokens.
func (q *Query) hasToken(tok rune) bool {
	if 0 <= tok && tok < utf8.RuneSelf {
		return q.asciiTokens[tok]
	}
	return slices.Contains(q.otherTokens, tok)
}

// prepareLinear sets the query's tokens for findLinear and their failure
// function: failure[i] is the length of the longest proper prefix of
// tokens[:i+1] that is also a suffix of it.
func (q *Query) prepareLinear() {
	for wi, w := range q.words {
		if wi > 0 {
			q.tokens = append(q.tokens, gapToken)
		}
		q.tokens = append(q.tokens, w...)
	}
	for _, tok := range q.tokens {
		if 0 <= tok && tok < utf8.RuneSelf {
			q.asciiTokens[tok] = true
		} else if !slices.Contains(q.otherTokens, tok) {
			q.otherTokens = append(q.otherTokens, tok)
		}
	}
	q.failure = make([]int, len(q.tokens))
	for i, k := 1, 0; i < len(q.tokens); i++ {
		for k > 0 && q.tokens[i] != q.tokens[k] {
			k = q.failure[k-1]
		}
		if q.tokens[i] == q.tokens[k] {
			k++
		}
		q.failure[i] = k
	}
	q.beforeAnchor = q.anchorRune
	for _, w := range q.words[:q.anchorWord] {
		q.beforeAnchor += len(w) + 1
	}
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
// match ends; when it does not match, end is where it found so. Runes compare under simple case folding; each gap between the
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
				return j, false
			}
			j = k
		}
		for _, want := range w {
			if j >= len(text) {
				return j, false
			}
			r, size := rune(text[j]), 1
			if r >= utf8.RuneSelf {
				r, size = utf8.DecodeRune(text[j:])
			}
			if fold(r) != want {
				return j, false
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
