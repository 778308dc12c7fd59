// Package record reads a learner's completion record (the specification's
// six "Completion record" fields, as in COMPLETION.md) as an instructor
// reads it, and grades it against an acceptance run: missing, contradicted,
// incomplete, review or consistent. Every contradiction quotes the record's
// line beside the evidence of the check that refutes it; a line it does not
// understand is quoted for a person to read (review), never taken as
// consistent; it never edits a record. Generate writes a record for a run, which the same reader
// recognises and compares with the run it is graded against.
package record

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"practice-notes/tests/acceptance/checks"
)

// Run is the part of an acceptance run (`acceptance --json`) that a record
// is graded against. Fields beyond these are kept by callers as raw JSON.
type Run struct {
	// Date is when the run started; a record's date after it is reported.
	Date   time.Time `json:"date"`
	Server string    `json:"server"`
	// ServerSource is --server-source: where the caller says the source is.
	ServerSource string `json:"serverSource,omitempty"`
	// Transport, HarnessSDK and N2 go into a generated record.
	Transport  string  `json:"transport,omitempty"`
	HarnessSDK string  `json:"harnessSDK,omitempty"`
	N2         *N2     `json:"n2,omitempty"`
	Isolation  string  `json:"isolation"`
	Passed     int     `json:"passed"`
	Failed     int     `json:"failed"`
	Warnings   int     `json:"warnings"`
	Skipped    int     `json:"skipped"`
	Checks     []Check `json:"checks"`
	// Seed is the generated cases' seed: --seed replays them.
	Seed uint64 `json:"seed,omitempty"`
	// Unanswered lists the calls that got no answer within the limit.
	Unanswered []Unanswered `json:"unanswered,omitempty"`
}

// Unanswered is a call of the run that got no answer within the limit:
// the check that sent it, the phase when not the check's own probe, its
// method and the harness's words for the timeout.
type Unanswered struct {
	Check  string `json:"check"`
	Phase  string `json:"phase,omitempty"`
	Method string `json:"method"`
	Error  string `json:"error"`
}

// N2 is where the harness found the N2 passage, and whether the reply
// held it byte for byte.
type N2 struct {
	File      string `json:"file"`
	StartLine int    `json:"startLine"`
	EndLine   int    `json:"endLine"`
	Identical bool   `json:"identical"`
}

// Check is one verdict of a run.
type Check struct {
	ID       string        `json:"id"`
	Section  string        `json:"section"`
	Title    string        `json:"title"`
	Status   checks.Status `json:"status"`
	Evidence string        `json:"evidence"`
	Hint     string        `json:"hint"`
	// Notes change no status: check 16's name the files a runtime wrote
	// by itself, which are not charged.
	Notes []string `json:"notes,omitempty"`
}

// ErrBadRun reports harness output that does not follow the contract.
var ErrBadRun = errors.New("acceptance output not in the --json shape")

// DecodeRun reads one run and checks that its counts agree with its checks,
// so that a truncated or foreign document is refused rather than graded.
func DecodeRun(r io.Reader) (*Run, error) {
	var run Run
	dec := json.NewDecoder(r)
	if err := dec.Decode(&run); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadRun, err)
	}
	if err := run.validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadRun, err)
	}
	return &run, nil
}

func (r *Run) validate() error {
	if len(r.Checks) == 0 {
		return errors.New("no checks")
	}
	counts := map[checks.Status]int{}
	seen := map[string]bool{}
	for _, c := range r.Checks {
		if c.ID == "" {
			return errors.New("a check has no id")
		}
		if seen[c.ID] {
			return fmt.Errorf("check id %q appears twice", c.ID)
		}
		seen[c.ID] = true
		switch c.Status {
		case checks.StatusPass, checks.StatusFail, checks.StatusWarn, checks.StatusSkip:
			counts[c.Status]++
		default:
			return fmt.Errorf("check %s has status %q", c.ID, c.Status)
		}
	}
	if counts[checks.StatusPass] != r.Passed || counts[checks.StatusFail] != r.Failed ||
		counts[checks.StatusWarn] != r.Warnings || counts[checks.StatusSkip] != r.Skipped {
		return fmt.Errorf("counts %d passed, %d failed, %d warnings, %d skipped disagree with the checks",
			r.Passed, r.Failed, r.Warnings, r.Skipped)
	}
	return nil
}

// FailedIDs lists the ids of the failed checks in run order.
func (r *Run) FailedIDs() []string {
	var ids []string
	for _, c := range r.Checks {
		if c.Status == checks.StatusFail {
			ids = append(ids, c.ID)
		}
	}
	return ids
}

// Find returns the check with this id, or nil.
func (r *Run) Find(id string) *Check {
	for i := range r.Checks {
		if r.Checks[i].ID == id {
			return &r.Checks[i]
		}
	}
	return nil
}

// isIntegration reports whether the check is the specification's
// integration test, tool discovery and the tool-call flow, or one of its
// sub-checks.
func (c *Check) isIntegration() bool {
	def, ok := checks.ByID(c.ID)
	return ok && def.InIntegration()
}

// CompareIDs orders check ids numerically part by part ("2" < "8" < "8.1"
// < "10"), with ids that are not numbers after all numbers, by text.
func CompareIDs(a, b string) int {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(pa) && i < len(pb); i++ {
		na, ea := strconv.Atoi(pa[i])
		nb, eb := strconv.Atoi(pb[i])
		switch {
		case ea == nil && eb == nil:
			if na != nb {
				return cmpInt(na, nb)
			}
		case ea == nil:
			return -1
		case eb == nil:
			return 1
		default:
			if c := strings.Compare(pa[i], pb[i]); c != 0 {
				return c
			}
		}
	}
	return cmpInt(len(pa), len(pb))
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
