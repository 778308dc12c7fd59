package record

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"strings"
)

// State is the one-word grade of a record.
type State string

// The four states, from the most to the least serious.
const (
	Missing      State = "missing"
	Contradicted State = "contradicted"
	Incomplete   State = "incomplete"
	Consistent   State = "consistent"
)

// Problem is a reason the record is incomplete.
type Problem struct {
	Field string `json:"field"`
	Why   string `json:"why"`
	// Line is the field's first line, or 0 when the field is absent.
	Line int `json:"line,omitempty"`
}

// Contradiction is a claim of the record that the run refutes.
type Contradiction struct {
	Field string `json:"field"`
	// Line and Quote are the record's line, as written.
	Line  int    `json:"line"`
	Quote string `json:"quote"`
	// Claim says in words what the line claims.
	Claim string `json:"claim"`
	// Refuted by these checks of the run (with their evidence).
	Checks []Check `json:"checks"`
}

// Verdict is the grade of one record against one run.
type Verdict struct {
	State          State           `json:"state"`
	File           string          `json:"file"`
	Problems       []Problem       `json:"problems,omitempty"`
	Contradictions []Contradiction `json:"contradictions,omitempty"`
}

// CheckFile grades the record at path against run. A file that does not
// exist is Missing; any other read error is returned.
func CheckFile(path string, run *Run) (*Verdict, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &Verdict{State: Missing, File: path}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading completion record: %w", err)
	}
	v := Judge(string(b), run)
	v.File = path
	return v, nil
}

// Judge grades a record's text against run. With a nil run only Missing
// and Incomplete can be decided; no claim is contradicted.
func Judge(text string, run *Run) *Verdict {
	v := &Verdict{}
	if strings.TrimSpace(text) == "" {
		v.State = Missing
		return v
	}
	p := parse(text)
	v.Problems = completeness(p)
	if run != nil {
		v.Contradictions = contradictions(p, run)
	}
	switch {
	case len(v.Contradictions) > 0:
		v.State = Contradicted
	case len(v.Problems) > 0:
		v.State = Incomplete
	default:
		v.State = Consistent
	}
	return v
}

var (
	negativeStartRe = regexp.MustCompile(`(?i)^(?:no|not|none|pending|n/?a|todo|tbd|planned|later|unknown|nobody|-|—|–)(?:\b|$)`)
	dateRe          = regexp.MustCompile(`(?i)\b\d{4}-\d{1,2}-\d{1,2}\b|\b\d{4}/\d{1,2}/\d{1,2}\b|\b\d{1,2}[./]\d{1,2}[./]\d{2,4}\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}\b|\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?,?\s+\d{4}\b`)
	byNameRe        = regexp.MustCompile(`(?i)\bby\s+(@?[\p{L}][\p{L}'’.-]*)`)
	capWordRe       = regexp.MustCompile(`\b\p{Lu}[\p{Ll}'’]+(?:-\p{Lu}[\p{Ll}'’]+)?\b|@[\w.-]+|[\w.+-]+@[\w-]+\.[\w.]+`)
)

// notNames are capitalised words a passage line uses that name no person.
var notNames = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`yes no not none pending checked compared manually manual verified
		confirmed done matches matched match identical exact exactly passage passages sample notes note
		on by the it i we and with against in of at to a an this that these those same both see
		ok okay true today yesterday n2 file files line lines byte bytes harness script scripts test
		tests tested read looked looks look reviewed review me myself self hand eye eyes diff
		january february march april may june july august september october november december
		jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday
		saturday sunday utc gmt claude desktop cursor code vs md markdown python go node mcp stdio
		server client tool sign sign-in signin found returned output result results character
		characters all every whitespace including correct correctly person nobody later todo tbd`) {
		notNames[w] = true
	}
}

// namesPerson reports whether the text names someone: the word after "by"
// or a capitalised word that is not a common word, a handle or an email.
func namesPerson(text string) bool {
	text = dateRe.ReplaceAllString(text, " ")
	for _, m := range byNameRe.FindAllStringSubmatch(text, -1) {
		if !notNames[strings.ToLower(strings.Trim(m[1], ".-'’"))] {
			return true
		}
	}
	for _, w := range capWordRe.FindAllString(text, -1) {
		if strings.ContainsRune(w, '@') {
			return true
		}
		if !notNames[strings.ToLower(w)] {
			return true
		}
	}
	return false
}

func completeness(p parsed) []Problem {
	var out []Problem
	for _, name := range fieldNames {
		f, ok := p[name]
		switch {
		case !ok:
			out = append(out, Problem{Field: name, Why: "field absent"})
			continue
		case strings.TrimSpace(strings.Trim(f.Value, "_")) == "":
			out = append(out, Problem{Field: name, Why: "empty or still ___", Line: f.Lines[0].N})
			continue
		case strings.Contains(f.Value, "___"):
			out = append(out, Problem{Field: name, Why: "still has a ___ blank", Line: f.Lines[0].N})
			continue
		}
		if name != fieldPassage {
			continue
		}
		var missing []string
		if negativeStartRe.MatchString(f.Value) {
			missing = append(missing, "says no person has checked it")
		} else {
			if !namesPerson(f.Value) {
				missing = append(missing, "names no person")
			}
			if !dateRe.MatchString(f.Value) {
				missing = append(missing, "gives no date")
			}
		}
		if len(missing) > 0 {
			out = append(out, Problem{Field: name, Why: strings.Join(missing, " and "), Line: f.Lines[0].N})
		}
	}
	return out
}
