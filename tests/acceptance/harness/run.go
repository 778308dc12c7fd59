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
	"sort"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
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
	// ExitTimeout is how long a server may take to exit after its stdin
	// closes (default 5s).
	ExitTimeout time.Duration
	// ProtocolVersion forces a protocol version; empty uses the SDK default.
	ProtocolVersion string
	// ServerSource describes where the server's source lives, for the record.
	ServerSource string
	// KeepTemp leaves the temp dir in place for inspection.
	KeepTemp bool
}

// Check8ProtocolVersion is requested through initialize in check 8 unless
// Config.ProtocolVersion forces another.
const Check8ProtocolVersion = "2025-11-25"

// Titles of the eight checks, after the specification's acceptance tests.
var Titles = map[int]string{
	1: "sign-in returns the exact N2 passage from sample-notes.md",
	2: "an absent phrase returns no matches and no invented passage",
	3: "a valid file inside the root is readable",
	4: "../outside.md and an absolute path outside the root are rejected",
	5: "a symlink inside the root pointing outside is rejected, no leaked bytes",
	6: "an oversized query and an oversized file produce bounded errors",
	7: "checksums and mtimes of every fixture are unchanged, no file created or removed",
	8: "tool discovery and tool call over stdio with a separate process, clean stdout, exit on stdin close",
}

// CheckResult is the outcome of one check.
type CheckResult struct {
	ID             int      `json:"id"`
	Title          string   `json:"title"`
	Passed         bool     `json:"passed"`
	Summary        string   `json:"summary"`
	Failures       []string `json:"failures,omitempty"`
	Notes          []string `json:"notes,omitempty"`
	ShapeDependent string   `json:"shapeDependent,omitempty"`
	// Evidence holds observations that are not request/reply pairs
	// (file states, process exit).
	Evidence  []string    `json:"evidence,omitempty"`
	Exchanges []*Exchange `json:"exchanges,omitempty"`

	cross []string
}

func (c *CheckResult) fail(format string, args ...any) {
	c.Failures = append(c.Failures, fmt.Sprintf(format, args...))
}

// crossFail records a failure found while another check ran; these are
// listed after the check's own.
func (c *CheckResult) crossFail(format string, args ...any) {
	c.cross = append(c.cross, fmt.Sprintf(format, args...))
}

func (c *CheckResult) note(format string, args ...any) {
	c.Notes = append(c.Notes, fmt.Sprintf(format, args...))
}

// N2Comparison puts the passage the server returned beside the file's lines.
type N2Comparison struct {
	File        string `json:"file"`
	StartLine   int    `json:"startLine"`
	EndLine     int    `json:"endLine"`
	FileText    string `json:"fileText"`
	Returned    string `json:"returned"`
	ReturnedVia string `json:"returnedVia"`
	Identical   bool   `json:"identical"`
}

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
	OurShape         bool           `json:"ourShape"`
	ExitAfterMs      int64          `json:"exitAfterMs,omitempty"`
	ExitCode         int            `json:"exitCode"`
	FixtureCounts    string         `json:"fixtureCounts,omitempty"`
	N2               *N2Comparison  `json:"n2,omitempty"`
	Checks           []*CheckResult `json:"checks"`
	Passed           int            `json:"passed"`
	Failed           int            `json:"failed"`
	DurationMs       int64          `json:"durationMs"`
}

