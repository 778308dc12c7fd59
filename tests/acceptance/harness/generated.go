package harness

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"practice-notes/tests/acceptance/checks"
	"practice-notes/tests/acceptance/generate"
)

// generatedDir is the folder of the run's temp folder that holds the
// generated root, beside the practice root.
const generatedDir = "generated"

// drawSeed returns a seed for the generated phase: never 0, which
// Config.Seed reads as "draw one".
func drawSeed() uint64 {
	b := newSeed()
	return binary.LittleEndian.Uint64(b[:]) | 1
}

// generatedPhase plants the root of the run's seed (package generate)
// and searches it in a server process of its own. It runs once check 7
// has compared the fixtures, so that planting and changing the generated
// notes is no change of theirs; its findings go to the checks whose rules
// they break. Its process counts as every other one (processEnded): its
// timeouts, stdout and leaks go to the run-wide rules, and what it left
// in its HOME and TMPDIR to check 16.
func (r *runner) generatedPhase(ctx context.Context) {
	if r.notStarted != "" {
		return
	}
	set := generate.Build(r.rep.Seed)
	root := filepath.Join(r.lay.Base, generatedDir)
	c := r.checks[checks.GeneratedPhase().ID]
	if err := os.Mkdir(root, 0o755); err != nil {
		c.note("the generated phase did not run: %v", err)
		return
	}
	if err := set.Plant(root); err != nil {
		c.note("the generated phase did not run: %v", err)
		return
	}
	home, tmp, err := r.processDirs(generatedDir)
	if err != nil {
		c.note("the generated phase did not run: preparing HOME and TMPDIR: %v", err)
		return
	}
	s, err := startSession(ctx, c.ID, sessionConfig{command: r.cfg.Server, root: root, timeout: r.cfg.Timeout,
		startTimeout: r.cfg.StartTimeout, protocolVersion: r.cfg.ProtocolVersion, sb: r.sb, home: home, tmp: tmp, calls: r.calls})
	if err != nil {
		c.note("the generated phase did not run: %v", err)
		if s != nil {
			s.stop(r.cfg.ExitTimeout)
			r.generatedEnded(s, home, tmp)
		}
		return
	}
	r.rep.Processes++
	g := &checks.Generated{Seed: set.Seed, Before: set.Tree(), After: set.Changed(), Queries: map[string]string{}, Changed: map[string]bool{}}
	w := &clientWire{ctx: ctx, s: s, shown: map[string]*checks.Exchange{}}
	send := func(q generate.Query, after bool) {
		if s.exited() || s.stuck != "" {
			// One search it left unanswered is the finding; the others
			// would each wait out the limit again.
			g.Unsent++
			return
		}
		step := fmt.Sprintf("generated %d: %s", len(g.Queries)+1, q.From)
		g.Queries[step] = q.Text
		g.Changed[step] = after
		w.CallTool(step, "search_notes", map[string]any{"query": q.Text})
	}
	for _, q := range set.Before {
		send(q, false)
	}
	if err := set.Change(root); err != nil {
		c.note("the generated phase's notes could not be changed: %v", err)
	} else {
		for _, q := range set.After {
			send(q, true)
		}
	}
	if len(set.After) > 0 {
		sendOversized(w, g, set.After[0])
	}
	if info := s.stop(r.cfg.ExitTimeout); !info.OnItsOwn {
		c.note("the generated phase's process did not exit within %s of stdin closing; the harness sent %s", r.cfg.ExitTimeout, info.Signal)
	}
	r.generatedEnded(s, home, tmp)
	g.Exchanges = w.recorded
	g.AnswerGenerated()
	r.apply(c, checks.JudgeGenerated(g), w.shown)
}

// generatedEnded records what the generated phase's process showed, for
// the run-wide rules, as afterSession does for the other processes; its
// exchanges are filed under check 1 only where a finding quotes them.
// Its replies are judged for leaks against its own root (Output.Root).
func (r *runner) generatedEnded(s *session, home, tmp string) {
	for _, ex := range s.exchanges {
		r.calls.of(ex).phase = fmt.Sprintf("the generated phase (seed %d)", r.rep.Seed)
	}
	o := r.output(s, len(r.allExchanges))
	o.Checks, o.Root, o.Entries, o.Taken = []string{checks.GeneratedProcess}, generatedDir, nil, nil
	r.processEnded(s, checks.GeneratedProcess, r.checks[checks.GeneratedPhase().ID], o)
	r.checkLeftovers(checks.GeneratedProcess, home, tmp)
}

// oversizedLines are the sizes of the request lines sent last in the
// generated phase: over a 64 KiB line reader's buffer, and far over it.
var oversizedLines = []struct {
	name  string
	bytes int
}{{"100 KiB", 100 << 10}, {"2 MiB", 2 << 20}}

// sendOversized sends searches whose request lines are 100 KiB and 2 MiB
// long, then next again: each must get a bounded answer and the session
// must live on. The report keeps only the start of each long line.
func sendOversized(w *clientWire, g *checks.Generated, next generate.Query) {
	for _, o := range oversizedLines {
		if w.s.exited() || w.s.stuck != "" {
			return
		}
		step := "generated oversized: a request line of " + o.name
		q := strings.Repeat("x", o.bytes)
		g.Queries[step], g.Changed[step] = q, true
		g.Oversized = append(g.Oversized, step)
		w.CallTool(step, "search_notes", map[string]any{"query": q})
		clipOversized(w, step)
	}
	if w.s.stuck != "" {
		return
	}
	// Sent even to a server that exited: its missing answer is the finding.
	step := "generated oversized: the call after them, " + next.From
	g.Queries[step], g.Changed[step] = next.Text, true
	g.AfterOversized = step
	w.CallTool(step, "search_notes", map[string]any{"query": next.Text})
}

// clipOversized cuts the long request line of step in what the report,
// the judges and the leak rule keep (its query is one letter repeated,
// which holds no outside word or path for an echo of it to hide).
func clipOversized(w *clientWire, step string) {
	clip := func(s string) string {
		if len(s) <= 200 {
			return s
		}
		return fmt.Sprintf("%s… (%d bytes)", s[:200], len(s))
	}
	if ex := w.shown[step]; ex != nil {
		ex.Request = clip(ex.Request)
		for i := range ex.Wire {
			ex.Wire[i] = clip(ex.Wire[i])
		}
		c := w.s.calls.of(ex)
		c.query = clip(c.query)
		for i := range c.sent {
			c.sent[i] = clip(c.sent[i])
		}
	}
	if n := len(w.recorded); n > 0 && w.recorded[n-1].Step == step {
		w.recorded[n-1].In = clip(w.recorded[n-1].In)
	}
}
