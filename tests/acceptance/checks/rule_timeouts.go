package checks

import "fmt"

// ruleTimeouts: every request is answered within the limit, in every
// server process of the run, the generated phase's too. A request that
// timed out is charged to check 6 (which promises prompt answers) unless
// a check already failed on it: the check that sent it, or for the
// generated phase check 1, which fails on its first unanswered search
// (JudgeGenerated), and check 6 itself for an oversized request line.
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
			during := "check " + t.Check
			if t.Phase != "" {
				during = t.Phase
			}
			v.Findings = append(v.Findings, Finding{
				Msg:  fmt.Sprintf("during %s: %s got no answer within %s", during, t.Method, f.TimeLimit),
				Step: t.Step,
			})
		}
		return v
	},
}
