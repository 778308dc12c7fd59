package checks

// A need names one part of Facts. A check declares in Needs the parts
// its judge reads, as a go/analysis Analyzer declares what it Requires:
// the harness hands the judge only those (JudgeOn), so a judge that reads
// a part it does not declare finds it empty, and every transcript is
// replayed both ways to show that none does
// (TestJudgesReadOnlyWhatTheyNeed).
type need int

const (
	needFixtures need = iota
	needPathTools
	needToolArgs
	needResources
	needNotes
	needSignIn
	needTruth
	needExchanges
	needStderr
	needNegotiated
	needEnded
	needProcesses
	needTimeouts
	needTimeLimit
	needNotStarted
	needFiles
	needOtherFiles
	needCalls
	needAnswered
	needHomeDirs
	needLeftovers
	needSecrets
	needOutsideNames
	needOutputs
	needCount // the number of needs, not one of them
)

// copy sets the part of to that n names from from.
func (n need) copy(to, from *Facts) {
	switch n {
	case needFixtures:
		to.Fixtures = from.Fixtures
	case needPathTools:
		to.PathTools = from.PathTools
	case needToolArgs:
		to.ToolArgs = from.ToolArgs
	case needResources:
		to.Resources = from.Resources
	case needNotes:
		to.Notes = from.Notes
	case needSignIn:
		to.SignIn = from.SignIn
	case needTruth:
		to.Truth = from.Truth
	case needExchanges:
		to.Exchanges = from.Exchanges
	case needStderr:
		to.Stderr = from.Stderr
	case needNegotiated:
		to.Negotiated = from.Negotiated
	case needEnded:
		to.Ended = from.Ended
	case needProcesses:
		to.Processes = from.Processes
	case needTimeouts:
		to.Timeouts = from.Timeouts
	case needTimeLimit:
		to.TimeLimit = from.TimeLimit
	case needNotStarted:
		to.NotStarted = from.NotStarted
	case needFiles:
		to.Files = from.Files
	case needOtherFiles:
		to.OtherFiles = from.OtherFiles
	case needCalls:
		to.Calls = from.Calls
	case needAnswered:
		to.Answered = from.Answered
	case needHomeDirs:
		to.HomeDirs = from.HomeDirs
	case needLeftovers:
		to.Leftovers = from.Leftovers
	case needSecrets:
		to.Secrets = from.Secrets
	case needOutsideNames:
		to.OutsideNames = from.OutsideNames
	case needOutputs:
		to.Outputs = from.Outputs
	}
}

// only returns the parts of f that needs names; the others are zero.
func (f *Facts) only(needs []need) *Facts {
	out := &Facts{}
	for _, n := range needs {
		n.copy(out, f)
	}
	return out
}

// JudgeOn runs the check's judge on the parts of f the check declares in
// Needs.
func (c *Check) JudgeOn(f *Facts) Verdict { return c.Judge(f.only(c.Needs)) }

// JudgeOn runs the rule's judge on the parts of f the rule declares in
// Needs.
func (r *Rule) JudgeOn(f *Facts) Verdict { return r.Judge(f.only(r.Needs)) }
