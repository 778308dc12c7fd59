package diagnose

import (
	"bytes"
	"slices"
	"strings"
	"unicode"

	"practice-notes/tests/acceptance/truth"
)

// fold maps every rune to the least rune of its simple case-folding orbit
// and every run of white space to one space, so that a phrase found in a
// folded text is one found under the specification's rule.
func fold(s string) string { return collapse(s, orbitMin) }

// lowerFinds reports whether a server that lowercases both the text and
// the query finds the phrase: with Go's strings.ToLower, or with
// JavaScript's toLowerCase, which lowers a capital sigma that ends a word
// to ς.
func lowerFinds(text, query string) bool {
	same := func(r rune) rune { return r }
	for _, low := range []func(string) string{strings.ToLower, lowerFinalSigma} {
		if q := collapse(low(query), same); q != "" && strings.Contains(collapse(low(text), same), q) {
			return true
		}
	}
	return false
}

// writtenFinds reports whether text holds the phrase as the query writes
// it, any run of white space between its words.
func writtenFinds(text, query string) bool {
	same := func(r rune) rune { return r }
	q := collapse(query, same)
	return q != "" && strings.Contains(collapse(text, same), q)
}

// asciiFinds reports whether text holds the phrase with ASCII letters
// compared without case.
func asciiFinds(text, query string) bool {
	low := func(r rune) rune {
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}
	q := collapse(query, low)
	return q != "" && strings.Contains(collapse(text, low), q)
}

// lowerFinalSigma lowercases s, Σ at the end of a word to ς.
func lowerFinalSigma(s string) string {
	rs := []rune(s)
	for i, r := range rs {
		if r == 'Σ' && (i+1 == len(rs) || !unicode.IsLetter(rs[i+1])) && i > 0 && unicode.IsLetter(rs[i-1]) {
			rs[i] = 'ς'
		}
	}
	return strings.ToLower(string(rs))
}

// collapse maps every rune with f and every run of white space to one
// space.
func collapse(s string, f func(rune) rune) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(f(r))
	}
	return b.String()
}

func orbitMin(r rune) rune {
	least := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		least = min(least, f)
	}
	return least
}

// paragraphs splits a note at blank lines (spaces, tabs and CRs only), as
// a reader of plain text does.
func paragraphs(data []byte) []string {
	var out []string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.Join(cur, "\n"))
			cur = nil
		}
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.Trim(line, " \t\r") == "" {
			flush()
			continue
		}
		cur = append(cur, line)
	}
	flush()
	return out
}

// isLast reports whether text is the last paragraph of its note.
func isLast(t truth.Tree, file, text string) bool {
	e, ok := t[file]
	return ok && bytes.HasSuffix(bytes.TrimRight(e.Data, " \t\r\n"), []byte(strings.TrimRight(text, " \t\r\n")))
}

// endsNote reports whether text ends file's data but for one line ending.
func endsNote(t truth.Tree, file, text string) bool {
	e, ok := t[file]
	if !ok {
		return false
	}
	d := bytes.TrimSuffix(bytes.TrimSuffix(e.Data, []byte("\n")), []byte("\r"))
	return bytes.HasSuffix(d, []byte(text))
}

// walkBefore reports whether a comes before b in a walk that lists each
// folder's entries sorted by name, as filepath.WalkDir does: "a/b.md"
// comes before "a.md".
func walkBefore(a, b string) bool {
	pa, pb := strings.Split(a, "/"), strings.Split(b, "/")
	for i := 0; i < len(pa) && i < len(pb); i++ {
		if pa[i] != pb[i] {
			return pa[i] < pb[i]
		}
	}
	return len(pa) < len(pb)
}

// blockers returns the notes a naive reader stops at, in walk order:
// those it cannot open, and those holding a NUL byte.
func blockers(t truth.Tree) []blocked {
	var out []blocked
	for name, e := range t {
		if e.Kind != truth.Regular {
			continue
		}
		switch {
		case e.Unreadable:
			out = append(out, blocked{name, AfterUnreadable})
		case bytes.IndexByte(e.Data, 0) >= 0:
			out = append(out, blocked{name, AfterBinary})
		}
	}
	slices.SortFunc(out, func(a, b blocked) int {
		if walkBefore(a.file, b.file) {
			return -1
		}
		return 1
	})
	return out
}

// blocked is a note a naive reader stops at, and the mistake stopping
// there is.
type blocked struct {
	file    string
	mistake Mistake
}
