package class

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// Everything a learner controls (folder names, server.cmd, COMPLETION.md,
// and whatever the learner's server replied or wrote on stderr, which
// reaches the evidence) is hostile text. Each output has its own escaper
// here, so that no such text becomes a spreadsheet formula, live Markdown
// or HTML, or a terminal escape sequence.

// needsEscape reports whether r must not reach a reader as it is: a C0 or
// C1 control or DEL, a bidirectional formatting character (which can
// reorder what is shown, as in "Trojan Source"), or a non-character.
func needsEscape(r rune) bool {
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

// visible writes every character that needsEscape, other than those in
// keep, as a Go escape such as \x1b or \u202e; invalid UTF-8 becomes
// U+FFFD.
func visible(s, keep string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	esc := func(r rune) bool { return needsEscape(r) && !strings.ContainsRune(keep, r) }
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

// term is text for one terminal line: every control (tab and newline
// included) and bidi character escaped.
func term(s string) string { return visible(s, "") }

// csvCell is a cell of summary.csv. A spreadsheet reads a cell that starts
// with =, +, -, @, a tab or a carriage return as a formula (OWASP's CSV
// injection), so such a cell gets a leading apostrophe; controls are
// escaped.
func csvCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		s = "'" + s
	}
	return visible(s, "")
}

// htmlText is text for the page, which html/template then escapes:
// controls other than tab and newline (which XML forbids) and bidi
// overrides are shown as escapes.
func htmlText(s string) string { return visible(s, "\t\n") }

// mdInline is text for the middle of a Markdown line, a heading or a
// link's text: every character that Markdown or HTML could read as markup
// there (emphasis, code, links, raw HTML, entities, table cells,
// strikethrough) is backslash-escaped, and so is what would start an
// autolink (the ":" of "://", the "." of "www.", every "@"). Controls and
// line breaks are shown as escapes. It is for the middle of a line; text
// that opens a line or list item goes through mdItem.
func mdInline(s string) string {
	s = visible(s, "")
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case strings.IndexByte("\\`*_[]()<>|~&@", c) >= 0,
			c == ':' && strings.HasPrefix(s[i+1:], "//"),
			c == '.' && i >= 3 && strings.EqualFold(s[i-3:i], "www"):
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}

var leadNumberRe = regexp.MustCompile(`^[0-9]{1,9}[.)]`)

// mdItem is mdInline for text that opens a line or a list item, where a
// leading "#", "+", "-" or "=", or a number and "." or ")", would start a
// heading or a list.
func mdItem(s string) string {
	s = mdInline(s)
	if s != "" && strings.IndexByte("#+-=", s[0]) >= 0 {
		return "\\" + s
	}
	if m := leadNumberRe.FindString(s); m != "" {
		return m[:len(m)-1] + "\\" + s[len(m)-1:]
	}
	return s
}

// mdFence puts text in a fenced code block that nothing inside can close:
// its fence of backticks is longer than any run of backticks in the text
// (and at least four), and a tilde line cannot close a backtick fence.
// Controls other than tab and newline are shown as escapes.
func mdFence(text string) string {
	text = strings.TrimRight(visible(text, "\t\n"), "\n")
	n, run := 4, 0
	for _, r := range text {
		if r == '`' {
			run++
			if run >= n {
				n = run + 1
			}
			continue
		}
		run = 0
	}
	f := strings.Repeat("`", n)
	return f + "text\n" + text + "\n" + f + "\n"
}

// jsonText rewrites, as \u escapes, the characters that encoding/json
// leaves raw but a terminal would act on when the file is printed (DEL, C1
// controls, bidi formatting). They occur only inside strings, so the
// document means the same.
func jsonText(b []byte) []byte {
	raw := func(r rune) bool { return r >= 0x20 && needsEscape(r) }
	s := string(b)
	if !strings.ContainsFunc(s, raw) {
		return b
	}
	var out strings.Builder
	for _, r := range s {
		if raw(r) {
			fmt.Fprintf(&out, `\u%04x`, r)
			continue
		}
		out.WriteRune(r)
	}
	return []byte(out.String())
}