type runner struct {
	cfg    Config
	lay    *layout
	rep    *Report
	checks map[int]*CheckResult
	// everything sent during the run, and stdout violations per check
	allExchanges []*Exchange
	violations   map[int][]string
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
	if cfg.ExitTimeout <= 0 {
		cfg.ExitTimeout = 5 * time.Second
	}
	start := time.Now()
	lay, err := buildLayout(cfg.PracticeData)
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
		},
		checks:     map[int]*CheckResult{},
		violations: map[int][]string{},
	}
	f, d, l := before.counts()
	r.rep.FixtureCounts = fmt.Sprintf("%d files, %d directories, %d symlinks", f, d, l)
	for id := 1; id <= 8; id++ {
		r.checks[id] = &CheckResult{ID: id, Title: Titles[id]}
	}

	steps := []struct {
		id int
		fn func(context.Context, *session, *CheckResult)
	}{
		{1, r.check1}, {2, r.check2}, {3, r.check3}, {4, r.check4},
		{5, r.check5}, {6, r.check6}, {8, r.check8},
	}
	for _, st := range steps {
		version := cfg.ProtocolVersion
		if st.id == 8 && version == "" {
			// Check 8 uses the initialize handshake most desktop clients
			// still send; the others use the SDK's default negotiation.
			version = Check8ProtocolVersion
		}
		r.inSession(ctx, st.id, version, st.fn)
	}
	r.check7(before)
	r.applyGlobal()

	for id := 1; id <= 8; id++ {
		c := r.checks[id]
		c.Failures = append(c.Failures, c.cross...)
		c.Passed = len(c.Failures) == 0
		if c.Passed {
			r.rep.Passed++
		} else {
			r.rep.Failed++
		}
		r.rep.Checks = append(r.rep.Checks, c)
	}
	r.rep.DurationMs = time.Since(start).Milliseconds()
	return r.rep, nil
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

// inSession starts a fresh server process for one check, runs it, stops the
// process and scans everything it wrote.
func (r *runner) inSession(ctx context.Context, id int, version string, fn func(context.Context, *session, *CheckResult)) {
	c := r.checks[id]
	s, err := startSession(ctx, id, sessionConfig{
		command:         r.cfg.Server,
		root:            r.lay.Root,
		timeout:         r.cfg.Timeout,
		protocolVersion: version,
	})
	if err != nil {
		c.fail("%v", err)
		if s != nil {
			r.afterSession(s, c)
		}
		return
	}
	if r.rep.ProtocolVersion == "" {
		if ir := s.cs.InitializeResult(); ir != nil {
			r.rep.ProtocolVersion = ir.ProtocolVersion
			if ir.ServerInfo != nil {
				r.rep.ServerInfo = strings.TrimSpace(ir.ServerInfo.Name + " " + ir.ServerInfo.Version)
			}
		}
		r.rep.ResourcesOffered = s.resourcesOffered()
	}
	fn(ctx, s, c)
	if id != 8 {
		info := s.stop(r.cfg.ExitTimeout)
		if !info.OnItsOwn {
			c.note("the process did not exit within %s of stdin closing; the harness sent %s", r.cfg.ExitTimeout, info.Signal)
		}
	}
	r.afterSession(s, c)
}

// afterSession scans every reply of a finished session for leaks.
func (r *runner) afterSession(s *session, c *CheckResult) {
	c.Exchanges = append(c.Exchanges, s.exchanges...)
	r.allExchanges = append(r.allExchanges, s.exchanges...)
	var sent []string
	seen := map[string]bool{}
	for _, ex := range s.exchanges {
		sent = append(sent, ex.sent...)
		for _, h := range r.scan(ex.replyText, ex.sent) {
			ex.Leaks = append(ex.Leaks, h.what)
			seen[h.what] = true
			r.attribute(c, h, fmt.Sprintf("reply to %s %s", ex.Method, clip(ex.Request, 160)))
		}
	}
	// Notifications and anything else on stdout.
	for _, h := range r.scan(s.tap.raw.String(), sent) {
		if !seen[h.what] {
			r.attribute(c, h, "server stdout outside the replies the client decoded")
		}
	}
	// Outside bytes in diagnostics are a leak too; the root's path is not.
	for _, h := range r.scan(s.stderr.String(), nil) {
		if !h.path {
			r.attribute(c, h, "server stderr")
		}
	}
	if _, v := s.tap.stats(); len(v) > 0 {
		r.violations[c.ID] = append(r.violations[c.ID], v...)
	}
}

type leakHit struct {
	what   string
	checks []int
	path   bool
}

