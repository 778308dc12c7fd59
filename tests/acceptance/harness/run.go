// Package harness checks a practice-notes MCP server from the outside: it
// starts the server as a separate process, talks to it over stdio with the
// Go SDK client, and judges it only by its replies and by the file system.
// It imports nothing from the server it grades.
package harness

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"practice-notes/tests/acceptance/checks"
	"practice-notes/tests/acceptance/sandbox"
	"practice-notes/tests/acceptance/truth"
)

// Config describes one acceptance run.
type Config struct {
	// Server is the command line that starts a stdio server. "{root}" is
	// replaced by the practice root; the root is also in PRACTICE_NOTES_ROOT.
	Server string
	// PracticeData is copied into a fresh root for the run.
	PracticeData string
	// Timeout bounds every request (default 10s).
	Timeout time.Duration
	// StartTimeout bounds starting a server and its initialize handshake
	// (default 30s: `go run` and npx compile or install first).
	StartTimeout time.Duration
	// ExitTimeout is how long a server may take to exit after its stdin
	// closes (default 5s).
	ExitTimeout time.Duration
	// ProtocolVersion forces a protocol version; empty uses the SDK default.
	ProtocolVersion string
	// ServerSource describes where the server's source lives, for the record.
	ServerSource string
	// KeepTemp leaves the temp dir in place for inspection.
	KeepTemp bool
	// Isolation is "auto" (private namespaces where the kernel allows
	// them, else the process group only) or "off".
	Isolation string
	// Limits bound every server process; the zero value means
	// DefaultLimits.
	Limits sandbox.Limits
	// Slot picks the uid a root grader runs the server as, one per
	// parallel run (grade-class's -j), so that runs do not share a
	// process budget or each other's files.
	Slot int
	// ServerDir is the folder the server lives in and starts in, the one
	// folder of the grader's it sees under isolation (read-only); empty:
	// the current folder.
	ServerDir string
	// Seed builds the generated phase's root and queries; 0 draws one.
	// The report states it, and the same seed replays the phase.
	Seed uint64
	// GeneratedOnly runs the generated phase alone, the one part of a run
	// that Seed changes: no other process is started, and every check the
	// phase charges nothing to is reported skipped, never passed. One
	// whole run and the phase alone on other seeds grade every seed.
	GeneratedOnly bool
}

// Check8ProtocolVersion is requested through initialize in check 8 unless
// Config.ProtocolVersion forces another.
const Check8ProtocolVersion = "2025-11-25"

// Report is the result of a run.
type Report struct {
	Date             time.Time      `json:"date"`
	Server           string         `json:"server"`
	ServerSource     string         `json:"serverSource,omitempty"`
	ServerInfo       string         `json:"serverInfo,omitempty"`
	PracticeData     string         `json:"practiceData"`
	TempDir          string         `json:"tempDir"`
	TempKept         bool           `json:"tempKept"`
	Transport        string         `json:"transport"`
	ProtocolVersion  string         `json:"protocolVersion,omitempty"`
	Check8Protocol   string         `json:"check8ProtocolVersion,omitempty"`
	HarnessGo        string         `json:"harnessGo"`
	HarnessSDK       string         `json:"harnessSDK"`
	ResourcesOffered bool           `json:"resourcesOffered"`
	Tools            []string       `json:"tools,omitempty"`
	ExitAfterMs      int64          `json:"exitAfterMs,omitempty"`
	ExitCode         int            `json:"exitCode"`
	FixtureCounts    string         `json:"fixtureCounts,omitempty"`
	N2               *N2Comparison  `json:"n2,omitempty"`
	Isolation        string         `json:"isolation"`
	Checks           []*CheckResult `json:"checks"`
	Passed           int            `json:"passed"`
	Failed           int            `json:"failed"`
	Warnings         int            `json:"warnings"`
	Processes        int            `json:"processes"`
	Skipped          int            `json:"skipped"`
	DurationMs       int64          `json:"durationMs"`
	// Seed is the generated phase's seed: --seed replays it.
	Seed uint64 `json:"seed"`
	// Unanswered lists the calls of the run's sessions that got no answer
	// within the limit, so that a grader can tell a run that met one
	// without reading the checks' evidence.
	Unanswered []Unanswered `json:"unanswered,omitempty"`

	transcripts []recordedTranscript
}

