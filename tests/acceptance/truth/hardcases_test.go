package truth

import (
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func hardTree() Tree {
	notes, _ := HardCases()
	t := Tree{}
	for _, n := range notes {
		t[n.Rel] = note(n.Text)
	}
	return t
}

// hit names a hit of the hard cases by note (without the folder) and the
// line its first occurrence is on.
type hit struct {
	Note string
	Line int
	Room Room
}

// TestHardCasesTruth states the true answer to every hard-case probe.
func TestHardCasesTruth(t *testing.T) {
	want := map[string][]hit{
		"crlfmark":                    {{"crlf-note.md", 3, 0}},
		"crlfwrap phrase":             {{"crlf-note.md", 7, RoomWrap}},
		"mixedmark":                   {{"mixed-endings.md", 3, 0}},
		"mixedwrap phrase":            {{"mixed-endings.md", 7, RoomWrap}},
		"shrinkmark":                  {{"fold-shrink.md", 5, 0}},
		"KELVIN SCALE":                {{"fold-shrink.md", 3, 0}},
		"growmark":                    {{"fold-grow.md", 6, 0}},
		"straße":                      {{"fold-grow.md", 4, 0}},
		"strasse":                     {{"fold-grow.md", 4, RoomFullFold}},
		"final file":                  {{"fold-grow.md", 4, RoomFullFold}},
		"ﬁnal ﬁle":                    {{"fold-grow.md", 4, 0}},
		"istanbul":                    nil,
		"diyarbakir":                  nil,
		"İstanbul":                    {{"fold-grow.md", 4, 0}},
		"λόγος της":                   {{"greek.md", 3, 0}, {"greek.md", 5, 0}, {"greek.md", 7, 0}},
		"ΛΌΓΟΣ ΤΗΣ":                   {{"greek.md", 3, 0}, {"greek.md", 5, 0}, {"greek.md", 7, 0}},
		"sepmark-ls":                  {{"separators.md", 3, 0}},
		"sepmark-nel":                 {{"separators.md", 5, 0}},
		"sepmark-ff":                  {{"separators.md", 7, 0}},
		"sepmark-cr":                  {{"separators.md", 9, 0}},
		"lsleft lsright":              {{"separators.md", 3, RoomSpace}},
		"nelleft nelright":            {{"separators.md", 5, RoomSpace}},
		"ffleft ffright":              {{"separators.md", 7, RoomWrap}},
		"crleft crright":              {{"separators.md", 9, RoomWrap}},
		"whitels-mark":                {{"white-lines.md", 3, 0}},
		"whitenel-mark":               {{"white-lines.md", 5, 0}},
		"whiteff-mark":                {{"white-lines.md", 9, 0}},
		"whitecr-mark":                {{"white-lines.md", 11, 0}},
		"quokka tessellated":          nil,
		"quokka tessellated marzipan": nil,
		"lantern walrus":              nil,
		"quokka":                      {{"words-a.md", 3, 0}},
		"walrus":                      {{"words-d.md", 3, 0}},
	}
	_, probes := HardCases()
	tree := hardTree()
	seen := map[string]bool{}
	for _, p := range probes {
		seen[p.Query] = true
		w, ok := want[p.Query]
		if !ok {
			t.Errorf("probe %q has no stated truth here", p.Query)
			continue
		}
		a := Ask(tree, p.Query)
		var got []hit
		for _, h := range a.Hits {
			got = append(got, hit{path.Base(h.File), h.Line, h.Room})
		}
		if diff := cmp.Diff(w, got); diff != "" {
			t.Errorf("Ask(%q) (-want +got):\n%s", p.Query, diff)
		}
	}
	for q := range want {
		if !seen[q] {
			t.Errorf("stated truth for %q, which is not a probe", q)
		}
	}
	// Every CR of the line-ending notes is in their passages.
	for _, q := range []string{"crlfmark", "crlfwrap phrase", "mixedmark", "mixedwrap phrase", "sepmark-cr"} {
		if a := Ask(tree, q); len(a.Hits) != 1 || !strings.Contains(a.Hits[0].Text, "\r") {
			t.Errorf("Ask(%q): the passage lost its CR: %+v", q, a.Hits)
		}
	}
}

// A defective server, as a model: it answers a query over the notes
// (name to text) with passages.
type defective func(notes map[string]string, query string) []served

// wrongBy says how reply differs from the truth a, or "" when a correct
// server could have given it: every passage exactly a hit's, every hit
// that needs no room there unless the reply holds MaxPassages.
func wrongBy(a Answer, reply []served) string {
	covered := map[string]bool{}
	for _, s := range reply {
		h, ok := a.Find(s.File, s.Text)
		if !ok {
			return fmt.Sprintf("%s: %q is no true paragraph", s.File, s.Text)
		}
		covered[fmt.Sprint(h.File, h.StartLine)] = true
	}
	if len(reply) < MaxPassages {
		for _, h := range a.Under(0) {
			if !covered[fmt.Sprint(h.File, h.StartLine)] {
				return fmt.Sprintf("missed %s line %d", h.File, h.Line)
			}
		}
	}
	return ""
}

// paragraphAt returns the paragraph of text (split at blank lines) around
// byte offset i, as a naive server cuts it.
func paragraphAt(text string, i int) string {
	i = max(0, min(i, len(text)))
	start := strings.LastIndex(text[:i], "\n\n") + 1
	if start > 0 {
		start++
	}
	end := strings.Index(text[i:], "\n\n")
	if end < 0 {
		return strings.TrimRight(text[start:], "\r\n")
	}
	return strings.TrimRight(text[start:i+end], "\r")
}

// Models of what servers were seen to do.
var (
	// Lines split at LF and joined again without their CRs.
	dropsCRs defective = func(notes map[string]string, q string) []served {
		return literalParagraphs(notes, q, func(s string) string { return strings.ReplaceAll(s, "\r", "") })
	}
	// Python's text mode: every CRLF and lone CR read as LF.
	universalNewlines defective = func(notes map[string]string, q string) []served {
		return literalParagraphs(notes, q, func(s string) string {
			return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
		})
	}
	// Python's str.splitlines, the lines joined again with LF.
	splitLines defective = func(notes map[string]string, q string) []served {
		return literalParagraphs(notes, q, func(s string) string {
			return regexp.MustCompile("\r\n|[\r\v\f\x1c\x1d\x1e\u0085\u2028\u2029]").ReplaceAllString(s, "\n")
		})
	}
	// Case made lower with strings.ToLower instead of folded.
	lowercases defective = func(notes map[string]string, q string) []served {
		var out []served
		for _, name := range sortedNames(notes) {
			for _, p := range strings.Split(notes[name], "\n\n") {
				if strings.Contains(strings.ToLower(p), strings.ToLower(q)) {
					out = append(out, served{File: name, Text: strings.TrimRight(p, "\r\n")})
				}
			}
		}
		return out
	}
	// grep -i: case ignored for ASCII letters only.
	asciiFold defective = func(notes map[string]string, q string) []served {
		var out []served
		for _, name := range sortedNames(notes) {
			for _, p := range strings.Split(notes[name], "\n\n") {
				if strings.Contains(asciiLower(p), asciiLower(q)) {
					out = append(out, served{File: name, Text: strings.TrimRight(p, "\r\n")})
				}
			}
		}
		return out
	}
	// The match found in strings.ToLower's copy, the paragraph cut from
	// the note at the copy's byte offset.
	slicesByBytes defective = func(notes map[string]string, q string) []served {
		var out []served
		for _, name := range sortedNames(notes) {
			if i := strings.Index(strings.ToLower(notes[name]), strings.ToLower(q)); i >= 0 {
				out = append(out, served{File: name, Text: paragraphAt(notes[name], i)})
			}
		}
		return out
	}
	// The same in code points, lowercased as Python and JavaScript do
	// (İ becomes i and a combining dot).
	slicesByRunes defective = func(notes map[string]string, q string) []served {
		var out []served
		for _, name := range sortedNames(notes) {
			low := []rune(strings.ReplaceAll(strings.ToLower(strings.ReplaceAll(notes[name], "İ", "I\u0307")), "I\u0307", "i\u0307"))
			if i := strings.Index(string(low), strings.ToLower(q)); i >= 0 {
				runeOff := utf8.RuneCountInString(string(low)[:i])
				orig := []rune(notes[name])
				out = append(out, served{File: name, Text: paragraphAt(notes[name], len(string(orig[:min(runeOff, len(orig))])))})
			}
		}
		return out
	}
	// Any word of the query, anywhere in a paragraph.
	anyWord defective = func(notes map[string]string, q string) []served {
		var out []served
		for _, name := range sortedNames(notes) {
			for _, p := range strings.Split(notes[name], "\n\n") {
				for _, w := range strings.Fields(q) {
					if strings.Contains(strings.ToLower(p), strings.ToLower(w)) {
						out = append(out, served{File: name, Text: strings.TrimRight(p, "\r\n")})
						break
					}
				}
			}
		}
		return out
	}
	// Every word of the query, anywhere in one paragraph.
	allWords defective = func(notes map[string]string, q string) []served {
		var out []served
		for _, name := range sortedNames(notes) {
			for _, p := range strings.Split(notes[name], "\n\n") {
				all := true
				for _, w := range strings.Fields(q) {
					all = all && strings.Contains(strings.ToLower(p), strings.ToLower(w))
				}
				if all {
					out = append(out, served{File: name, Text: strings.TrimRight(p, "\r\n")})
				}
			}
		}
		return out
	}
)

// literalParagraphs finds q, case folded, in paragraphs of each note as
// read reads it.
func literalParagraphs(notes map[string]string, q string, read func(string) string) []served {
	var out []served
	for _, name := range sortedNames(notes) {
		for _, p := range strings.Split(read(notes[name]), "\n\n") {
			if containsFold(p, q) {
				out = append(out, served{File: name, Text: strings.TrimRight(p, "\n")})
			}
		}
	}
	return out
}

func containsFold(s, sub string) bool {
	for i := range s {
		if len(s)-i >= len(sub) && strings.EqualFold(s[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}

func asciiLower(s string) string {
	return strings.Map(func(r rune) rune {
		if r < utf8.RuneSelf {
			return unicode.ToLower(r)
		}
		return r
	}, s)
}

func sortedNames(notes map[string]string) []string {
	var names []string
	for n := range notes {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// TestHardCasesCatch checks that each defect seen in servers shows on the
// hard cases: the model of it answers some probe wrongly by the truth.
func TestHardCasesCatch(t *testing.T) {
	notes, _ := HardCases()
	files := map[string]string{}
	for _, n := range notes {
		files[n.Rel] = n.Text
	}
	tree := hardTree()
	tests := []struct {
		name   string
		server defective
		probes []string // each answered wrongly
	}{
		{"drops CRs", dropsCRs, []string{"crlfmark", "mixedmark", "sepmark-cr"}},
		{"universal newlines", universalNewlines, []string{"crlfmark", "mixedmark", "sepmark-cr"}},
		{"splitlines", splitLines, []string{"sepmark-ls", "sepmark-nel", "sepmark-ff", "sepmark-cr"}},
		{"lowercases", lowercases, []string{"λόγος της", "ΛΌΓΟΣ ΤΗΣ"}},
		{"ASCII-only folding", asciiFold, []string{"KELVIN SCALE", "straße", "λόγος της"}},
		{"slices a shorter copy", slicesByBytes, []string{"shrinkmark"}},
		{"slices a longer copy", slicesByRunes, []string{"growmark"}},
		{"any word", anyWord, []string{"quokka tessellated", "quokka tessellated marzipan", "lantern walrus"}},
		{"all words", allWords, []string{"lantern walrus"}},
	}
	for _, tt := range tests {
		for _, q := range tt.probes {
			a := Ask(tree, q)
			if why := wrongBy(a, tt.server(files, q)); why == "" {
				t.Errorf("%s: its answer to %q passes the truth", tt.name, q)
			} else {
				t.Logf("%s, %q: %s", tt.name, q, why)
			}
		}
	}
	// Readers that end a paragraph at a line of white space alone are
	// as right as the truth's, where that is all they differ in.
	white := []string{"whitels-mark", "whitenel-mark", "whiteff-mark", "whitecr-mark"}
	for _, r := range []struct {
		name   string
		server defective
	}{{"str.splitlines, blank when strip() is empty", whiteLinesEnd(true)}, {"lines at LF and lone CR, blank when strip() is empty", whiteLinesEnd(false)}} {
		for _, q := range white {
			if why := wrongBy(Ask(tree, q), r.server(files, q)); why != "" {
				t.Errorf("%s, %q: a permitted reading is wrong by the truth: %s", r.name, q, why)
			}
		}
	}
	// But not one that drops or rewrites the separators.
	for _, q := range white {
		if why := wrongBy(Ask(tree, q), dropsWhiteLines(files, q)); why == "" {
			t.Errorf("drops white lines: its answer to %q passes the truth", q)
		}
	}
	// And the truth's own passages pass it.
	_, probes := HardCases()
	for _, p := range probes {
		a := Ask(tree, p.Query)
		var reply []served
		for _, h := range a.Under(0) {
			reply = append(reply, served{File: h.File, Text: h.Text})
		}
		if why := wrongBy(a, reply); why != "" {
			t.Errorf("the truth's own answer to %q: %s", p.Query, why)
		}
	}
}

// whiteLinesEnd models a server that reads lines (at every line break
// Python's str.splitlines knows when wide, else at LF, CRLF and a lone
// CR), takes a line that strip() empties for blank, and returns the
// paragraph's bytes as the note holds them.
func whiteLinesEnd(wide bool) defective {
	ends := regexp.MustCompile("\r\n|[\n\r]")
	if wide {
		ends = regexp.MustCompile("\r\n|[\n\r\v\f\x1c\x1d\x1e\u0085\u2028\u2029]")
	}
	return func(notes map[string]string, q string) []served {
		var out []served
		for _, name := range sortedNames(notes) {
			text := notes[name]
			start, last := -1, -1
			emit := func() {
				if start >= 0 && containsFold(text[start:last], q) {
					out = append(out, served{File: name, Text: text[start:last]})
				}
				start = -1
			}
			pos := 0
			for _, m := range append(ends.FindAllStringIndex(text, -1), []int{len(text), len(text)}) {
				if strings.TrimSpace(text[pos:m[0]]) == "" {
					emit()
				} else {
					if start < 0 {
						start = pos
					}
					last = m[0]
				}
				pos = m[1]
			}
			emit()
		}
		return out
	}
}

// dropsWhiteLines models a server that drops every line of white space
// from a paragraph, the lines joined with LF.
func dropsWhiteLines(notes map[string]string, q string) []served {
	return literalParagraphs(notes, q, func(s string) string {
		return regexp.MustCompile("[\u2028\u0085\f\r]+").ReplaceAllString(s, "\n")
	})
}
