package truth

import (
	"regexp"
	"strings"
)

// Exact reports whether passage presents paragraph exactly: it is the
// paragraph byte for byte once the presentation Markdown defines for
// quoting is removed, and nothing else. That presentation is, each at most
// once and in any nesting: a "> " prefix on every line; a fenced code block
// (an opening fence line of ``` or ~~~ with an optional info string, and a
// closing fence line); an indented code block (four spaces or a tab before
// every line); one list marker ("-", "*", "+", "1." or "1)" and the spaces
// after it) before the first line, the other lines as they are or indented
// by the marker's width. One line ending (LF or CRLF) after the passage is
// its last line's terminator, not text, and is allowed too.
//
// So a passage whose line endings differ from the file's (a CRLF paragraph
// returned with LF, or the reverse), that is cut, re-cased, reflowed,
// re-encoded or trimmed differently, is not exact.
func Exact(passage, paragraph string) bool {
	for _, c := range unpresent(passage) {
		if c == paragraph {
			return true
		}
	}
	return false
}

// Presented returns the paragraphs passage presents exactly: Exact(passage,
// p) holds for these p and no other. It serves a caller that tries many
// paragraphs against one passage.
func Presented(passage string) []string { return unpresent(passage) }

// The presentations, as a bit set of those already removed.
const (
	byQuote = 1 << iota
	byCode
	byList
)

// unpresent returns every text passage may present: itself and each text
// left by removing presentations, at most one of each kind.
func unpresent(passage string) []string {
	type state struct {
		s    string
		used int
	}
	seen := map[string]bool{}
	var out []string
	queue := []state{{passage, 0}}
	for len(queue) > 0 {
		st := queue[0]
		queue = queue[1:]
		for _, s := range []string{st.s, trimEnding(st.s)} {
			if seen[s] {
				continue
			}
			seen[s] = true
			out = append(out, s)
			next := func(kind int, texts ...string) {
				if st.used&kind == 0 {
					for _, t := range texts {
						queue = append(queue, state{t, st.used | kind})
					}
				}
			}
			if t, ok := unquote(s); ok {
				next(byQuote, t)
			}
			next(byCode, unfence(s)...)
			if t, ok := unindent(s); ok {
				next(byCode, t)
			}
			next(byList, unlist(s)...)
		}
	}
	return out
}

// trimEnding removes one final LF or CRLF.
func trimEnding(s string) string {
	if t, ok := strings.CutSuffix(s, "\n"); ok {
		return strings.TrimSuffix(t, "\r")
	}
	return s
}

// unquote removes "> " from the start of every line.
func unquote(s string) (string, bool) {
	ls := strings.Split(s, "\n")
	for i, l := range ls {
		t, ok := strings.CutPrefix(l, "> ")
		if !ok {
			return "", false
		}
		ls[i] = t
	}
	return strings.Join(ls, "\n"), true
}

// unindent removes four spaces or a tab from the start of every line.
func unindent(s string) (string, bool) {
	ls := strings.Split(s, "\n")
	for i, l := range ls {
		t, ok := strings.CutPrefix(l, "    ")
		if !ok {
			if t, ok = strings.CutPrefix(l, "\t"); !ok {
				return "", false
			}
		}
		ls[i] = t
	}
	return strings.Join(ls, "\n"), true
}

var fenceRe = regexp.MustCompile("^ {0,3}(`{3,}|~{3,})([^`\n]*)$")

// unfence returns what a fenced code block holds: the lines between the
// opening and the closing fence, with and without the CR a CRLF closing
// line leaves.
func unfence(s string) []string {
	first := strings.IndexByte(s, '\n')
	last := strings.LastIndexByte(s, '\n')
	if first < 0 || last <= first {
		return nil
	}
	open := fenceRe.FindStringSubmatch(strings.TrimSuffix(s[:first], "\r"))
	if open == nil {
		return nil
	}
	closing := strings.TrimRight(strings.TrimSuffix(s[last+1:], "\r"), " ")
	closing = strings.TrimLeft(closing, " ")
	if len(closing) < len(open[1]) || strings.Trim(closing, open[1][:1]) != "" {
		return nil
	}
	body := s[first+1 : last]
	return []string{body, strings.TrimSuffix(body, "\r")}
}

var listRe = regexp.MustCompile(`^ {0,3}([-*+]|[0-9]{1,9}[.)])( {1,4}|\t)`)

// unlist removes one list marker from the first line, leaving the other
// lines as they are or without the marker's width of indentation.
func unlist(s string) []string {
	m := listRe.FindString(s)
	if m == "" {
		return nil
	}
	rest := s[len(m):]
	out := []string{rest}
	width := len(m)
	if strings.HasSuffix(m, "\t") {
		width = len(m) - 1 + 4
	}
	ls := strings.Split(rest, "\n")
	pad := strings.Repeat(" ", width)
	for i := 1; i < len(ls); i++ {
		t, ok := strings.CutPrefix(ls[i], pad)
		if !ok {
			return out
		}
		ls[i] = t
	}
	if len(ls) > 1 {
		out = append(out, strings.Join(ls, "\n"))
	}
	return out
}

// Forms returns the texts a reply holds where it presents paragraph in one
// of the ways Exact allows, for finding the paragraph inside a longer
// text: the paragraph itself (as a fenced block and after a list marker
// hold it), quoted, indented as code, and with its lines after the first
// indented as a list item's (by 2, 3 or 4 spaces), each also quoted.
func Forms(paragraph string) []string {
	ls := strings.Split(paragraph, "\n")
	inner := []string{paragraph, joinLines(prefixEach(ls, "    ")), joinLines(prefixEach(ls, "\t"))}
	if len(ls) > 1 {
		for _, n := range []int{2, 3, 4} {
			inner = append(inner, joinLines(append([]string{ls[0]}, prefixEach(ls[1:], strings.Repeat(" ", n))...)))
		}
	}
	var out []string
	for _, s := range inner {
		out = append(out, s, joinLines(prefixEach(strings.Split(s, "\n"), "> ")))
	}
	return out
}

func prefixEach(ls []string, p string) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = p + l
	}
	return out
}

func joinLines(ls []string) string { return strings.Join(ls, "\n") }
