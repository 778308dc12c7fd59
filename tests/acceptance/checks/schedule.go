package checks

// A Stage is one server process of a run, or one kind of them, and the
// checks whose probes run in it, in order.
type Stage struct {
	Kind   StageKind
	Checks []*Check
}

// StageKind says how the harness starts the process of a stage; a check
// names its own in Check.Process.
type StageKind int

const (
	// Shared: one process for the stage's checks, started again for the
	// next check whenever a check leaves the server dead or silent.
	Shared StageKind = iota
	// OwnProcess: a process of its own, judged also on how it ends when its
	// stdin closes.
	OwnProcess
	// Raw: the protocol session, which writes JSON-RPC lines itself.
	Raw
	// WithPlanting: a process of its own over a root with the check's
	// Planting in place.
	WithPlanting
	// RunWide: no process; the check judges what every process did.
	RunWide
)

// schedule is the order of a run's processes, derived from the checks'
// values once.
var schedule = deriveSchedule(all)

// deriveSchedule orders the processes of a run from the checks' Process:
// in report order, consecutive checks of one kind share a stage, and a
// shared process goes on past the checks that run in none (RunWide);
// the checks whose process has fixtures planted around it (WithPlanting) run
// each alone, after every other, so that what is planted
// for them is in no other check's root. Requirements hold in the order
// this gives (TestScheduleKeepsRequirements).
func deriveSchedule(list []*Check) []Stage {
	var out, planted []Stage
	for _, c := range list {
		switch c.Process {
		case RunWide:
			continue
		case WithPlanting:
			planted = append(planted, Stage{Kind: c.Process, Checks: []*Check{c}})
			continue
		}
		if n := len(out); n > 0 && out[n-1].Kind == c.Process && c.Process != OwnProcess {
			out[n-1].Checks = append(out[n-1].Checks, c)
			continue
		}
		out = append(out, Stage{Kind: c.Process, Checks: []*Check{c}})
	}
	return append(out, planted...)
}

// Schedule lists the stages of a run in the order the harness runs them.
func Schedule() []Stage { return schedule }

// Integration is check 8, the specification's integration test: it owns
// what keeps a client from a server (a start that fails, replies no
// client reads, a process over the sandbox's limits).
func Integration() *Check { return check8 }

// InIntegration reports whether c is the integration test (check 8) or
// one of the protocol basics under it.
func (c *Check) InIntegration() bool {
	return c == check8 || c.Section == SectionProtocol
}

// ServerStart is check 1, the first check run: its process is the
// server's first start, so when the server never starts it is the check
// that says so, and every other check is not run.
func ServerStart() *Check { return check1 }

// GeneratedPhase is check 1, the exact-passage check: the generated phase
// runs as its process and notes under it why the phase did not run.
func GeneratedPhase() *Check { return check1 }

// FileStates is check 7, which judges the fixtures' state after the run.
func FileStates() *Check { return check7 }

// HomeAndTemp is check 16, which judges what every process left in its
// fresh HOME and TMPDIR.
func HomeAndTemp() *Check { return check16 }
