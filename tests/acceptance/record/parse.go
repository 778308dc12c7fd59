package record

import (
	"regexp"
	"strconv"
	"strings"
)

// srcLine is one line of the record, numbered from 1.
type srcLine struct {
	N    int
	Text string
}

// field is one field as written: its value with Markdown emphasis removed,
// and the original lines it spans, for quoting.
type field struct {
	Name  string
	Value string
	Lines []srcLine
	parts []string // the lines after the label's, joined into Value
}

type lineKind int

const (
	kindProse     lineKind = iota
	kindBlank              // nothing on it
	kindHeading            // a heading that is not a label
	kindFence              // a code fence, or a table's --- row
	kindCode               // inside a fenced code block
	kindGenerated          // inside a block written by Generate
)

// docLine is one line as the reader sees it.
type docLine struct {
	srcLine
	kind lineKind
	// field is the field whose value the line carries, "" outside fields.
	field string
	// label is set on the line that holds the field's label.
	label bool
	// body is the text to read: the value on a label line, the line
	// without list, quote and table markers otherwise.
	body string
	// num is the line's list number ("5. …") or a first table cell that is
	// a number ("| 5 | …"), else 0.
	num int
}

// parsed is a record read into lines and fields.
type parsed struct {
	lines  []*docLine
	fields map[string]*field // each field's first occurrence
}

var (
	// A list marker, quote marker or heading hashes before a label.
	leadRe = regexp.MustCompile(`^\s*(?:>\s*)*(?:#{1,6}\s+|[-*+]\s+(?:\[([ xX])\]\s+)?|(\d+)[.)]\s+)?`)
	// Emphasis markers Markdown wraps around labels and values.
	emphRe  = regexp.MustCompile(`\*\*|__|\*|~~|` + "`")
	headRe  = regexp.MustCompile(`^\s*(?:>\s*)*#{1,6}\s`)
	fenceRe = regexp.MustCompile("^\\s*(?:>\\s*)*(?:[-*+]\\s+)?(?:```|~~~)")
	tsepRe  = regexp.MustCompile(`^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$`)
	sepRe   = regexp.MustCompile(`\s+[-–—]\s+`)
)

// Markers around the block Generate writes: the run's results, check by
// check, which the record check compares with the class run.
const (
	generatedBegin = "<!-- practice-notes acceptance results: begin"
	generatedEnd   = "<!-- practice-notes acceptance results: end -->"
)

// parse reads the record's lines and finds the six fields. A field's value
// is the rest of its label's line plus the lines that follow, up to the
// next label or heading.
func parse(text string) parsed {
	p := parsed{fields: map[string]*field{}}
	var cur *field
	// A field whose value starts on its label's line is one paragraph: a
	// blank line ends it. A label alone on its line (a heading, a bold
	// line) owns what follows up to the next label or heading.
	paragraph := false
	inCode, inGen := false, false
	var merged spans
	for i, raw := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		d := &docLine{srcLine: srcLine{N: i + 1, Text: raw}}
		p.lines = append(p.lines, d)
		t := strings.TrimSpace(raw)
		if !inGen && !strings.HasPrefix(t, generatedBegin) {
			// The line as Markdown: HTML, JSON, TOML and the field lists
			// of other markups rewritten; the record's text is quoted.
			raw = lineView(merged.row(raw))
			t = strings.TrimSpace(raw)
		}
		switch {
		case strings.HasPrefix(t, generatedBegin):
			inGen = true
			d.kind = kindGenerated
			continue
		case inGen:
			d.kind = kindGenerated
			if strings.HasPrefix(t, generatedEnd) {
				inGen = false
			}
			d.body = t
			continue
		case fenceRe.MatchString(raw):
			inCode = !inCode
			d.kind = kindFence
		case inCode:
			d.kind = kindCode
			d.body = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(raw), ">"))
		case t == "":
			d.kind = kindBlank
			if paragraph {
				cur = nil
			}
			continue
		case tsepRe.MatchString(t) && strings.Contains(t, "-"):
			d.kind = kindFence
			continue
		}
		// A label inside fenced code counts too (the template pasted in a
		// code block); a header line of pasted harness output does not.
		if d.kind == kindCode && !harnessHeaderRe.MatchString(strings.TrimSpace(raw)) {
			if _, _, ok := labelLine(raw); ok {
				d.kind = kindProse
			}
		}
		if d.kind == kindProse {
			if name, value, ok := labelLine(raw); ok {
				cur = nil
				// The first occurrence wins, unless it was left empty
				// ("- [ ] Integration (2 pts)" above the real field).
				if old, dup := p.fields[name]; !dup || old.Value == "" && len(old.parts) == 0 {
					cur = &field{Name: name, Value: value, Lines: []srcLine{d.srcLine}}
					p.fields[name] = cur
					d.field, d.label, d.body = name, true, value
					paragraph = value != ""
				} else {
					// A repeated label is read as prose about its field.
					d.field, d.body = name, value
				}
				continue
			}
			if headRe.MatchString(raw) {
				cur = nil
				d.kind = kindHeading
				d.body = clean(leadRe.ReplaceAllString(raw, ""))
				continue
			}
			d.body, d.num = lineBody(raw)
		}
		if cur != nil {
			d.field = cur.Name
			if d.kind != kindFence {
				cur.parts = append(cur.parts, d.body)
			}
			cur.Lines = append(cur.Lines, d.srcLine)
		}
	}
	for _, f := range p.fields {
		if len(f.parts) > 0 {
			f.Value = strings.TrimLeft(strings.Join(append([]string{f.Value}, f.parts...), "\n"), "\n")
		}
	}
	return p
}

