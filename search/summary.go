package search

import (
	"bytes"
	"math/bits"
	"unicode"
	"unicode/utf8"
)

// A filter's size follows its note's text: filterBitsPerByte bits per
// byte of folded text, a power of two, at least minFilterBits and at most
// maxFilterBits (1 KiB). A note of 300 bytes gets 512 bits (64 bytes):
// about 40% of them set, so a query of ten distinct trigrams is let
// through by about one such note in 10,000 that does not hold it.
const (
	filterBitsPerByte = 1
	minFilterBits     = 512
	maxFilterBits     = 8192
)

// A filter summarises what a text can match: bit gramHash(t)>>shift is set
// for every run t of three bytes in the text's folded form (see
// appendFolded), where the filter has 1<<(32-shift) bits. A match of a
// query is, in folded form, the query's own folded form, so every trigram
// of the query is in the text's filter; a query one of whose trigrams is
// missing cannot match. The converse does not hold: a filter may let
// through a text that does not match, never stop one that does.
type filter []uint64

// newFilter returns the filter of folded, sized to it.
func newFilter(folded []byte) filter {
	n := minFilterBits
	for n < maxFilterBits && n < filterBitsPerByte*len(folded) {
		n *= 2
	}
	f := make(filter, n/64)
	shift := f.shift()
	for i := 0; i+2 < len(folded); i++ {
		b := gramHash(folded[i], folded[i+1], folded[i+2]) >> shift
		f[b/64] |= 1 << (b % 64)
	}
	return f
}

// shift is how far a trigram's hash is shifted to index f's bits.
func (f filter) shift() uint32 {
	return 32 - uint32(bits.Len(uint(len(f)*64))-1)
}

// mayHold reports whether the bit of every hash in hashes is set.
func (f filter) mayHold(hashes []uint32) bool {
	shift := f.shift()
	for _, h := range hashes {
		b := h >> shift
		if f[b/64]&(1<<(b%64)) == 0 {
			return false
		}
	}
	return true
}

// gramHash is the hash of a trigram: its top bits index a filter.
func gramHash(a, b, c byte) uint32 {
	return (uint32(a)<<16 | uint32(b)<<8 | uint32(c)) * 0x9E3779B1
}

// gramBits returns the hashes of the query's trigrams (see gramHash). They are taken
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
	var hashes []uint32
	for i := 0; i+2 < len(folded); i++ {
		hashes = append(hashes, gramHash(folded[i], folded[i+1], folded[i+2]))
	}
	return hashes
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
