package checks

import (
	"regexp"
	"strconv"
	"testing"
)

// Every check names its rules in words a completion record can be read
// with, and each acceptance check refines the test of its own number.
func TestChecksSayTheirRules(t *testing.T) {
	for _, c := range All() {
		exprs := []string{c.Says, c.Forbids, c.Keeps}
		for _, p := range c.Parts {
			exprs = append(exprs, p.Says, p.Findings)
			if p.Says == "" || p.Findings == "" {
				t.Errorf("check %s: a part without words or findings: %+v", c.ID, p)
			}
		}
		for _, e := range exprs {
			if _, err := regexp.Compile(e); err != nil {
				t.Errorf("check %s: %v", c.ID, err)
			}
		}
		if c.Says == "" {
			t.Errorf("check %s says nothing of its rules", c.ID)
		}
		if c.Test < 0 || c.Test > 8 {
			t.Errorf("check %s refines test %d, not one of the eight", c.ID, c.Test)
		}
		if c.Section == SectionAcceptance && strconv.Itoa(c.Test) != c.ID {
			t.Errorf("acceptance check %s refines test %d", c.ID, c.Test)
		}
	}
	// A part's findings are matched against the messages its check's
	// judge writes: check 6's oversized file and query.
	for _, tc := range []struct {
		part int
		msg  string
	}{
		{0, "oversized.md (over 102400 bytes) was searched and named as a result"},
		{1, "201-character query was accepted (isError false)"},
	} {
		if !regexp.MustCompile(parts6[tc.part].Findings).MatchString(tc.msg) {
			t.Errorf("check 6 part %d does not match its finding %q", tc.part, tc.msg)
		}
	}
}
