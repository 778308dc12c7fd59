package search

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxQueryLen is the longest query accepted, in Unicode code points, counted
// as sent (before surrounding whitespace is trimmed), the way JSON Schema's
// maxLength counts.
const MaxQueryLen = 200

// errBadQuery is wrapped by every query refusal.
var errBadQuery = errors.New("invalid query")

// Query is a parsed phrase: its words, each folded, to be matched in order
// with whitespace between them.
type Query struct {
	text  string   // the trimmed query, as given
	words [][]rune // each rune folded with fold

	// The anchor is the query rune that candidate matches are looked for
	// by: the one whose possible first bytes are rarest in ordinary text.
	// Every byte that can start a rune folding to it is in lead; see
	// findPassages for how a match is recovered from where its anchor is.
	anchorWord, anchorRune int
	lead                   []byte
	// before and after hold every byte that can come right before and
	// right after an ASCII anchor in a match (the last bytes of the
	// previous rune's orbit, the first bytes of the next one's, or the
	// bytes of a gap); needBefore and needAfter say whether anything must.
	before, after         [256]bool
	needBefore, needAfter bool
	// pair is set when candidates are found with the vector pair scan: the
	// anchor and the rune after it in its word both have orbits of ASCII
	// letters or of one ASCII byte, and a candidate is an offset i with
	// text[i]|pm0 == pc0 and text[i+1]|pm1 == pc1.
	pair               bool
	pc0, pm0, pc1, pm1 byte
	// tokens and failure are for findLinear (see prepareLinear);
	// beforeAnchor is how many runes and gaps of the query come before
	// the anchor, the most startFor compares.
	tokens       []rune
	failure      []int
	asciiTokens  [utf8.RuneSelf]bool // the ASCII runes among tokens
	otherTokens  []rune              // the other tokens, each once
	beforeAnchor int
}

// pairScan says whether ParseQuery may choose the vector pair scan; tests
// turn it off to check the other path on the same machine.
var pairScan = hasPairScan

// String returns the trimmed query text.
func (q *Query) String() string { return q.text }

// ParseQuery checks raw and prepares it for matching. It refuses an empty or
// whitespace-only query, one longer than [MaxQueryLen] code points, and one
// containing NUL or any other control character.
func ParseQuery(raw string) (*Query, error) {
	if raw == "" {
		return nil, fmt.Errorf("%w: query is empty", errBadQuery)
	}
	if !utf8.ValidString(raw) {
		return nil, fmt.Errorf("%w: query is not valid UTF-8", errBadQuery)
	}
	if n := utf8.RuneCountInString(raw); n > MaxQueryLen {
		return nil, fmt.Errorf("%w: query is %d characters long; the limit is %d", errBadQuery, n, MaxQueryLen)
	}
	for _, r := range raw {
		if unicode.IsControl(r) {
			return nil, fmt.Errorf("%w: query contains control character %U; use plain text and spaces", errBadQuery, r)
		}
	}
	text := strings.TrimSpace(raw)
	fields := strings.Fields(text)
	if len(fields) == 0 {
		return nil, fmt.Errorf("%w: query is only whitespace", errBadQuery)
	}
	q := &Query{text: text}
	for _, f := range fields {
		w := make([]rune, 0, len(f))
		for _, r := range f {
			w = append(w, fold(r))
		}
		q.words = append(q.words, w)
	}
	q.chooseAnchor()
	q.prepareLinear()
	return q, nil
}

// fold maps r to the smallest rune of its simple case-folding orbit, so two
// runes are equal under simple folding exactly when their folds are equal.
// 'K', 'k' and the Kelvin sign all fold to 'K'.
func fold(r rune) rune {
	if r < utf8.RuneSelf {
		// An ASCII letter's upper case is the smallest rune of its orbit,
		// even for k and s, whose orbits hold U+212A and U+017F.
		if 'a' <= r && r <= 'z' {
			r -= 'a' - 'A'
		}
		return r
	}
	min := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if f < min {
			min = f
		}
	}
	return min
}

// chooseAnchor picks the anchor rune: the one whose orbit's first bytes are
// least frequent in ordinary text, so that the fewest candidate positions
// have to be checked. A query holding U+FFFD anchors on its first rune:
// invalid UTF-8 decodes to U+FFFD one byte at a time, so only a forward
// match from the start is exact there.
func (q *Query) chooseAnchor() {
	best := -1.0
	for wi, w := range q.words {
		for ri, r := range w {
			if r == utf8.RuneError {
				q.anchorWord, q.anchorRune, q.lead = 0, 0, leadBytes(q.words[0][0])
				q.setNeighbours()
				return
			}
			lead, n := leadSet(r)
			cost := 0.0
			for _, b := range lead[:n] {
				cost += byteFrequency(b) + 0.2 // each lead byte costs a scan
			}
			if best < 0 || cost < best {
				best = cost
				q.anchorWord, q.anchorRune, q.lead = wi, ri, append([]byte(nil), lead[:n]...)
			}
		}
	}
	if pairScan {
		q.choosePair()
	}
	q.setNeighbours()
}

// choosePair anchors on the rarest pair of adjacent runes of one word that
// are both ASCII-only under folding, if there is one.
func (q *Query) choosePair() {
	best := -1.0
	for wi, w := range q.words {
		for ri := 0; ri+1 < len(w); ri++ {
			c0, m0, ok0 := asciiClass(w[ri])
			c1, m1, ok1 := asciiClass(w[ri+1])
			if !ok0 || !ok1 {
				continue
			}
			cost := classFrequency(c0, m0) * classFrequency(c1, m1)
			if best < 0 || cost < best {
				best = cost
				q.anchorWord, q.anchorRune, q.lead = wi, ri, leadBytes(w[ri])
				q.pair, q.pc0, q.pm0, q.pc1, q.pm1 = true, c0, m0, c1, m1
			}
		}
	}
}

