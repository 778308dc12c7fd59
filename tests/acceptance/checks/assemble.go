package checks

import (
	"fmt"
	"strings"

	"practice-notes/tests/acceptance/visible"
)

// Status is a check's verdict, as the report, the record and the class
// pages write it.
type Status string

// Statuses of a check.
const (
	StatusPass Status = "pass"
	StatusFail Status = "fail"
	StatusWarn Status = "warn"
	StatusSkip Status = "skip"
)

// Outcome is what a run found for one check before assembly.
type Outcome struct {
	Findings []Finding // its own, in the order found
	Summary  string
	Notes    []string
	Skip     string // why it did not run
	// NotGraded says why the check's own findings rest on no answer: the
	// transport failed on every call it made (no reply, a dropped
	// session). Its own findings and summary are then set aside and it is
	// reported as skipped with this reason, never PASS; what others
	// charged to it (a leak seen on stderr) still stands.
	NotGraded string
}

// Sighting is an outside byte or path seen somewhere in a run. One
// sighting per owner and key becomes a finding; every other check that
// saw it gets a note pointing to the owner.
type Sighting struct {
	Owner  *Check
	Key    string
	What   string
	During *Check // the check whose process showed it; nil for none
	Where  string
	Step   string
	Quote  []string
	Line   string // the line that showed it, when no exchange does
	Warn   bool
	Hint   string
}

// Found is everything a run found, for Assemble.
type Found struct {
	Outcomes  map[*Check]*Outcome
	Sightings []Sighting
	// Late findings come after the sightings, charged to their Owner
	// (the stdout rule's).
	Late []Finding
	// Cross findings were found while another check ran; they are listed
	// after the owner's own.
	Cross []Finding
}

// Result is the assembled verdict of one check.
type Result struct {
	Check      *Check
	Status     Status
	Evidence   string
	Hint       string
	Summary    string
	SkipReason string
	Failures   []string
	Warnings   []string
	Notes      []string
}

// maxEvidence bounds the evidence lines of one check in the text report.
const maxEvidence = 40

// Assemble is the one place a status is decided: it charges each
// sighting to its owner once, points every other check that saw it to the
// owner, adds late and cross findings, and turns each check's findings
// into its status, evidence and hint, in the order of list.
func Assemble(list []*Check, f Found) []Result {
	own := map[*Check][]Finding{}
	notes := map[*Check][]string{}
	for _, c := range list {
		if o := f.Outcomes[c]; o != nil {
			if o.NotGraded == "" {
				own[c] = append(own[c], o.Findings...)
			}
			notes[c] = append(notes[c], o.Notes...)
		}
	}
	for _, fd := range charge(f.Sightings, notes) {
		own[fd.Owner] = append(own[fd.Owner], fd)
	}
	for _, fd := range f.Late {
		own[fd.Owner] = append(own[fd.Owner], fd)
	}
	for _, fd := range f.Cross {
		own[fd.Owner] = append(own[fd.Owner], fd)
	}
	out := make([]Result, 0, len(list))
	for _, c := range list {
		res := Result{Check: c, Notes: notes[c]}
		if o := f.Outcomes[c]; o != nil {
			res.Summary, res.SkipReason = o.Summary, o.Skip
			if o.NotGraded != "" {
				res.Summary, res.SkipReason = "", o.NotGraded
			}
		}
		res.decide(own[c])
		out = append(out, res)
	}
	return out
}

// charge turns sightings into findings, one per owner and key, and notes
// on the checks that saw what another owns.
func charge(sightings []Sighting, notes map[*Check][]string) []Finding {
	type key struct {
		owner *Check
		key   string
	}
	first := map[key]*Sighting{}
	count := map[key]int{}
	var order []key
	pointed := map[*Check]map[key]bool{}
	for i := range sightings {
		s := &sightings[i]
		k := key{s.Owner, s.Key}
		if first[k] == nil {
			first[k] = s
			order = append(order, k)
		}
		count[k]++
		if s.During != nil && s.During != s.Owner && !pointed[s.During][k] {
			if pointed[s.During] == nil {
				pointed[s.During] = map[key]bool{}
			}
			pointed[s.During][k] = true
			notes[s.During] = append(notes[s.During], fmt.Sprintf("%s showed %s; see check %s", s.Where, s.What, s.Owner.ID))
		}
	}
	var out []Finding
	for _, k := range order {
		s := first[k]
		msg := fmt.Sprintf("%s appeared in %s", s.What, s.Where)
		if s.During != nil && s.During != s.Owner {
			msg = fmt.Sprintf("during check %s: %s", s.During.ID, msg)
		}
		if n := count[k]; n > 1 {
			msg += fmt.Sprintf(" (%d times in the run)", n)
		}
		fd := Finding{Owner: s.Owner, Msg: msg, Step: s.Step, Quote: s.Quote, Warn: s.Warn, Hint: s.Hint}
		if s.Line != "" && s.Step == "" {
			fd.Detail = []string{visible.Clip(s.Line, 300)}
		}
		out = append(out, fd)
	}
	return out
}

// decide sets the status, evidence and hint from the findings.
func (res *Result) decide(all []Finding) {
	for _, f := range all {
		if f.Warn {
			res.Warnings = append(res.Warnings, f.Msg)
		} else {
			res.Failures = append(res.Failures, f.Msg)
		}
	}
	// A summary written while probing says what passed; once a finding
	// stands, the summary is computed from the findings, so that it can
	// never contradict the FAIL and WARN lines under it.
	switch {
	case len(res.Failures) > 0:
		res.Status = StatusFail
		res.Summary = summarize(res.Failures)
	case len(res.Warnings) > 0:
		res.Status = StatusWarn
		res.Summary = summarize(res.Warnings)
	case res.SkipReason != "":
		res.Status = StatusSkip
		res.Evidence, res.Summary = res.SkipReason, res.SkipReason
		return
	default:
		res.Status = StatusPass
		return
	}
	var ev []string
	shown := map[string]bool{}
	hint := ""
	for _, f := range all {
		if f.Warn && res.Status == StatusFail {
			continue // the failures explain a failed check
		}
		label := "FAIL"
		if f.Warn {
			label = "WARN"
		}
		ev = append(ev, label+": "+f.Msg)
		if f.Step != "" && !shown[f.Step] {
			shown[f.Step] = true
			ev = append(ev, f.Quote...)
		}
		for _, d := range f.Detail {
			ev = append(ev, "   "+d)
		}
		if hint == "" {
			hint = f.Hint
		}
	}
	if len(ev) > maxEvidence {
		ev = append(ev[:maxEvidence], fmt.Sprintf("… %d more evidence lines in --json and the record", len(ev)-maxEvidence))
	}
	res.Evidence = strings.Join(ev, "\n")
	if hint == "" {
		hint = res.Check.Hint
	}
	res.Hint = hint
}

// summarize is the one line of a check with findings: the first, and
// how many more.
func summarize(msgs []string) string {
	if n := len(msgs) - 1; n > 0 {
		return fmt.Sprintf("%s (+%d more)", msgs[0], n)
	}
	return msgs[0]
}
