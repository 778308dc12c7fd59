package checks

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// paragraph is a run of lines taken byte-for-byte from a file.
type Paragraph struct {
	File      string // root-relative, for paragraphs of the root's notes
	Text      string
	StartLine int // 1-based
	EndLine   int
}

type lineSpan struct {
	start, end int // byte offsets; end excludes the newline
	num        int
}

func splitLineSpans(s string) []lineSpan {
	var spans []lineSpan
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == '\n' {
			if i == len(s) && start == len(s) {
				break
			}
			spans = append(spans, lineSpan{start, i, len(spans) + 1})
			start = i + 1
		}
	}
	return spans
}

var headingRe = regexp.MustCompile(`^(#{1,6})[ \t]`)

func HeadingLevel(line string) int {
	m := headingRe.FindStringSubmatch(line)
	if m == nil {
		return 0
	}
	return len(m[1])
}

func isBlank(line string) bool { return strings.TrimSpace(line) == "" }

// findNoteParagraphs finds the section headed by note id (for example
// "## N2 · Title") and returns the paragraphs in it that contain needle,
// case-insensitively. It returns up to two readings of the paragraph: split
// at blank lines and headings, and split at blank lines only (which keeps a
// heading that has no blank line after it). A server may use either.
func FindNoteParagraphs(content, id, needle string) ([]Paragraph, error) {
	idRe := regexp.MustCompile(`^#{1,6}[ \t]+` + regexp.QuoteMeta(id) + `\b`)
	spans := splitLineSpans(content)
	line := func(sp lineSpan) string { return content[sp.start:sp.end] }
	head := -1
	for i, sp := range spans {
		if idRe.MatchString(line(sp)) {
			head = i
			break
		}
	}
	if head < 0 {
		return nil, fmt.Errorf("no heading for note %s", id)
	}
	level := HeadingLevel(line(spans[head]))
	end := len(spans)
	for i := head + 1; i < len(spans); i++ {
		if lv := HeadingLevel(line(spans[i])); lv > 0 && lv <= level {
			end = i
			break
		}
	}
	lowNeedle := strings.ToLower(needle)
	var out []Paragraph
	seen := map[string]bool{}
	for _, splitAtHeadings := range []bool{true, false} {
		from := head + 1
		if !splitAtHeadings {
			from = head
		}
		var cur []lineSpan
		flush := func() {
			if len(cur) == 0 {
				return
			}
			p := Paragraph{
				Text:      content[cur[0].start:cur[len(cur)-1].end],
				StartLine: cur[0].num,
				EndLine:   cur[len(cur)-1].num,
			}
			p.Text = strings.TrimSuffix(p.Text, "\r")
			if strings.Contains(strings.ToLower(p.Text), lowNeedle) && !seen[p.Text] {
				seen[p.Text] = true
				out = append(out, p)
			}
			cur = nil
		}
		for i := from; i < end; i++ {
			l := line(spans[i])
			switch {
			case isBlank(l):
				flush()
			case splitAtHeadings && HeadingLevel(l) > 0:
				flush()
			default:
				cur = append(cur, spans[i])
			}
		}
		flush()
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("note %s has no paragraph containing %q", id, needle)
	}
	return out, nil
}

// splitParagraphs splits a note at blank lines and headings.
func SplitParagraphs(content string) []Paragraph {
	var out []Paragraph
	var cur []lineSpan
	flush := func() {
		if len(cur) > 0 {
			text := strings.TrimSuffix(content[cur[0].start:cur[len(cur)-1].end], "\r")
			out = append(out, Paragraph{Text: text, StartLine: cur[0].num, EndLine: cur[len(cur)-1].num})
		}
		cur = nil
	}
	for _, sp := range splitLineSpans(content) {
		line := content[sp.start:sp.end]
		if isBlank(line) || HeadingLevel(line) > 0 {
			flush()
			continue
		}
		cur = append(cur, sp)
	}
	flush()
	return out
}

// noteSection returns note id's section: its heading line to the line
// before the next heading of the same or a higher level.
func NoteSection(content, id string) (Paragraph, bool) {
	idRe := regexp.MustCompile(`^#{1,6}[ \t]+` + regexp.QuoteMeta(id) + `\b`)
	spans := splitLineSpans(content)
	for i, sp := range spans {
		if !idRe.MatchString(content[sp.start:sp.end]) {
			continue
		}
		level := HeadingLevel(content[sp.start:sp.end])
		end := len(spans)
		for j := i + 1; j < len(spans); j++ {
			if lv := HeadingLevel(content[spans[j].start:spans[j].end]); lv > 0 && lv <= level {
				end = j
				break
			}
		}
		last := end - 1
		for last > i && isBlank(content[spans[last].start:spans[last].end]) {
			last--
		}
		return Paragraph{Text: strings.TrimSuffix(content[sp.start:spans[last].end], "\r"), StartLine: sp.num, EndLine: spans[last].num}, true
	}
	return Paragraph{}, false
}

var wordRe = regexp.MustCompile(`\S+`)

// longestVerbatimRun returns the number of words in the longest run of
// consecutive words of para that contains the word containing needle and
// appears byte-for-byte in one of texts.
func longestVerbatimRun(para, needle string, texts []string) int {
	words := wordRe.FindAllStringIndex(para, -1)
	lowNeedle := strings.ToLower(needle)
	best := 0
	for k, w := range words {
		if !strings.Contains(strings.ToLower(para[w[0]:w[1]]), lowNeedle) {
			continue
		}
		for i := k; i >= 0; i-- {
			for j := len(words) - 1; j >= k; j-- {
				if j-i+1 <= best {
					break
				}
				run := para[words[i][0]:words[j][1]]
				for _, t := range texts {
					if strings.Contains(t, run) {
						best = j - i + 1
						break
					}
				}
			}
		}
	}
	return best
}

// jsonStrings returns every string value found in v (recursively).
func jsonStrings(v any) []string {
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			out = append(out, x)
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				walk(x[k])
			}
		}
	}
	walk(v)
	return out
}