// scan looks for outside bytes, oversized-file content and the temp dir's
// absolute path. Echoes of what the request itself sent are ignored.
func (r *runner) scan(text string, sent []string) []leakHit {
	if text == "" {
		return nil
	}
	stripped := stripEchoes(text, sent)
	var hits []leakHit
	for _, sec := range r.lay.Secrets {
		if strings.Contains(text, sec.Canary) || strings.Contains(stripped, sec.Marker) {
			hits = append(hits, leakHit{what: "bytes of " + sec.Label, checks: sec.Checks})
		}
	}
	if strings.Contains(text, r.lay.OversizeCanary) || strings.Contains(stripped, r.lay.OversizeMarker) {
		hits = append(hits, leakHit{what: "content of the oversized file " + r.lay.OversizeRel, checks: []int{6}})
	}
	for _, p := range uniq(r.lay.Base, r.lay.BaseReal) {
		if strings.Contains(stripped, p) {
			hits = append(hits, leakHit{what: "the temp dir's absolute path " + p, checks: []int{5}, path: true})
			break
		}
	}
	return hits
}

func uniq(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if s != "" && !contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func (r *runner) attribute(c *CheckResult, h leakHit, where string) {
	msg := fmt.Sprintf("%s appeared in the %s", h.what, where)
	c.fail("%s", msg)
	for _, id := range h.checks {
		if id != c.ID {
			r.checks[id].crossFail("during check %d: %s", c.ID, msg)
		}
	}
}

// applyGlobal adds the run-wide rules: timeouts fail check 6, stdout
// pollution fails check 8, invented passages anywhere fail check 2.
func (r *runner) applyGlobal() {
	for _, ex := range r.allExchanges {
		if ex.TimedOut && ex.Check != 6 {
			r.checks[6].crossFail("during check %d: %s %s got %s", ex.Check, ex.Method, clip(ex.Request, 120), ex.Error)
		}
	}
	var ids []int
	for id := range r.violations {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	for _, id := range ids {
		v := r.violations[id]
		r.checks[8].fail("stdout carried %d non-JSON-RPC line(s) in the check-%d process, first: %s", len(v), id, v[0])
	}
	if len(ids) == 0 {
		r.checks[8].Summary += "; stdout of all 7 server processes carried only JSON-RPC"
	}
	for _, ex := range r.allExchanges {
		if ex.result == nil {
			continue
		}
		if shape, ok := parseOurShape(ex.result); ok {
			for _, pr := range r.passageProblems(shape) {
				if pr.check == 2 && ex.Check == 2 {
					continue // check 2 judges its own reply
				}
				msg := fmt.Sprintf("%s %s: %s", ex.Method, clip(ex.Request, 100), pr.what)
				if pr.check == ex.Check {
					r.checks[pr.check].fail("%s", msg)
				} else {
					r.checks[pr.check].crossFail("during check %d, %s", ex.Check, msg)
				}
			}
		}
	}
}

type problem struct {
	what  string
	check int
}

// passageProblems checks that every match names a regular file inside the
// root (a path outside fails check 4, a path through a symlink check 5) and
// that its passage is byte-for-byte in that file (else check 2).
func (r *runner) passageProblems(shape *ourResult) []problem {
	var out []problem
	for _, m := range shape.Matches {
		content, err := r.lay.rootFile(m.File)
		if err != nil {
			id := 2
			switch {
			case !isRootRelative(m.File):
				id = 4
			case errors.Is(err, errSymlink):
				id = 5
			}
			out = append(out, problem{fmt.Sprintf("match names %q: %v", m.File, err), id})
			continue
		}
		p := m.Passage
		if m.Clipped {
			p = strings.TrimSuffix(strings.TrimSuffix(p, "…"), "...")
		}
		if p == "" || !strings.Contains(content, p) {
			out = append(out, problem{fmt.Sprintf("passage %q is not byte-for-byte in %s (invented or altered)", clip(m.Passage, 80), m.File), 2})
		}
	}
	return out
}

// resourcePrefix finds how the server spells a root-relative URI, from a
// listed resource for sample-notes.md (or any listed fixture), defaulting
// to practice-notes:///.
func (r *runner) resourcePrefix(list []*mcp.Resource) string {
	known := []string{r.lay.SampleRel, r.lay.ValidRel, r.lay.BoundRel}
	for _, res := range list {
		for _, k := range known {
			if strings.HasSuffix(res.URI, k) {
				return strings.TrimSuffix(res.URI, k)
			}
		}
	}
	return "practice-notes:///"
}
