package search

import (
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

// ErrBadQuery is wrapped by every query refusal.
var ErrBadQuery = errors.New("invalid query")

// Query is a parsed phrase: its words, each folded, to be matched in order
// with whitespace between them.
type Query struct {
	text  string   // the trimmed query, as given
	words [][]rune // each rune folded with fold
	first [256]bool
}

// String returns the trimmed query text.
func (q *Query) String() string { return q.text }

// ParseQuery checks raw and prepares it for matching. It refuses an empty or
// whitespace-only query, one longer than [MaxQueryLen] code points, and one
// containing NUL or any other control character.
func ParseQuery(raw string) (*Query, error) {
	if raw == "" {
		return nil, fmt.Errorf("%w: query is empty", ErrBadQuery)
	}
	if !utf8.ValidString(raw) {
		return nil, fmt.Errorf("%w: query is not valid UTF-8", ErrBadQuery)
	}
	if n := utf8.RuneCountInString(raw); n > MaxQueryLen {
		return nil, fmt.Errorf("%w: query is %d characters long; the limit is %d", ErrBadQuery, n, MaxQueryLen)
	}
	for _, r := range raw {
		if unicode.IsControl(r) {
			return nil, fmt.Errorf("%w: query contains control character %U; use plain text and spaces", ErrBadQuery, r)
		}
	}
	text := strings.TrimSpace(raw)
	fields := strings.Fields(text)
	if len(fields) == 0 {
		return nil, fmt.Errorf("%w: query is only whitespace", ErrBadQuery)
	}
	q := &Query{text: text}
	for _, f := range fields {
		w := make([]rune, 0, len(f))
		for _, r := range f {
			w = append(w, fold(r))
		}
		q.words = append(q.words, w)
	}
	// Every byte that can start a rune folding to the query's first rune.
	var buf [utf8.UTFMax]byte
	r0 := q.words[0][0]
	for r := r0; ; {
		utf8.EncodeRune(buf[:], r)
		q.first[buf[0]] = true
		if r = unicode.SimpleFold(r); r == r0 {
			break
		}
	}
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
