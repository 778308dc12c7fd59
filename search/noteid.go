package search

import (
	"bytes"
	"unicode"
	"unicode/utf8"
)

// The note ID rule (stated in the package doc and in docs/protocol.md, whose
// examples TestNoteIDRuleInDocs runs):
//
// The ID of a passage is that of the nearest heading at or above it whose
// text starts with an ID token. A token is one or more ASCII capital
// letters, an optional '-', and one or more ASCII digits, followed by the
// end of the heading or by a character that is not a letter, mark or digit
// of any script (Unicode categories L, M and N). A heading is an ATX
// heading line outside front matter and outside fenced code blocks.
// Without such a heading, the ID is the "id:" of a YAML front matter block
// at the top of the note; without either, there is none.

// idScanner tracks the note ID in force at increasing offsets.
type idScanner struct {
	started bool
	off     int    // the first line not yet scanned
	id      string // the ID in force at off, as last returned
	tok     []byte // the ID token of the last ID heading, not yet in id
	fence   fence  // the fenced code block open at off, if any
	marks   marks  // finds the next '#', '`' or '~'
}

func (s *idScanner) at(text []byte, ps int) string {
	if !s.started {
		s.started = true
		s.id, s.off = frontMatter(text)
		s.marks = newMarks()
	}
	// Scan up to and including the passage's own first line. Only a line
	// with a '#', '`' or '~' among its first four bytes can be a heading or
	// a fence, so the scan jumps from one such byte to the next, and looks
	// no further than ps+3, the last byte of that kind on a line starting
	// at or before ps.
	limit := min(len(text), ps+4)
	for s.off <= ps && s.off < len(text) {
		h := s.marks.next(text, s.off, limit)
		if h < 0 {
			// No line from here to ps's own is a heading or a fence.
			s.off = len(text)
			if nl := bytes.IndexByte(text[ps:], '\n'); nl >= 0 {
				s.off = ps + nl + 1
			}
			break
		}
		ls := max(lineStart(text, h), s.off)
		if ls > ps {
			s.off = ls // the lines before hold no mark
			break
		}
		le := lineEnd(text, ls)
		if h-ls <= 3 {
			s.line(text[ls:le])
		}
		nl := bytes.IndexByte(text[le:], '\n')
		if nl < 0 {
			s.off = len(text)
			break
		}
		s.off = le + nl + 1
	}
	if s.tok != nil {
		if s.id != string(s.tok) {
			s.id = string(s.tok)
		}
		s.tok = nil
	}
	return s.id
}

// marks finds, in increasing order, the offsets of the bytes that can
// start a heading or a fence ('#', '`', '~'), searching the text for each
// only as far as it is asked to, and never twice.
type marks struct {
	at   [3]int // the first offset of the byte at or after the last from, below upto; -1 if none
	upto [3]int // how far the text was searched for the byte
}

var markBytes = [3]byte{'#', '`', '~'}

func newMarks() marks { return marks{at: [3]int{-1, -1, -1}} }

// next returns the smallest offset in [from, limit) holding a mark, or -1.
// Calls must not decrease from or limit.
func (m *marks) next(text []byte, from, limit int) int {
	best := -1
	for k, b := range markBytes {
		switch {
		case m.at[k] >= 0 && m.at[k] < from:
			m.at[k], m.upto[k] = -1, from // search again from here
		case m.upto[k] < from:
			m.upto[k] = from
		}
		if m.at[k] < 0 && m.upto[k] < limit {
			if j := bytes.IndexByte(text[m.upto[k]:limit], b); j >= 0 {
				m.at[k] = m.upto[k] + j
			}
			m.upto[k] = limit
		}
		if a := m.at[k]; a >= 0 && (best < 0 || a < best) {
			best = a
		}
	}
	return best
}

// line takes in one line of the note.
func (s *idScanner) line(line []byte) {
	if s.fence.open() {
		if s.fence.closedBy(line) {
			s.fence = fence{}
		}
		return
	}
	if f, ok := openingFence(line); ok {
		s.fence = f
		return
	}
	if h, ok := headingText(line); ok {
		if tok := idToken(h); tok != nil {
			s.tok = tok
		}
	}
}

// fence is the opening line of a fenced code block: up to three spaces of
// indentation, then three or more backticks or tildes (CommonMark).
type fence struct {
	c byte // '`' or '~'; 0 when no block is open
	n int  // how many
}

func (f fence) open() bool { return f.c != 0 }

// openingFence reports whether line opens a fenced code block. After
// backticks the rest of the line may not hold a backtick.
func openingFence(line []byte) (fence, bool) {
	i := indent(line)
	if i > 3 || i >= len(line) || (line[i] != '`' && line[i] != '~') {
		return fence{}, false
	}
	c := line[i]
	n := 0
	for i < len(line) && line[i] == c {
		i++
		n++
	}
	if n < 3 || (c == '`' && bytes.IndexByte(line[i:], '`') >= 0) {
		return fence{}, false
	}
	return fence{c, n}, true
}

// closedBy reports whether line closes f: up to three spaces, at least as
// many of the same character, then only spaces and tabs.
func (f fence) closedBy(line []byte) bool {
	i := indent(line)
	if i > 3 {
		return false
	}
	n := 0
	for i < len(line) && line[i] == f.c {
		i++
		n++
	}
	return n >= f.n && len(bytes.Trim(line[i:], " \t\r")) == 0
}

func indent(line []byte) int {
	i := 0
	for i < len(line) && line[i] == ' ' {
		i++
	}
	return i
}

// idToken returns the ID that h, a heading's text, starts with, or nil.
func idToken(h []byte) []byte {
	i := 0
	for i < len(h) && 'A' <= h[i] && h[i] <= 'Z' {
		i++
	}
	if i == 0 {
		return nil
	}
	if i < len(h) && h[i] == '-' {
		i++
	}
	d := i
	for i < len(h) && '0' <= h[i] && h[i] <= '9' {
		i++
	}
	if i == d {
		return nil
	}
	if i < len(h) {
		r, _ := utf8.DecodeRune(h[i:])
		if unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsNumber(r) {
			return nil
		}
	}
	return h[:i]
}

// frontMatter returns the "id:" value of a YAML front matter block at the
// very start of text (a "---" line, key lines, a "---" or "..." line), and
// the offset of the first line after the block; "" and 0 without one.
func frontMatter(text []byte) (id string, end int) {
	if !bytes.HasPrefix(text, []byte("---\n")) && !bytes.HasPrefix(text, []byte("---\r\n")) {
		return "", 0
	}
	for ls := bytes.IndexByte(text, '\n') + 1; ls < len(text); {
		le := lineEnd(text, ls)
		line := text[ls:le]
		nl := bytes.IndexByte(text[le:], '\n')
		next := len(text)
		if nl >= 0 {
			next = le + nl + 1
		}
		if string(line) == "---" || string(line) == "..." {
			return id, next
		}
		if v, ok := bytes.CutPrefix(line, []byte("id:")); ok && id == "" {
			id = string(bytes.Trim(bytes.TrimSpace(v), `"'`))
		}
		ls = next
	}
	return "", 0 // no closing line: not front matter
}