type runner struct {
	cfg    Config
	lay    *layout
	rep    *Report
	checks map[string]*CheckResult
	// everything sent during the run, and stdout violations per check
	allExchanges []*checks.Exchange
	calls        calls // what the harness alone reads of each exchange
	violations   map[string][]string
	badCounts    map[string]int // stdout lines that were not JSON-RPC, per key of violations
	// violationOrder lists the keys of violations in the order found
	violationOrder []string
	outputs        []checks.Output   // what each process showed, for the leak rule
	leftovers      []checks.Leftover // per process, for check 16
	// results holds the Result of each check that hands one on, by id,
	// for the checks that require it.
	results map[string]*checks.Exchange
	// waiting lists the checks whose judge waits for their calls to the
	// other tools; otherTools is set once a process declared such a tool.
	waiting    []*waiting
	otherTools bool
	// inOtherTools is set while the process of other tools runs, on the
	// fresh copy of the fixtures whose states otherFiles holds.
	inOtherTools bool
	otherFiles   *checks.FileFacts
	// notStarted is set when the first server process failed to start or
	// initialize: later checks fail fast instead of waiting again.
	notStarted string
	// lostStarts counts the starts that failed in a row after a process
	// had started: each is its own check's failure, and the next check
	// tries its own start, up to maxLostStarts; then notRun says why the
	// remaining checks were not run.
	lostStarts int
	notRun     string
	// unreadable is set with notStarted when the server did answer, in a
	// form no client reads (a reply split over lines): check 8 fails and
	// no other check is graded.
	unreadable string
	sb         *sandbox.Sandbox
	dirs       int // HOME/TMPDIR pairs made
	// tree describes the root as it is while the current check runs,
	// for the true answers (package truth).
	tree truth.Tree
}

// Run performs one acceptance run. It returns an error only when the run
// itself could not be set up; failing checks are reported in the Report.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if cfg.Server == "" {
		return nil, errors.New("no server command")
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Second
	}
	if cfg.StartTimeout <= 0 {
		cfg.StartTimeout = 30 * time.Second
	}
	if cfg.ExitTimeout <= 0 {
		cfg.ExitTimeout = 5 * time.Second
	}
	start := time.Now()
	lay, err := buildLayout(cfg.PracticeData, newSeed())
	if err != nil {
		lay.remove()
		return nil, err
	}
	if !cfg.KeepTemp {
		defer lay.remove()
	}
	before, err := takeSnapshot(lay.Base)
	if err != nil {
		return nil, fmt.Errorf("recording fixture checksums: %w", err)
	}
	r := &runner{
		cfg: cfg,
		lay: lay,
		rep: &Report{
			Date:         start,
			Server:       cfg.Server,
			ServerSource: cfg.ServerSource,
			PracticeData: cfg.PracticeData,
			TempDir:      lay.Base,
			TempKept:     cfg.KeepTemp,
			Transport:    "stdio",
			HarnessGo:    runtime.Version(),
			HarnessSDK:   sdkVersion(),
			Isolation:    "process group only: the server runs with the grader's rights",
		},
		checks:     map[string]*CheckResult{},
		results:    map[string]*checks.Exchange{},
		calls:      calls{},
		violations: map[string][]string{},
		badCounts:  map[string]int{},
	}
	if cfg.Limits == (sandbox.Limits{}) {
		cfg.Limits = sandbox.DefaultLimits()
	}
	sb, err := sandbox.New(ctx, sandbox.Config{Base: lay.Base, Isolation: cfg.Isolation, Limits: cfg.Limits, Slot: cfg.Slot,
		Locked: lay.lockedPaths(), Keep: cfg.KeepTemp, Dir: cfg.ServerDir})
	if err != nil {
		return nil, fmt.Errorf("preparing the server's environment: %w", err)
	}
	defer sb.Remove()
	r.sb = sb
	if err := r.describeRoot(); err != nil {
		return nil, err
	}
	r.rep.Isolation = sb.Isolation()
	r.rep.Seed = cfg.Seed
	if r.rep.Seed == 0 {
		r.rep.Seed = drawSeed()
	}
	f, d, l := checks.FileCounts(before)
	r.rep.FixtureCounts = fmt.Sprintf("%d files, %d directories, %d symlinks", f, d, l)
	for _, def := range checks.All() {
		r.checks[def.ID] = &CheckResult{ID: def.ID, Section: def.Section, Title: def.Title, def: def}
	}

	if cfg.GeneratedOnly {
		for _, c := range r.checks {
			c.skip("not run: only the generated phase ran (seed %d)", r.rep.Seed)
		}
	} else {
		r.runSchedule(ctx)
		r.otherToolsGroup(ctx, cfg.ProtocolVersion)
		r.check7(before)
	}
	r.generatedPhase(ctx)
	r.check16()
	r.verdicts()
	r.rep.DurationMs = time.Since(start).Milliseconds()
	return r.rep, nil
}

