package checks

import "fmt"

// ruleStdout: stdout carries only JSON-RPC, in every server process of
// the run. Check 8 states the rule.
var ruleStdout = &Rule{
	Name:  "stdout hygiene",
	Owner: check8,
	Needs: []need{needProcesses},
	Judge: func(f *Facts) Verdict {
		var v Verdict
		for _, p := range f.Processes {
			if p.BadCount == 0 {
				continue
			}
			shown := p.BadLines
			if len(shown) > 5 {
				shown = shown[:5]
			}
			first := ""
			if len(p.BadLines) > 0 {
				first = p.BadLines[0]
			}
			v.Findings = append(v.Findings, Finding{
				Msg:    fmt.Sprintf("stdout carried %d non-JSON-RPC line(s) in %s; the first: %s", p.BadCount, ProcessOf(p.Checks), first),
				Detail: shown,
				Hint:   "Write only JSON-RPC messages to stdout; send banners, logs and prints to stderr.",
			})
		}
		if len(v.Findings) == 0 {
			v.Summary = "stdout of every server process carried only JSON-RPC"
		}
		return v
	},
}
