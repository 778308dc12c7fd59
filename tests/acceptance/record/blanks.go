package record

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

var (
	todoRe        = regexp.MustCompile(`^(?:todo|tbd|tba|fixme|xxx|to be (?:done|filled in|written))\b`)
	mustacheRe    = regexp.MustCompile(`\{\{[^{}]{0,40}\}\}`)
	angleRe       = regexp.MustCompile(`<[^<>]{1,40}>`)
	bracketRe     = regexp.MustCompile(`\[[^\[\]]{2,40}\](?:[^(]|$)`)
	fillerRe      = regexp.MustCompile(`^[\s,;:./()\-–—]*(?:(?:and|on|by|at|in|via|over|with|,|;|/|-)\s*)*$`)
	notApplicable = regexp.MustCompile(`^(?:n/?a|not applicable|no aplica|sans objet|nicht zutreffend|entfallt|nao se aplica|non applicabile|nvt|nie dotyczy)[\s.!]*$`)
	pointerRe     = regexp.MustCompile(`^(?:see|cf\.?|ver|voir|siehe|vedi|veja|zie|patrz)\s+(?:the\s+|el\s+|le\s+|die\s+|o\s+|il\s+|de\s+)?(above|below|arriba|abajo|ci-dessus|ci-dessous|oben|unten|acima|abaixo|sopra|sotto|hierboven|hieronder|powyzej|ponizej|readme(?:\.\w+)?|[\w./-]+\.(?:md|txt|rst|adoc|org|html|log|json))\s*[.!]?$`)
	aboveWords    = wordSet("above arriba ci-dessus oben acima sopra hierboven powyzej")
)

// blankWhy says why a filled-in field is still a blank, or "" when it is
// not: TODO and its kin, a placeholder, N/A with no reason, a pointer at
// what is neither in the record nor in the learner's folder, or the
// label of another field where its value belongs.
func blankWhy(p parsed, f *field, dir string) string {
	v := fold(f.Value)
	first := strings.TrimSpace(strings.SplitN(v, "\n", 2)[0])
	switch {
	case todoRe.MatchString(v):
		return "says " + strings.ToUpper(strings.Fields(v)[0]) + ": not filled in"
	case mustacheRe.MatchString(v):
		return "still holds a placeholder (" + mustacheRe.FindString(v) + ")"
	case placeholderOnly(v):
		return "holds only a placeholder (" + v + ")"
	case notApplicable.MatchString(v):
		return "says N/A without a reason"
	}
	head, _, colon := strings.Cut(first, ":")
	if name, ok := lookupLabel(head); ok && name != f.Name && (colon || strings.Contains(head, " ")) {
		return fmt.Sprintf("holds the label %q of another field, not a value", name)
	}
	if m := pointerRe.FindStringSubmatch(v); m != nil && !pointsAtSomething(p, f, m[1], dir) {
		return fmt.Sprintf("points at %q, which is neither in the record nor in the learner's folder", m[1])
	}
	return ""
}

// placeholderOnly reports whether a value is nothing but placeholders
// such as <name> or [date], with the words that join them.
func placeholderOnly(v string) bool {
	if !angleRe.MatchString(v) && !bracketRe.MatchString(v) {
		return false
	}
	rest := bracketRe.ReplaceAllString(angleRe.ReplaceAllString(v, " "), " ")
	return fillerRe.MatchString(rest)
}

// pointsAtSomething reports whether "see X" finds X: above or below the
// field, a heading or line of the record naming it, or a regular file of
// that name in the learner's folder.
func pointsAtSomething(p parsed, f *field, target, dir string) bool {
	first, last := f.Lines[0].N, f.Lines[len(f.Lines)-1].N
	switch {
	case aboveWords[target]:
		return contentBetween(p, 1, first-1)
	case strings.Contains(target, "."), strings.HasPrefix(target, "readme"):
		for _, d := range p.lines {
			if d.N != first && strings.Contains(fold(d.Text), strings.TrimSuffix(target, filepath.Ext(target))) {
				return true
			}
		}
		if dir == "" {
			return false
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			return false
		}
		for _, e := range entries {
			name := strings.ToLower(e.Name())
			if (name == target || strings.TrimSuffix(name, filepath.Ext(name)) == target) && e.Type().IsRegular() {
				return true
			}
		}
		return false
	default: // below
		return contentBetween(p, last+1, len(p.lines))
	}
}

// contentBetween reports whether lines from..to hold anything but field
// labels, headings and blank lines.
func contentBetween(p parsed, from, to int) bool {
	for n := from; n <= to && n <= len(p.lines); n++ {
		if n < 1 {
			continue
		}
		d := p.lines[n-1]
		if d.label || d.kind == kindBlank || d.kind == kindHeading || d.kind == kindFence {
			continue
		}
		if strings.TrimSpace(d.body) != "" || d.kind == kindCode {
			return true
		}
	}
	return false
}
