// Package visible shows hostile text as it is, never as what it would do:
// a learner's server, its replies, its stderr and the files a learner
// writes may hold terminal escape sequences, bidirectional overrides or
// invalid UTF-8, and every output of the harness passes them through
// Escape before a person reads them. It does not make text safe for a
// format with markup of its own (Markdown, HTML, CSV): those escape on top
// of it.
package visible

import (
	"strconv"
	"strings"
	"unicode"
)

// NeedsEscape reports whether r must not reach a reader as it is: a C0 or
// C1 control or DEL, a bidirectional formatting character (which can
// reorder what is shown, as in "Trojan Source"), or a non-character.
func NeedsEscape(r rune) bool {
	switch {
	case unicode.Is(unicode.Cc, r):
		return true
	case r == '\u061c', r == '\u200e', r == '\u200f',
		r >= '\u202a' && r <= '\u202e', r >= '\u2066' && r <= '\u2069':
		return true
	case r == '\uFFFE', r == '\uFFFF':
		return true
	}
	return false
}

// Escape writes every character that NeedsEscape, other than those in
// keep, as a Go escape such as \x1b or \u202e; invalid UTF-8 becomes
// U+FFFD.
func Escape(s, keep string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	esc := func(r rune) bool { return NeedsEscape(r) && !strings.ContainsRune(keep, r) }
	if !strings.ContainsFunc(s, esc) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if esc(r) {
			q := strconv.QuoteRune(r) // '\x1b', '\r', '\u009b', '\u202e'
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
