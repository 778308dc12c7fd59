// Package visible shows hostile text as it is, never as what it would do:
// a learner's server, its replies, its stderr and the files a learner
// writes may hold terminal escape sequences, bidirectional overrides or
// invalid UTF-8, and every output of the harness passes them through
// Escape before a person reads them; Clip and Truncate bound what it
// quotes. It does not make text safe for a format with markup of its own
// (Markdown, HTML, CSV): those escape on top of it.
package visible

import (
	"fmt"
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

// Clip puts s on one line of at most n runes: every run of white space
// becomes one space, and a cut is marked with "…".
func Clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// Truncate bounds s to at most n bytes, cut at a rune boundary, and says
// how many bytes were cut.
func Truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && (s[cut]&0xC0) == 0x80 {
		cut--
	}
	return s[:cut] + fmt.Sprintf("… [%d more bytes]", len(s)-cut)
}
