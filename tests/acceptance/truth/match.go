package truth

import (
	"unicode"
	"unicode/utf8"
)

// unit is one rune of a paragraph as matching sees it: folded, or one rune
// of the full folding of a text rune.
type unit struct {
	r     rune // folded; the rune itself for white space; -1 for a byte that is not UTF-8
	space bool
	word  bool // a letter, digit or mark: a match next to one is inside a word
	start int  // byte offset, in the paragraph, of the text rune it comes from
	end   int  // byte offset right after that rune
}

// simpleFold maps r to the smallest rune of its simple case-folding orbit,
// so that two runes are equal under simple case folding exactly when their
// folds are equal.
func simpleFold(r rune) rune {
	if r < utf8.RuneSelf {
		// An ASCII letter's orbit holds its capital, the smallest rune
		// in it; other ASCII runes fold to themselves.
		if 'a' <= r && r <= 'z' {
			return r - 'a' + 'A'
		}
		return r
	}
	least := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		least = min(least, f)
	}
	return least
}

// fold returns the runes r folds to: one under simple folding, perhaps
// several under full folding.
func fold(r rune, full bool) []rune {
	if full {
		if s, ok := fullFolds[r]; ok {
			out := []rune(s)
			for i, f := range out {
				out[i] = simpleFold(f)
			}
			return out
		}
	}
	return []rune{simpleFold(r)}
}

// folds reports whether full folding turns a rune of text into several.
func folds(text []byte) bool {
	for i := 0; i < len(text); {
		if text[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(text[i:])
		if _, ok := fullFolds[r]; ok {
			return true
		}
		i += size
	}
	return false
}

func isWord(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) }

// units turns text into the units matching compares.
func units(text []byte, full bool) []unit {
	out := make([]unit, 0, len(text))
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRune(text[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			out = append(out, unit{r: -1, start: i, end: i + 1})
		case unicode.IsSpace(r):
			out = append(out, unit{r: r, space: true, start: i, end: i + size})
		default:
			word := isWord(r)
			if full {
				if s, ok := fullFolds[r]; ok {
					for _, f := range s {
						out = append(out, unit{r: simpleFold(f), word: word, start: i, end: i + size})
					}
					break
				}
			}
			out = append(out, unit{r: simpleFold(r), word: word, start: i, end: i + size})
		}
		i += size
	}
	return out
}

// phrase is a query's words, each folded.
type phrase [][]rune

func makePhrase(words []string, full bool) phrase {
	var p phrase
	for _, w := range words {
		var f []rune
		for _, r := range w {
			f = append(f, fold(r, full)...)
		}
		p = append(p, f)
	}
	return p
}

// occurrence is where a phrase is in a paragraph, and the room it needs.
type occurrence struct {
	start int // byte offset in the paragraph
	end   int // byte offset right after the match's last rune
	line  int // 1-based line in the note, set by Ask
	room  Room
}

// find returns every occurrence of p in us: the words in order, runes
// equal, a non-empty run of white space between every two words.
func (p phrase) find(us []unit) []occurrence {
	var out []occurrence
	for i := range us {
		if end, room, ok := p.matchAt(us, i); ok {
			if i > 0 && us[i-1].word && isWord(p[0][0]) {
				room |= RoomInWord
			}
			last := p[len(p)-1]
			if end < len(us) && us[end].word && isWord(last[len(last)-1]) {
				room |= RoomInWord
			}
			out = append(out, occurrence{start: us[i].start, end: us[end-1].end, room: room})
		}
	}
	return out
}

// matchAt matches p at unit i, and returns the unit after the match.
func (p phrase) matchAt(us []unit, i int) (end int, room Room, ok bool) {
	j := i
	for wi, w := range p {
		if wi > 0 {
			k, breaks, wide := j, 0, false
			for k < len(us) && us[k].space {
				if us[k].r >= utf8.RuneSelf {
					room |= RoomSpace
					wide = true
				}
				if us[k].r == '\n' {
					breaks++
				}
				k++
			}
			if k == j {
				return 0, 0, false
			}
			if !wide && (k != j+1 || us[j].r != ' ') {
				// A line break, a tab or several spaces: a server that
				// matches the query as written does not find it.
				room |= RoomWrap
			}
			if breaks > 1 {
				// Across a line of white space some readers take for blank.
				room |= RoomWhiteLine
			}
			j = k
		}
		for _, want := range w {
			if j >= len(us) || us[j].space || us[j].r != want {
				return 0, 0, false
			}
			j++
		}
	}
	return j, room, true
}
