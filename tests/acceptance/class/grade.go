package class

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"practice-notes/tests/acceptance/record"
)

// Grader runs the acceptance harness once per learner, or twice when
// the first run left a call unanswered (see regrade).
type Grader struct {
	// Harness is the built acceptance command (tests/acceptance/cmd/acceptance).
	Harness string
	// PracticeData is the absolute folder copied into every practice root.
	PracticeData string
	// HarnessArgs are passed to every run, for example "--timeout", "5s".
	HarnessArgs []string
	// LearnerTimeout bounds one learner's whole run; the harness gets an
	// interrupt, then, KillGrace later, is killed.
	LearnerTimeout time.Duration
	KillGrace      time.Duration
	// Jobs is how many learners are graded at once (default: the number
	// of CPUs).
	Jobs int
	// NoDepsCheck grades every learner even when their folder's
	// dependencies look missing.
	NoDepsCheck bool
}

// Result is everything known about one learner after grading.
type Result struct {
	Learner string `json:"learner"`
	Command string `json:"command"`
	// Graded is false when the harness produced no run for this learner;
	// Error says why.
	Graded bool   `json:"graded"`
	Error  string `json:"error,omitempty"`
	// DepsMissing says the learner was not graded because the folder's
	// dependencies are not installed; Install is the command, run in the
	// learner's folder, that installs them, and Error says so.
	DepsMissing bool   `json:"dependenciesMissing,omitempty"`
	Install     string `json:"install,omitempty"`
	HarnessExit int    `json:"harnessExit"`
	DurationMs  int64  `json:"durationMs"`
	// Run is the harness's --json output as printed, RunParsed its
	// decoded checks.
	Run       json.RawMessage `json:"run,omitempty"`
	RunParsed *record.Run     `json:"-"`
	Record    *record.Verdict `json:"record"`
	// HarnessStderr is the end of what the harness wrote on stderr.
	HarnessStderr string `json:"harnessStderr,omitempty"`
	// FirstRun is set when the learner was graded twice because the
	// first run left a call unanswered (see regrade).
	FirstRun *FirstRun `json:"firstRun,omitempty"`
}

// Caps on what is kept of one harness process's output.
const (
	maxRunJSON = 32 << 20
	maxStderr  = 16 << 10
)

// Progress is told about each learner as it finishes; left counts those
// not finished yet.
type Progress func(r *Result, left int)

// Grade grades every learner, Jobs at a time, and returns the results in
// the learners' order. It returns early only if ctx is cancelled, with
// the unfinished learners marked not graded.
func (g *Grader) Grade(ctx context.Context, learners []Learner, progress Progress) []*Result {
	jobs := g.Jobs
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	results := make([]*Result, len(learners))
	next := make(chan int)
	var mu sync.Mutex
	left := len(learners)
	var wg sync.WaitGroup
	for w := 0; w < jobs && w < len(learners); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				// Each worker is a slot: as root, its servers run as a
				// uid of their own, with a process budget of their own.
				r := g.gradeOne(ctx, learners[i], w)
				mu.Lock()
				results[i] = r
				left--
				if progress != nil {
					progress(r, left)
				}
				mu.Unlock()
			}
		}()
	}
	for i := range learners {
		next <- i
	}
	close(next)
	wg.Wait()
	return results
}

func (g *Grader) gradeOne(ctx context.Context, l Learner, slot int) *Result {
	start := time.Now()
	r := &Result{Learner: l.Name, Command: l.Command}
	defer func() { r.DurationMs = time.Since(start).Milliseconds() }()
	if l.Problem != "" {
		r.Error = l.Problem
	} else if install, msg := g.depsCheck(ctx, l); msg != "" {
		r.Error, r.Install, r.DepsMissing = msg, install, true
	} else {
		g.runHarness(ctx, l, r, slot)
		g.regrade(ctx, l, r, slot)
	}
	v, err := record.CheckFile(filepath.Join(l.Dir, RecordFile), r.RunParsed)
	if err != nil {
		v = &record.Verdict{State: record.Incomplete, File: filepath.Join(l.Dir, RecordFile),
			Problems: []record.Problem{{Field: RecordFile, Why: err.Error()}}}
	}
	v.File = RecordFile
	r.Record = v
	return r
}

func (g *Grader) depsCheck(ctx context.Context, l Learner) (install, message string) {
	if g.NoDepsCheck {
		return "", ""
	}
	return missingDeps(ctx, l)
}

func (g *Grader) runHarness(ctx context.Context, l Learner, r *Result, slot int) {
	limit := g.LearnerTimeout
	if limit <= 0 {
		limit = 5 * time.Minute
	}
	grace := g.KillGrace
	if grace <= 0 {
		grace = 10 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	args := append([]string{"--json", "--server", l.Command, "--practice-data", g.PracticeData, "--slot", strconv.Itoa(slot)}, g.HarnessArgs...)
	cmd := exec.CommandContext(ctx, g.Harness, args...)
	// The server command runs through sh -c in the harness's working
	// directory, so relative paths in server.cmd mean the learner's folder.
	cmd.Dir = l.Dir
	// An interrupt lets the harness stop the learner's server processes;
	// a harness that does not exit within the grace is killed.
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = grace
	stdout := &capBuffer{max: maxRunJSON}
	stderr := &capBuffer{max: maxStderr, keepTail: true}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	err := cmd.Run()
	r.HarnessStderr = strings.TrimSpace(stderr.String())
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil && errors.Is(context.Cause(ctx), context.DeadlineExceeded):
		r.HarnessExit = -1
		r.Error = fmt.Sprintf("stopped after the per-learner limit of %s", limit)
		return
	case ctx.Err() != nil:
		r.HarnessExit = -1
		r.Error = "interrupted before the run finished"
		return
	case errors.As(err, &ee):
		r.HarnessExit = ee.ExitCode()
	case err != nil:
		r.HarnessExit = -1
		r.Error = fmt.Sprintf("starting the harness: %v", err)
		return
	}
	if r.HarnessExit != 0 && r.HarnessExit != 1 {
		r.Error = fmt.Sprintf("the harness could not run the checks (exit %d): %s", r.HarnessExit, lastLine(r.HarnessStderr))
		return
	}
	if stdout.cut {
		r.Error = fmt.Sprintf("the harness's output exceeded %d bytes", maxRunJSON)
		return
	}
	run, err := record.DecodeRun(bytes.NewReader(stdout.Bytes()))
	if err != nil {
		r.Error = err.Error()
		return
	}
	r.Graded = true
	r.Run = json.RawMessage(bytes.TrimSpace(stdout.Bytes()))
	r.RunParsed = run
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// capBuffer keeps at most max bytes: the first ones, or with keepTail the
// last ones.
type capBuffer struct {
	mu       sync.Mutex
	buf      []byte
	max      int
	keepTail bool
	cut      bool
}

func (b *capBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if len(b.buf) > b.max {
		b.cut = true
		if b.keepTail {
			b.buf = append(b.buf[:0], b.buf[len(b.buf)-b.max:]...)
		} else {
			b.buf = b.buf[:b.max]
		}
	}
	return len(p), nil
}

func (b *capBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]byte(nil), b.buf...)
}

func (b *capBuffer) String() string { return string(b.Bytes()) }
