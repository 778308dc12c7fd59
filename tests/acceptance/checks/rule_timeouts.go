package checks

import "fmt"

// ruleTimeouts: every request is answered within the limit. A request
// that timed out is charged to check 6 (which promises prompt answers)
// unless the check that sent it already failed on it.
var ruleTimeouts = &Rule{
	Name:  "timeouts",
	Owner: check6,
	Needs: []need{needTimeouts, needTimeLimit},
	Judge: func(f *Facts) Verdict {
		var v Verdict
		for _, t := range f.Timeouts {
			if t.Check == check6.ID || t.Charged {
				continue
			}
			v.Findings = append(v.Findings, Finding{
				Msg:  fmt.Sprintf("during check %s: %s got no answer within %s", t.Check, t.Method, f.TimeLimit),
				Step: t.Step,
			})
		}
		return v
	},
}
