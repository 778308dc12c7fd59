package class

import (
	"fmt"
	"regexp"
	"strings"

	"practice-notes/tests/acceptance/visible"
)

// Everything a learner controls (folder names, server.cmd, COMPLETION.md,
// and whatever the learner's server replied or wrote on stderr, which
// reaches the evidence) is hostile text. Each output has its own escaper
// here, so that no such text becomes a spreadsheet formula, live Markdown
// or HTML, or a terminal escape sequence.

// term is text for one terminal line: every control (tab and newline
// included) and bidi character escaped.
func term(s string) string { return visible.Escape(s, "") }

// csvCell is a cell of summary.csv. A spreadsheet reads a cell that starts
// with =, +, -, @, a tab or a carriage return as a formula (OWASP's CSV
// injection), so such a cell gets a leading apostrophe; controls are
// escaped.
func csvCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		s = "'" + s
	}
	return visible.Escape(s, "")
}

// htmlText is text for the page, which html/template then escapes:
// controls other than tab and newline (which XML forbids) and bidi
// overrides are shown as escapes.
func htmlText(s string) string { return visible.Escape(s, "\t\n") }

// mdInline is text for the middle of a Markdown line, a heading or a
// link's text: every character that Markdown or HTML could read as markup
// there (emphasis, code, links, raw HTML, entities, table cells,
// strikethrough) is backslash-escaped, and so is what would start an
// autolink (the ":" of "://", the "." of "www.", every "@"). Controls and
// line breaks are shown as escapes. It is for the middle of a line; text
// that opens a line or list item goes through mdItem.
func mdInline(s string) string {
	s = visible.Escape(s, "")
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
	text = strings.TrimRight(visible.Escape(text, "\t\n"), "\n")
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
	raw := func(r rune) bool { return r >= 0x20 && visible.NeedsEscape(r) }
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
