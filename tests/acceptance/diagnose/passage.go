package diagnose

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"

	"practice-notes/tests/acceptance/truth"
)

// Passage names how the strings of a reply hold h's paragraph other than
// byte for byte, from the first rewrite of the paragraph one of them
// holds. Markdown's quoting (a "> " or an indent before every line) is
// read off the strings first, as the presentation rule allows it.
func Passage(t truth.Tree, h truth.Hit, strs []string) Mistake {
	strs = unquoted(strs)
	text := h.Text
	holds := func(s string) bool {
		if s == text || s == "" {
			return false
		}
		for _, str := range strs {
			if strings.Contains(str, s) {
				return true
			}
		}
		return false
	}
	if next := nextParagraph(t, h); next != "" && holdsBoth(strs, text, next) {
		return Joined
	}
	switch {
	case holds(strings.ReplaceAll(text, "\r", "")):
		return CRsDropped
	case holds(mapLines(text, func(l string) string { return strings.TrimRight(l, " \t") })),
		holds(mapLines(text, func(l string) string { return strings.TrimRightFunc(l, unicode.IsSpace) })),
		holds(mapLines(strings.ReplaceAll(text, "\r", ""), func(l string) string { return strings.TrimRight(l, " \t") })):
		return TrailingSpace
	case holds(separatorsAsLF(text)):
		return Separators
	case !utf8.ValidString(text) && (holds(strings.ToValidUTF8(text, "\uFFFD")) || holds(perByte(text))):
		return Replacement
	}
	for _, s := range strs {
		if !strings.Contains(s, text) && strings.Contains(strings.ToLower(s), strings.ToLower(text)) {
			return Recased
		}
	}
	if m := window(t, h, holds); m != "" {
		return m
	}
	for _, line := range strings.Split(text, "\n") {
		if l := strings.TrimSpace(line); l != "" && l != strings.TrimSpace(text) && holds(l) {
			return CutShort
		}
	}
	return OtherBytes
}

// maxShift is how far, in bytes, a window cut at a folded copy's offsets
// lands from the paragraph: a few bytes per character whose folding
// changes length.
const maxShift = 64

// window finds a window of the note near h's paragraph that a string of
// the reply holds: one reaching outside the paragraph is Shifted, one
// inside it CutShort.
func window(t truth.Tree, h truth.Hit, holds func(string) bool) Mistake {
	data := string(t[h.File].Data)
	p := strings.Index(data, h.Text)
	if p < 0 {
		return ""
	}
	end := p + len(h.Text)
	inside := false
	for d1 := -maxShift; d1 <= maxShift; d1++ {
		for d2 := -maxShift; d2 <= maxShift; d2++ {
			a, b := p+d1, end+d2
			if a < 0 || b > len(data) || min(b, end)-max(a, p) < len(h.Text)/2 || d1 == 0 && d2 == 0 {
				continue
			}
			w := strings.TrimSpace(data[a:b])
			if w == strings.TrimSpace(h.Text) || !holds(w) {
				continue
			}
			if strings.TrimSpace(data[min(a, p):p]) != "" || strings.TrimSpace(data[end:max(b, end)]) != "" {
				return Shifted
			}
			// A cut keeps the start or the end of the paragraph.
			inside = inside || a == p || b == end
		}
	}
	if inside {
		return CutShort
	}
	return ""
}

// unquoted returns strs and, for each that quotes or indents its lines,
// the string with that presentation read off.
func unquoted(strs []string) []string {
	out := append([]string(nil), strs...)
	for _, s := range strs {
		for _, prefix := range []string{"> ", ">", "    ", "\t"} {
			if strings.Contains(s, "\n"+prefix) || strings.HasPrefix(s, prefix) {
				out = append(out, mapLines(s, func(l string) string { return strings.TrimPrefix(l, prefix) }))
			}
		}
	}
	return out
}

// holdsBoth reports whether one string holds text and, after it, the
// start of next: two paragraphs quoted as one.
func holdsBoth(strs []string, text, next string) bool {
	head := next
	if len(head) > 24 {
		head = head[:24]
	}
	for _, s := range strs {
		i := strings.Index(s, text)
		if i >= 0 && strings.Contains(s[i+len(text):], head) && strings.TrimSpace(s[i+len(text):i+len(text)+strings.Index(s[i+len(text):], head)]) == "" {
			return true
		}
	}
	return false
}

// nextParagraph returns the paragraph after h's in its note, or "".
func nextParagraph(t truth.Tree, h truth.Hit) string {
	e, ok := t[h.File]
	if !ok {
		return ""
	}
	i := bytes.Index(e.Data, []byte(h.Text))
	if i < 0 {
		return ""
	}
	ps := paragraphs(e.Data[i+len(h.Text):])
	if len(ps) == 0 {
		return ""
	}
	return ps[0]
}

func mapLines(s string, f func(string) string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = f(l)
	}
	return strings.Join(lines, "\n")
}

// perByte replaces every invalid byte with U+FFFD, as a decoder that does
// not merge a run of them does.
func perByte(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// separatorsAsLF rewrites a lone CR, U+2028, U+0085 and a form feed as a
// line feed, as a reader that ends lines at them does.
func separatorsAsLF(s string) string {
	s = strings.NewReplacer("\r\n", "\r\n", "\r", "\n", "\u2028", "\n", "\u0085", "\n", "\f", "\n").Replace(s)
	return s
}