// lineBody is a line without its list, quote and table markers, with its
// list number or leading number cell.
func lineBody(raw string) (string, int) {
	t := strings.TrimSpace(raw)
	if strings.HasPrefix(t, "|") {
		cells := tableCells(t)
		num := 0
		if len(cells) > 0 {
			num = smallNumber(strings.TrimPrefix(cells[0], "#"))
		}
		return strings.Join(cells, " | "), num
	}
	m := leadRe.FindStringSubmatch(raw)
	num := 0
	if m[2] != "" {
		num = smallNumber(m[2])
	}
	body := clean(raw[len(m[0]):])
	if m[1] != "" && num == 0 {
		// "- [x] 5 symlink": the number after the box.
		if n := leadNumRe.FindStringSubmatch(body); n != nil {
			num = smallNumber(n[1])
		}
	}
	// A task-list box says done or not done.
	switch m[1] {
	case "x", "X":
		body += " ✅"
	case " ":
		body += " (not done)"
	}
	return body, num
}

func smallNumber(s string) int {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 1 || n > 8 {
		return 0
	}
	return n
}

func tableCells(t string) []string {
	cells := strings.Split(strings.Trim(strings.TrimSpace(t), "|"), "|")
	for i := range cells {
		cells[i] = clean(cells[i])
	}
	return cells
}

// labelLine recognises "label: value", "label — value" and a label alone
// on its line (a heading, a bold line), however emphasised or listed, and
// the table row "| label | value |". Labels come from the labels table.
func labelLine(raw string) (name, value string, ok bool) {
	t := strings.TrimSpace(raw)
	if strings.HasPrefix(t, "|") {
		cells := tableCells(t)
		if len(cells) < 2 {
			return "", "", false
		}
		name, ok = lookupLabel(cells[0])
		if !ok {
			return "", "", false
		}
		return name, clean(strings.Join(cells[1:], " | ")), true
	}
	s := stripEmphasis(leadRe.ReplaceAllString(raw, ""))
	// A number after heading hashes ("## 2. Boundary tests run"), and
	// marks before the label ("✅ Boundary tests run: …"), which are kept
	// with the value.
	s = numberRe.ReplaceAllString(s, "")
	mark := ""
	if m := markRe.FindString(s); m != "" {
		mark, s = strings.TrimSpace(m), s[len(m):]
	}
	name, value, ok = labelText(s)
	if ok && mark != "" {
		value = strings.TrimSpace(mark + " " + value)
	}
	return name, value, ok
}

var (
	numberRe  = regexp.MustCompile(`^\d+[.)]\s+`)
	leadNumRe = regexp.MustCompile(`^(\d)[.):]?\s`)
	markRe    = regexp.MustCompile(`^[^\p{L}\p{N}_\s(\[]+\s*`)
)

// labelText recognises "label: value", "label — value" and a label alone.
func labelText(s string) (name, value string, ok bool) {
	if i := strings.IndexAny(s, ":："); i > 0 {
		if name, ok := lookupLabel(s[:i]); ok {
			rest := s[i:]
			rest = strings.TrimPrefix(strings.TrimPrefix(rest, ":"), "：")
			return name, yamlValue(clean(rest)), true
		}
	}
	if loc := sepRe.FindStringIndex(s); loc != nil {
		if name, ok := lookupLabel(s[:loc[0]]); ok {
			return name, clean(s[loc[1]:]), true
		}
	}
	if name, ok := lookupLabel(s); ok {
		return name, "", true
	}
	return "", "", false
}

// clean drops emphasis markers, a leading colon left by "**label**: value",
// and surrounding space.
func clean(s string) string {
	s = stripEmphasis(s)
	s = strings.TrimSpace(s)
	s = strings.TrimSpace(strings.TrimPrefix(s, ":"))
	return s
}

var blankRe = regexp.MustCompile(`_{3,}`)

// stripEmphasis removes emphasis markers but keeps the specification's
// "___" blanks, which would otherwise read as bold markers.
func stripEmphasis(s string) string {
	parts := blankRe.Split(s, -1)
	for i := range parts {
		parts[i] = emphRe.ReplaceAllString(parts[i], "")
	}
	return strings.Join(parts, "___")
}

// yamlValue is a value as YAML writes it: "|" or ">" open a block on the
// lines that follow, and quotes are not part of it.
func yamlValue(v string) string {
	switch v {
	case "|", ">", "|-", ">-", "|+", ">+":
		return ""
	}
	return unquoteValue(v)
}
