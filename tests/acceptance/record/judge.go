package record

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"time"
)

// State is the one-word grade of a record.
type State string

// The five states, from the most to the least serious. Every field and
// claim line ends in one of three outcomes: understood and true,
// understood and refuted (a contradiction, with the finding), or not
// understood (a line in Unread). A record with no refuted claim and no
// blank field but a line not understood is Review: a person reads the
// lines quoted, and the reader does not guess.
const (
	Missing      State = "missing"
	Contradicted State = "contradicted"
	Incomplete   State = "incomplete"
	Review       State = "review"
	Consistent   State = "consistent"
)

// Problem is a reason the record is incomplete.
type Problem struct {
	Field string `json:"field"`
	Why   string `json:"why"`
	// Line is the field's first line, or 0 when the field is absent.
	Line int `json:"line,omitempty"`
}

// Contradiction is a claim of the record that the run refutes. Each claim
// line is reported once.
type Contradiction struct {
	Field string `json:"field"`
	// Line and Quote are the record's line, as written.
	Line  int    `json:"line"`
	Quote string `json:"quote"`
	// Claim says in words what the line claims.
	Claim string `json:"claim"`
	// Checks are every check of the run that refutes it, with their full
	// evidence.
	Checks []Check `json:"checks"`
	// Check is the refuting check whose evidence line is quoted here, and
	// Evidence that line; empty when every refuting check's line was
	// already quoted under an earlier contradiction.
	Check    string `json:"check,omitempty"`
	Evidence string `json:"evidence,omitempty"`
	// See lists the other refuting checks, for "see check N".
	See []string `json:"see,omitempty"`
}

// Quoted is a line of the record quoted for a person to read.
type Quoted struct {
	Field string `json:"field,omitempty"`
	Line  int    `json:"line"`
	Quote string `json:"quote"`
	Why   string `json:"why"`
}

// Verdict is the grade of one record against one run.
type Verdict struct {
	State          State           `json:"state"`
	File           string          `json:"file"`
	Problems       []Problem       `json:"problems,omitempty"`
	Contradictions []Contradiction `json:"contradictions,omitempty"`
	// Unread are the lines the reader did not understand, each with why:
	// a claim that names no test, an exception that names none, a
	// behaviour no check observes, a field found only by the
	// specification's order, a record in a language it does not read, a
	// passage check dated after the run or long before it. Never counted
	// as consistent, they are quoted for a person to read (the Review
	// state). UnreadLines is their number.
	Unread      []Quoted `json:"unread,omitempty"`
	UnreadLines int      `json:"unreadLines"`
	// OwnTests are lines about the learner's own tests, which this run
	// can neither confirm nor refute.
	OwnTests []Quoted `json:"ownTests,omitempty"`
	// Generated is set when the record holds the results block that
	// `scripts/acceptance.sh --learner-record` writes.
	Generated bool `json:"generated,omitempty"`
	// Notes are differences between pasted or generated results and this
	// run that claim no more than it shows (a check the record says failed
	// and this run passed): the record is from another run.
	Notes []string `json:"notes,omitempty"`
}

// CheckFile grades the record at path against run. A file that does not
// exist is Missing; any other read error is returned.
// A record longer than maxRecord is read up to maxRecord and reported
// incomplete: a learner's record is a page, and reading is linear in its
// length (about 0.7 s for 256 KiB on a busy 2-core machine).
func CheckFile(path string, run *Run) (*Verdict, error) {
	// The record is the learner's file: a symlink could make the
	// verdict quote a file of the grader's, and a FIFO would hang it.
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &Verdict{State: Missing, File: path}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading completion record: %w", err)
	}
	notRegular := &Verdict{State: Incomplete, File: path, Problems: []Problem{{Field: "COMPLETION.md",
		Why: "not a regular file (a symbolic link, directory, FIFO or device): not read"}}}
	if !fi.Mode().IsRegular() {
		return notRegular, nil
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("reading completion record: %w", err)
	}
	defer f.Close()
	if fi2, err := f.Stat(); err != nil || !fi2.Mode().IsRegular() || !os.SameFile(fi, fi2) {
		return notRegular, nil
	}
	b, err := io.ReadAll(io.LimitReader(f, maxRecord+1))
	if err != nil {
		return nil, fmt.Errorf("reading completion record: %w", err)
	}
	long := len(b) > maxRecord
	if long {
		b = b[:maxRecord]
	}
	v := judge(string(b), run, filepath.Dir(path))
	v.File = path
	if long {
		v.Problems = append(v.Problems, Problem{Field: "COMPLETION.md", Why: fmt.Sprintf("longer than %d KiB: only its first %d KiB were read", maxRecord>>10, maxRecord>>10)})
		if v.State == Consistent || v.State == Review {
			v.State = Incomplete
		}
	}
	return v, nil
}

const maxRecord = 256 << 10