// runSchedule runs the stages of checks.Schedule, each in its kind of
// process.
func (r *runner) runSchedule(ctx context.Context) {
	// Checks share a server process where they can; a fresh one is started
	// whenever the previous one died or stopped answering. Check 8 (which
	// judges the exit), the protocol checks and the traps get their own,
	// and so do the calls to other tools, after all the searches.
	check8Version := r.cfg.ProtocolVersion
	if check8Version == "" {
		// Check 8 uses the initialize handshake most desktop clients
		// still send; the others use the SDK's default negotiation.
		check8Version = Check8ProtocolVersion
	}
	for _, st := range checks.Schedule() {
		switch st.Kind {
		case checks.Shared:
			r.inGroup(ctx, r.cfg.ProtocolVersion, r.steps(st.Checks, r.probeAndJudgeStep))
		case checks.OwnProcess:
			r.inGroup(ctx, check8Version, r.steps(st.Checks, r.check8))
		case checks.Raw:
			r.protocolChecks(ctx, st.Checks)
		case checks.WithPlanting:
			for _, s := range r.steps(st.Checks, r.probeAndJudgeStep) {
				if r.notStarted != "" {
					r.inGroup(ctx, r.cfg.ProtocolVersion, []step{s})
					continue
				}
				if cleanup := r.plantAround(r.checks[s.id]); cleanup != nil {
					r.inGroup(ctx, r.cfg.ProtocolVersion, []step{s})
					cleanup()
				}
			}
		}
	}
}

func sdkVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == "github.com/modelcontextprotocol/go-sdk" {
				return d.Path + " " + d.Version
			}
		}
	}
	return "github.com/modelcontextprotocol/go-sdk (version unknown)"
}

// step is one check run inside a server process.
type step struct {
	id string
	fn func(context.Context, *session, *CheckResult)
}

// steps runs each of list with fn.
func (r *runner) steps(list []*checks.Check, fn func(context.Context, *session, *CheckResult)) []step {
	out := make([]step, len(list))
	for i, c := range list {
		out[i] = step{id: c.ID, fn: fn}
	}
	return out
}

// probeAndJudgeStep runs a check from its value, keeping its Result for
// the checks that require it.
func (r *runner) probeAndJudgeStep(ctx context.Context, s *session, c *CheckResult) {
	res := r.probeAndJudge(ctx, s, c)
	if c.def.Result != "" {
		r.results[c.ID] = res[c.def.Result]
	}
}

// inGroup runs checks one after another in one server process, and starts
// a fresh process for the next check whenever the previous one died or
// stopped answering, so that a crash is charged to the check that caused
// it. Once a server has failed to start, later checks fail at once instead
// of waiting out the timeout again.
func (r *runner) inGroup(ctx context.Context, version string, steps []step) {
	var s *session
	var last *CheckResult
	var home, tmp string
	finish := func() {
		if s.stopped == nil {
			info := s.stop(r.cfg.ExitTimeout)
			if !info.OnItsOwn {
				last.note("the process did not exit within %s of stdin closing; the harness sent %s", r.cfg.ExitTimeout, info.Signal)
			}
		}
		r.afterSession(s)
		r.checkLeftovers(strings.Join(s.checks, ", "), home, tmp)
		s = nil
	}
	for _, st := range steps {
		c := r.checks[st.id]
		if r.notRun != "" {
			c.skip("%s", r.notRun)
			continue
		}
		if r.notStarted != "" {
			if r.unreadable == "" {
				c.add(checks.Finding{Msg: "server did not start; see check " + r.notStarted, Hint: "Make the server start and answer initialize (see check " + r.notStarted + ")."})
			}
			continue
		}
		if s != nil && (s.exited() || s.stuck != "") {
			finish()
		}
		if s == nil {
			var err error
			if home, tmp, err = r.processDirs(st.id); err != nil {
				c.fail("preparing HOME and TMPDIR: %v", err)
				continue
			}
			s, err = startSession(ctx, st.id, sessionConfig{
				command:         r.cfg.Server,
				root:            r.lay.Root,
				timeout:         r.cfg.Timeout,
				startTimeout:    r.cfg.StartTimeout,
				protocolVersion: version,
				sb:              r.sb,
				home:            home,
				tmp:             tmp,
				calls:           r.calls,
			})
			if err != nil {
				f := checks.Finding{Msg: err.Error(), Hint: "Make the command start a stdio MCP server that answers initialize within the start timeout; run it by hand and read its stderr."}
				if s != nil {
					f.Detail = s.outputTail()
				}
				if s != nil && s.tap.splitSeen() {
					// The server answered, in lines no client reads: a
					// fault of the protocol, which check 8 states.
					f.Msg = "no client can read the server's replies: " + strings.TrimPrefix(f.Msg, "server did not start: ")
					f.Hint = "Write each JSON-RPC message on one line: no pretty-printing, no line breaks inside a reply."
					r.checks[checks.Integration().ID].add(f)
					r.unreadable = "not graded: the server did not answer; see check 8 (its replies are split over several lines, which no client reads)"
				} else {
					c.add(f)
				}
				r.lostStart(st.id)
				if s != nil {
					// The process was started for this check: its stdout
					// and stderr are named after it.
					s.check, s.checks = st.id, append(s.checks, st.id)
					last = c
					r.afterSession(s)
					r.checkLeftovers(st.id, home, tmp)
					s = nil
				}
				continue
			}
			r.rep.Processes++
			r.lostStarts = 0
			if r.rep.ProtocolVersion == "" {
				if ir := s.cs.InitializeResult(); ir != nil {
					r.rep.ProtocolVersion = ir.ProtocolVersion
					if ir.ServerInfo != nil {
						r.rep.ServerInfo = strings.TrimSpace(ir.ServerInfo.Name + " " + ir.ServerInfo.Version)
					}
				}
				r.rep.ResourcesOffered = s.resourcesOffered()
			}
		}
		s.check = st.id
		s.checks = append(s.checks, st.id)
		st.fn(ctx, s, c)
		last = c
	}
	if s != nil {
		finish()
	}
}

