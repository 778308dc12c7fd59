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
// they break.
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
		startTimeout: r.cfg.StartTimeout, protocolVersion: r.cfg.ProtocolVersion, sb: r.sb, home: home, tmp: tmp})
	if err != nil {
		c.note("the generated phase did not run: %v", err)
		if s != nil {
			s.stop(r.cfg.ExitTimeout)
		}
		return
	}
	r.rep.Processes++
	g := &checks.Generated{Seed: set.Seed, Before: set.Tree(), After: set.Changed(), Queries: map[string]string{}, Changed: map[string]bool{}}
	w := &clientWire{ctx: ctx, s: s, shown: map[string]*checks.Exchange{}}
	send := func(q generate.Query, after bool) {
		if s.exited() || s.stuck != "" {
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
	s.stop(r.cfg.ExitTimeout)
	g.Exchanges = w.recorded
	g.AnswerGenerated()
	r.apply(c, checks.JudgeGenerated(g), w.shown)
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

// clipOversized cuts the long request line of step in what the report
// and the judges keep.
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
	}
	if n := len(w.recorded); n > 0 && w.recorded[n-1].Step == step {
		w.recorded[n-1].In = clip(w.recorded[n-1].In)
	}
}