// asciiClass describes the bytes that encode a rune of r's folding orbit
// when they are all ASCII: a byte b is one of them exactly when b|m == c.
// It fails for an orbit with a non-ASCII rune, such as k's (U+212A) or s's
// (U+017F).
func asciiClass(r rune) (c, m byte, ok bool) {
	or := orbit(r)
	o := or.runes()
	for _, f := range o {
		if f >= utf8.RuneSelf {
			return 0, 0, false
		}
	}
	switch {
	case len(o) == 1:
		return byte(r), 0, true
	case len(o) == 2 && o[0]|0x20 == o[1]|0x20 && 'a' <= o[0]|0x20 && o[0]|0x20 <= 'z':
		return byte(o[0] | 0x20), 0x20, true
	}
	return 0, 0, false
}

func classFrequency(c, m byte) float64 {
	if m == 0 {
		return byteFrequency(c)
	}
	return byteFrequency(c) + byteFrequency(c&^0x20)
}

// gapFirst and gapLast hold the first and the last bytes of the UTF-8
// encodings of every white space rune: the bytes that can come right after
// and right before a gap's neighbour. They are computed once and only read.
var gapFirst, gapLast = gapBytes()

func gapBytes() (first, last [256]bool) {
	var buf [utf8.UTFMax]byte
	for _, rng := range unicode.White_Space.R16 {
		for r := rune(rng.Lo); r <= rune(rng.Hi); r += rune(rng.Stride) {
			n := utf8.EncodeRune(buf[:], r)
			first[buf[0]], last[buf[n-1]] = true, true
		}
	}
	for _, rng := range unicode.White_Space.R32 {
		for r := rune(rng.Lo); r <= rune(rng.Hi); r += rune(rng.Stride) {
			n := utf8.EncodeRune(buf[:], r)
			first[buf[0]], last[buf[n-1]] = true, true
		}
	}
	return first, last
}

// setNeighbours fills before and after for the anchor.
func (q *Query) setNeighbours() {
	w, r := q.anchorWord, q.anchorRune
	var buf [utf8.UTFMax]byte
	switch {
	case r > 0:
		q.needBefore = true
		o := orbit(q.words[w][r-1])
		for _, f := range o.runes() {
			n := utf8.EncodeRune(buf[:], f)
			q.before[buf[n-1]] = true
		}
	case w > 0:
		q.needBefore = true
		q.before = gapLast
	}
	switch {
	case r+1 < len(q.words[w]) && q.words[w][r+1] == utf8.RuneError:
		// Any invalid byte decodes to U+FFFD: no test.
	case r+1 < len(q.words[w]):
		q.needAfter = true
		lead, n := leadSet(q.words[w][r+1])
		for _, b := range lead[:n] {
			q.after[b] = true
		}
	case w+1 < len(q.words):
		q.needAfter = true
		q.after = gapFirst
	}
}

// A foldOrbit holds the runes of a simple case-folding orbit, in place:
// no orbit has more than four (U+0345's), and a query's runes are looked
// at several times each while it is parsed.
type foldOrbit struct {
	r [4]rune
	n int
}

func (o *foldOrbit) runes() []rune { return o.r[:o.n] }

// orbit returns r's simple case-folding orbit, r first.
func orbit(r rune) foldOrbit {
	o := foldOrbit{n: 1}
	o.r[0] = r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		o.r[o.n] = f
		o.n++
	}
	return o
}

// leadBytes returns the distinct first bytes of the UTF-8 encodings of every
// rune in r's simple case-folding orbit. For 'k' that is 'K', 'k' and 0xE2
// (the Kelvin sign U+212A); for 's' it is 'S', 's' and 0xC5 (U+017F).
func leadBytes(r rune) []byte {
	lead, n := leadSet(r)
	return append([]byte(nil), lead[:n]...)
}

// leadSet is leadBytes in place: the bytes are lead[:n].
func leadSet(r rune) (lead [4]byte, n int) {
	var buf [utf8.UTFMax]byte
	o := orbit(r)
	for _, f := range o.runes() {
		utf8.EncodeRune(buf[:], f)
		if !bytes.Contains(lead[:n], buf[:1]) {
			lead[n] = buf[0]
			n++
		}
	}
	return lead, n
}

// byteFrequency is a rough percentage of how often byte b occurs in English
// prose written in Markdown. It only ranks candidate anchors; a poor guess
// costs speed, never correctness.
func byteFrequency(b byte) float64 {
	const lower = "etaoinshrdlcumwfgypbvkjxqz"
	lowerPct := [...]float64{10, 7.3, 6.5, 6, 5.6, 5.6, 5, 4.9, 4.8, 3.4, 3.2, 2.2, 2.2, 2, 1.9, 1.8, 1.6, 1.6, 1.5, 1.2, 0.8, 0.6, 0.12, 0.12, 0.08, 0.06}
	switch {
	case b == ' ':
		return 16
	case b == '\n':
		return 2
	case 'a' <= b && b <= 'z':
		return lowerPct[strings.IndexByte(lower, b)]
	case 'A' <= b && b <= 'Z':
		return 0.05 + lowerPct[strings.IndexByte(lower, b|0x20)]/20
	case '0' <= b && b <= '9':
		return 0.3
	case b == '.' || b == ',':
		return 1
	case b == 0xC3 || b == 0xE2: // Latin-1 letters; punctuation such as — and ’
		return 0.3
	case b >= 0x80:
		return 0.1
	case b < ' ':
		return 0.01
	}
	return 0.2
}