const whyAbsent = "field absent"

// Judge grades a record's text against run. With a nil run only Missing
// and Incomplete can be decided; no claim is contradicted.
func Judge(text string, run *Run) *Verdict { return judge(text, run, "") }

// judge grades a record whose "see README" may point into the learner's
// folder dir ("" for none).
func judge(text string, run *Run, dir string) *Verdict {
	v := &Verdict{}
	if strings.TrimSpace(text) == "" {
		v.State = Missing
		return v
	}
	p := parse(text)
	unlabelled, unknown := findUnlabelled(&p)
	var review []Quoted
	v.Problems, review = completeness(p, run, dir)
	if run != nil {
		readClaims(p, run, v)
	}
	if unknown {
		// Fields the reader cannot find in a language it does not know
		// are not known to be absent.
		v.Problems = slices.DeleteFunc(v.Problems, func(pr Problem) bool { return pr.Why == whyAbsent })
	}
	v.Unread = append(append(unlabelled, review...), v.Unread...)
	seen := map[int]bool{}
	v.Unread = slices.DeleteFunc(v.Unread, func(q Quoted) bool {
		dup := seen[q.Line]
		seen[q.Line] = true
		return dup
	})
	v.UnreadLines = len(v.Unread)
	switch {
	case len(v.Contradictions) > 0:
		v.State = Contradicted
	case len(v.Problems) > 0:
		v.State = Incomplete
	case len(v.Unread) > 0:
		v.State = Review
	default:
		v.State = Consistent
	}
	return v
}

var negativeStartRe = regexp.MustCompile(`^(?:no|not|none|nobody|no one|pending|n/?a|todo|tbd|planned|later|unknown|nein|non|nao|nadie|personne|niemand|nessuno|ninguem|pendiente|en attente|ausstehend|pendente|in sospeso|-|—|–)(?:\b|$)`)

func runYear(run *Run) (int, time.Time) {
	if run == nil || run.Date.IsZero() {
		return 0, time.Time{}
	}
	d := run.Date.UTC()
	return d.Year(), time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, time.UTC)
}

func completeness(p parsed, run *Run, dir string) (out []Problem, review []Quoted) {
	_, day := runYear(run)
	for _, name := range fieldNames {
		f, ok := p.fields[name]
		switch {
		case !ok:
			out = append(out, Problem{Field: name, Why: whyAbsent})
			continue
		case strings.TrimSpace(strings.Trim(f.Value, "_ ")) == "":
			out = append(out, Problem{Field: name, Why: "empty or still ___", Line: f.Lines[0].N})
			continue
		case strings.Contains(f.Value, "___"):
			out = append(out, Problem{Field: name, Why: "still has a ___ blank", Line: f.Lines[0].N})
			continue
		}
		if why := blankWhy(p, f, dir); why != "" {
			out = append(out, Problem{Field: name, Why: why, Line: f.Lines[0].N})
			continue
		}
		if name != fieldPassage {
			continue
		}
		pr, q := passageCheck(p, f, day)
		out, review = append(out, pr...), append(review, q...)
	}
	return out, review
}

// passageCheck reads "Exact passage manually checked": a person and a
// date are required; a date after the run, or long before it, is for a
// person to read.
func passageCheck(p parsed, f *field, day time.Time) ([]Problem, []Quoted) {
	var missing []string
	value := fold(f.Value)
	if negativeStartRe.MatchString(value) || planRe.MatchString(value) && !passageMatchRe.MatchString(value) {
		return []Problem{{Field: f.Name, Why: "says no person has checked it", Line: f.Lines[0].N}}, nil
	}
	ref := recordDate(p, day)
	if ok, why := person(f.Value, namesAuthor(p, ref), ref); !ok {
		missing = append(missing, why)
	}
	found, dates, _ := datesIn(f.Value, ref)
	if !found {
		missing = append(missing, "gives no date")
	}
	var review []Quoted
	if why := dateDoubt(dates, day); why != "" && len(missing) == 0 {
		review = append(review, Quoted{Field: f.Name, Line: f.Lines[0].N, Quote: strings.TrimSpace(f.Lines[0].Text), Why: why})
	}
	if len(missing) > 0 {
		return []Problem{{Field: f.Name, Why: strings.Join(missing, " and "), Line: f.Lines[0].N}}, nil
	}
	return nil, review
}

func allAfter(ds []time.Time, day time.Time) bool {
	for _, d := range ds {
		if !d.After(day) {
			return false
		}
	}
	return true
}

// claimsDone reads a field such as "Integration demonstrated" as a yes
// unless it denies or defers it.
func claimsDone(value string) bool {
	v := fold(value)
	if v == "" || strings.Contains(v, "___") {
		return false
	}
	return !negativeStartRe.MatchString(v) && !planRe.MatchString(v) && !failRe.MatchString(v) && !strings.Contains(v, "not demonstrated")
}
