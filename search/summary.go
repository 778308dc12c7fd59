package search

import (
	"bytes"
	"unicode"
	"unicode/utf8"
)

// filterBits is the size of one note's summary: 1 KiB.
const filterBits = 8192

// A filter summarises what a text can match: bit gramBit(t) is set for
// every run t of three bytes in the text's folded form (see appendFolded).
// A match of a query is, in folded form, the query's own folded form, so
// every trigram of the query is in the text's filter; a query one of
// whose trigrams is missing cannot match. The converse does not hold: a
// filter may let through a text that does not match, never stop one that
// does.
type filter [filterBits / 64]uint64

// add sets the bits of every trigram of folded.
func (f *filter) add(folded []byte) {
	for i := 0; i+2 < len(folded); i++ {
		b := gramBit(folded[i], folded[i+1], folded[i+2])
		f[b/64] |= 1 << (b % 64)
	}
}

// mayHold reports whether every bit in bits is set.
func (f *filter) mayHold(bits []uint32) bool {
	for _, b := range bits {
		if f[b/64]&(1<<(b%64)) == 0 {
			return false
		}
	}
	return true
}

func gramBit(a, b, c byte) uint32 {
	return (uint32(a)<<16 | uint32(b)<<8 | uint32(c)) * 0x9E3779B1 >> (32 - 13)
}

// gramBits returns the filter bits of the query's trigrams. They are taken
// from the query's words as the matcher folds them, joined by single
// spaces: the folded form every match of the query has (see appendFolded).
// A query whose folded form is shorter than three bytes has none, and
// every filter may hold it.
func (q *Query) gramBits() []uint32 {
	var folded []byte
	for i, w := range q.words {
		if i > 0 {
			folded = append(folded, ' ')
		}
		for _, r := range w {
			folded = utf8.AppendRune(folded, r)
		}
	}
	var bits []uint32
	for i := 0; i+2 < len(folded); i++ {
		bits = append(bits, gramBit(folded[i], folded[i+1], folded[i+2]))
	}
	return bits
}

// appendFolded appends to dst the folded form of text, valid UTF-8: text
// as the matcher sees it, with a leading byte-order mark left out, every
// rune replaced by its fold (see fold), and every run of white space
// (unicode.IsSpace) replaced by one ' '. The matcher compares runes by
// their folds, and each gap of a match is a whole run of white space
// between two runes that are not, so a match in text is, in folded form,
// the folded query: its words' folds joined by single spaces. Line breaks
// are not told apart from other white space; the matcher's rule of at most
// one per gap only ever rules matches out.
func appendFolded(dst, text []byte) []byte {
	text = bytes.TrimPrefix(text, bom)
	space := false
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			i++
			if asciiSpace[c] {
				if !space {
					dst = append(dst, ' ')
					space = true
				}
				continue
			}
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			dst = append(dst, c)
			space = false
			continue
		}
		r, size := utf8.DecodeRune(text[i:])
		i += size
		if unicode.IsSpace(r) {
			if !space {
				dst = append(dst, ' ')
				space = true
			}
			continue
		}
		dst = utf8.AppendRune(dst, fold(r))
		space = false
	}
	return dst
}