// maxLostStarts is how many starts in a row may fail, after the server
// had started, before the remaining checks are not run: each failed start
// may wait out the start timeout.
const maxLostStarts = 2

// lostStart records that the process for check id failed to start. When
// no process has started yet (or no client reads its replies), the
// server does not start at all and every later check fails fast. After
// one had started, the failure is check id's own (its traps, say), and
// the next check starts afresh; after maxLostStarts in a row, the rest
// are not run, with the reason, never failed for a start of another
// check.
func (r *runner) lostStart(id string) {
	if r.rep.Processes == 0 || r.unreadable != "" {
		r.notStarted = id
		return
	}
	r.lostStarts++
	if r.lostStarts >= maxLostStarts {
		r.notRun = fmt.Sprintf("not run: the server had started for earlier checks, then failed to start %d times in a row (last for check %s)", r.lostStarts, id)
	}
}

// processDirs makes the fresh HOME and TMPDIR of the next server process.
func (r *runner) processDirs(id string) (home, tmp string, err error) {
	r.dirs++
	if r.inOtherTools {
		return r.sb.ProcessDirs(fmt.Sprintf("%02d-other-tools-check-%s", r.dirs, id))
	}
	return r.sb.ProcessDirs(fmt.Sprintf("%02d-check-%s", r.dirs, id))
}

// checkLeftovers records what a process left in its HOME, TMPDIR or
// config folder, for check 16.
func (r *runner) checkLeftovers(id, home, tmp string) {
	r.leftovers = append(r.leftovers, checks.Leftover{Process: id, Lines: r.sb.Leftovers(home, tmp), Runtime: r.sb.RuntimeFiles(home, tmp)})
}

// afterSession files a finished process's exchanges under their checks
// and records what the process showed, for the run-wide rules.
func (r *runner) afterSession(s *session) {
	for _, ex := range s.exchanges {
		r.checks[ex.Check].Exchanges = append(r.checks[ex.Check].Exchanges, ex)
	}
	var last *CheckResult
	if len(s.checks) > 0 {
		last = r.checks[s.checks[len(s.checks)-1]]
	}
	o := r.output(s, len(r.allExchanges))
	r.processEnded(s, strings.Join(s.checks, ", "), last, o)
}

// processEnded records what a finished process showed, for the run-wide
// rules, whichever part of the run it served: its exchanges (timeouts),
// its replies, stdout and stderr as o holds them (leaks), its stdout
// lines that were not JSON-RPC (stdout hygiene) and a limit it hit.
// key names the process as Process.Checks does; last, when set, is the
// check that notes what of its output was not kept.
func (r *runner) processEnded(s *session, key string, last *CheckResult, o checks.Output) {
	r.allExchanges = append(r.allExchanges, s.exchanges...)
	during := checks.ProcessOf(key)
	if last != nil {
		for _, o := range []struct{ name, cut string }{{"stdout", s.tap.raw.cut()}, {"stderr", s.stderr.cut()}} {
			if o.cut != "" {
				last.note("%s of %s: %s", o.name, during, o.cut)
			}
		}
	}
	r.outputs = append(r.outputs, o)
	if hit := s.limitHit(); hit != "" && r.notStarted == "" {
		r.checks[checks.Integration().ID].add(checks.Finding{Warn: true, Msg: fmt.Sprintf("%s: %s", during, hit), Detail: s.outputTail(),
			Hint: "Start only the processes and take only the memory a notes server needs; the grader's limits are in the report's isolation line."})
	}
	if _, v := s.tap.stats(); len(v) > 0 {
		r.violations[key] = append(r.violations[key], v...)
		r.badCounts[key] += s.tap.badCount()
		r.violationOrder = append(r.violationOrder, key)
	}
}

// read returns the reading of a tool call's result, made once.
func (r *runner) read(ex *checks.Exchange) *reading {
	c := r.calls.of(ex)
	if c.rd == nil {
		c.rd = readResult(c.result, c.query, r.lay)
	}
	return c.rd
}
