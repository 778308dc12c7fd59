package record

import (
	"fmt"
	"regexp"
	"strings"
)

// Fields a record names with labels the table does not know are found by
// the specification's order, and fields a record writes as prose by the
// words of their sentences; either way a person reads what was found so.

var (
	// keyLineRe is a line shaped "key: value" whose key is a few words.
	keyLineRe = regexp.MustCompile(`^([^:：|]{1,60}?)\s*[:：]\s*(.*)$`)
	// proseCues are the words by which a sentence of prose gives a field.
	proseCues = []struct {
		field string
		re    *regexp.Regexp
	}{
		{fieldUnverified, regexp.MustCompile(`\bnot (?:verified|tested|checked)\b|\bunverified\b|\buntested\b|\bhaven'?t (?:verified|tested|checked)\b|\bdid(?: not|n't) (?:verify|test|check)\b|\bno he (?:verificado|probado)\b|\bpas (?:verifie|teste)\b|\bnicht (?:verifiziert|getestet|gepruft)\b|\bnao (?:verifiquei|testei|verificad\w*)\b|\bnon (?:verificat\w*|testat\w*)\b`)},
		{fieldPassage, regexp.MustCompile(`\b(?:passage|n2|sign-in|pasaje|passagem|passaggio|textstelle)\b`)},
		{fieldIntegration, regexp.MustCompile(`\bintegrat\w*|\bdemonstrat\w*|\bintegraci\w*|\bintegraca\w*|\bintegrazion\w*`)},
		{fieldTransport, regexp.MustCompile(`\bstdio\b|\btransport\w*|\bstreamable http\b|\bsse\b`)},
		{fieldBoundary, regexp.MustCompile(`\bacceptance\b|\bboundary\b|\bharness\b|\bchecks?\b|\bthegrader\b|\bacceptance\.sh\b|\bpruebas\b|\btestes\b|\bgrenztests?\b`)},
		{fieldSource, regexp.MustCompile(`\bsource\b|\bcode\b|\brepo(?:sitory)?\b|\b[\w-]+\.(?:py|go|ts|js|mjs|rs|java|rb|cs|kt)\b|\bcodigo\b|\bquellcode\b|\bcodice\b`)},
	}
	sentenceRe = regexp.MustCompile(`[.!?;]\s+`)
)

// findUnlabelled gives the fields no label found: by the specification's
// order where unknown labels stand between known ones, else from the
// sentences of prose paragraphs. It reports the lines a person must read
// and whether the record is in a language or format the reader does not
// know (no field found at all).
func findUnlabelled(p *parsed) (review []Quoted, unknown bool) {
	if len(p.fields) == len(fieldNames) {
		return nil, false
	}
	byLabel := len(p.fields)
	review = byOrder(p)
	if len(p.fields) < len(fieldNames) {
		fromProse(p)
	}
	if byLabel == 0 && len(review) == 0 && len(p.fields) < len(fieldNames) && substantial(p) {
		return []Quoted{{Line: firstLine(p), Quote: strings.TrimSpace(p.lines[firstLine(p)-1].Text),
			Why: "no field of the specification found by a label or in sentences the reader knows: a language or format it does not read"}}, true
	}
	return review, false
}

// byOrder assigns unknown "key: value" lines to the missing fields between
// the known ones, when they are exactly as many as the fields missing.
func byOrder(p *parsed) []Quoted {
	type anchor struct{ n, field int }
	anchors := []anchor{{0, -1}}
	for i, name := range fieldNames {
		if f, ok := p.fields[name]; ok {
			anchors = append(anchors, anchor{f.Lines[0].N, i})
		}
	}
	anchors = append(anchors, anchor{len(p.lines) + 1, len(fieldNames)})
	var review []Quoted
	for i := 0; i+1 < len(anchors); i++ {
		lo, hi := anchors[i], anchors[i+1]
		if hi.n-1 < lo.n || hi.field-lo.field < 2 {
			continue
		}
		var cands []*docLine
		for _, d := range p.lines[lo.n : hi.n-1] {
			if !d.label && d.kind == kindProse && keyLineRe.MatchString(strings.TrimSpace(d.body)) && len(strings.Fields(keyLineRe.FindStringSubmatch(d.body)[1])) <= 6 {
				cands = append(cands, d)
			}
		}
		if len(cands) != hi.field-lo.field-1 {
			continue
		}
		for j, d := range cands {
			name := fieldNames[lo.field+1+j]
			m := keyLineRe.FindStringSubmatch(strings.TrimSpace(d.body))
			if d.field != "" {
				cut(p, p.fields[d.field], d.N)
			}
			p.fields[name] = &field{Name: name, Value: clean(m[2]), Lines: []srcLine{d.srcLine}}
			d.field, d.label, d.body = name, true, clean(m[2])
			review = append(review, Quoted{Field: name, Line: d.N, Quote: strings.TrimSpace(d.Text),
				Why: fmt.Sprintf("the label %q is not one the reader knows: read as %q by the specification's order, and its claims are not read", strings.TrimSpace(m[1]), name)})
		}
	}
	return review
}

// fromProse finds each missing field in the first sentence of prose
// outside the fields that speaks of it.
func fromProse(p *parsed) {
	type at struct{ line, sentence int }
	taken := map[at]bool{}
	for _, cue := range proseCues {
		if _, ok := p.fields[cue.field]; ok {
			continue
		}
	lines:
		for _, d := range p.lines {
			if d.field != "" || d.kind != kindProse {
				continue
			}
			for i, s := range sentenceRe.Split(d.body, -1) {
				if !taken[at{d.N, i}] && cue.re.MatchString(fold(s)) {
					p.fields[cue.field] = &field{Name: cue.field, Value: strings.TrimSpace(s), Lines: []srcLine{d.srcLine}}
					taken[at{d.N, i}] = true
					break lines
				}
			}
		}
	}
}

// substantial reports whether a record holds enough lines to be a record.
func substantial(p *parsed) bool {
	n := 0
	for _, d := range p.lines {
		if d.kind != kindBlank {
			n++
		}
	}
	return n >= 3
}

func firstLine(p *parsed) int {
	for _, d := range p.lines {
		if d.kind != kindBlank {
			return d.N
		}
	}
	return 1
}

// cut ends a field before line n, which holds a field of its own.
func cut(p *parsed, f *field, n int) {
	var lines []srcLine
	var parts []string
	for _, l := range f.Lines {
		if l.N >= n {
			break
		}
		lines = append(lines, l)
		parts = append(parts, p.lines[l.N-1].body)
	}
	for _, d := range p.lines[n-1:] {
		if d.field == f.Name && !d.label {
			d.field = ""
		}
	}
	f.Lines, f.Value = lines, strings.TrimLeft(strings.Join(parts, "\n"), "\n")
}
