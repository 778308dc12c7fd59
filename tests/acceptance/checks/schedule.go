package checks

// A Stage is one server process of a run, or one kind of them, and the
// checks whose probes run in it, in order.
type Stage struct {
	Kind   StageKind
	Checks []*Check
}

// StageKind says how the harness starts the process of a stage.
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
	// Traps: a process over a root with the traps that trip a naive
	// reader in place.
	Traps
	// Unreadable: a process over a root with an unreadable note in place.
	Unreadable
)

// schedule is the order of a run's processes. Checks 7 and 16 are in no
// stage: they send nothing and judge what every process did.
var schedule = []Stage{
	{Shared, []*Check{check1, check2, check3, check4, check5, check6}},
	{OwnProcess, []*Check{check8}},
	{Raw, []*Check{check8_1, check8_2, check8_3, check8_4, check8_5, check8_6, check8_7}},
	{Shared, []*Check{check9, check10, check11, check12, check13, check14, check15, check17, check18, check19, check21}},
	{Traps, []*Check{check20}},
	{Unreadable, []*Check{check22}},
}

// Schedule lists the stages of a run in the order the harness runs them.
func Schedule() []Stage { return schedule }

// Integration is check 8, the specification's integration test: it owns
// what keeps a client from a server (a start that fails, replies no
// client reads, a process over the sandbox's limits).
func Integration() *Check { return check8 }

// FileStates is check 7, which judges the fixtures' state after the run.
func FileStates() *Check { return check7 }

// HomeAndTemp is check 16, which judges what every process left in its
// fresh HOME and TMPDIR.
func HomeAndTemp() *Check { return check16 }
