package record

import (
	"regexp"
	"strings"
)

// The specification's six fields, in its order.
const (
	fieldSource      = "Server source created"
	fieldBoundary    = "Boundary tests run"
	fieldPassage     = "Exact passage manually checked"
	fieldTransport   = "Client and transport"
	fieldIntegration = "Integration demonstrated"
	fieldUnverified  = "Unverified behavior"
)

// fieldNames lists the six fields in the specification's order.
var fieldNames = []string{fieldSource, fieldBoundary, fieldPassage, fieldTransport, fieldIntegration, fieldUnverified}

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
}

// parsed maps each field found to its first occurrence.
type parsed map[string]*field

var (
	// A list marker, quote marker or heading hashes before a label.
	leadRe = regexp.MustCompile(`^\s*(?:>\s*)*(?:#{1,6}\s+|[-*+]\s+|\d+[.)]\s+)?`)
	// Emphasis markers Markdown wraps around labels and values.
	emphRe = regexp.MustCompile(`\*\*|__|\*|~~`)
	// "Unverified behaviour" is accepted beside the specification's spelling.
	labelRe = regexp.MustCompile(`(?i)^(server source created|boundary tests run|exact passage manually checked|client and transport|integration demonstrated|unverified behaviou?r)\s*(?::|\s-\s|\s–\s|\s—\s|$)`)
	headRe  = regexp.MustCompile(`^\s*#{1,6}\s`)
)

// parse finds the six fields. A field's value is the rest of its label's
// line plus the lines that follow, up to the next label or heading; a
// Markdown table row "| label | value |" is read too.
func parse(text string) parsed {
	p := parsed{}
	var cur *field
	for i, raw := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		ln := srcLine{N: i + 1, Text: raw}
		if name, value, ok := labelLine(raw); ok {
			cur = nil
			if _, dup := p[name]; !dup {
				cur = &field{Name: name, Value: value, Lines: []srcLine{ln}}
				p[name] = cur
			}
			continue
		}
		if headRe.MatchString(raw) {
			cur = nil
			continue
		}
		if cur != nil && strings.TrimSpace(raw) != "" {
			v := clean(leadRe.ReplaceAllString(raw, ""))
			if cur.Value == "" {
				cur.Value = v
			} else {
				cur.Value += "\n" + v
			}
			cur.Lines = append(cur.Lines, ln)
		}
	}
	return p
}

// labelLine recognises "label: value" however emphasised or listed, and
// "| label | value |".
func labelLine(raw string) (name, value string, ok bool) {
	s := raw
	if t := strings.TrimSpace(s); strings.HasPrefix(t, "|") {
		cells := strings.Split(strings.Trim(t, "|"), "|")
		if len(cells) < 2 {
			return "", "", false
		}
		name, ok = canonical(clean(cells[0]))
		if !ok {
			return "", "", false
		}
		return name, clean(strings.Join(cells[1:], "|")), true
	}
	s = stripEmphasis(leadRe.ReplaceAllString(s, ""))
	m := labelRe.FindStringSubmatchIndex(s)
	if m == nil {
		return "", "", false
	}
	name, ok = canonical(s[m[2]:m[3]])
	if !ok {
		return "", "", false
	}
	return name, clean(s[m[1]:]), true
}

func canonical(label string) (string, bool) {
	l := strings.ToLower(strings.TrimSpace(strings.TrimRight(strings.TrimSpace(label), ":")))
	if l == "unverified behaviour" {
		l = "unverified behavior"
	}
	for _, f := range fieldNames {
		if strings.ToLower(f) == l {
			return f, true
		}
	}
	return "", false
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
