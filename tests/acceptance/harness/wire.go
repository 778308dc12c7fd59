package harness

import (
	"context"

	"practice-notes/tests/acceptance/checks"
)

// clientWire is a client session's checks.Wire: it sends through the SDK
// client and keeps each exchange for the report (shown, by step) and, as
// it was when it came back, for the judges (recorded).
type clientWire struct {
	ctx      context.Context
	s        *session
	shown    map[string]*checks.Exchange
	recorded []checks.Exchange
}

// keep files ex under step, with the lines a judge reads taken from its
// wire record: the request sent and the reply read, if there was one.
func (w *clientWire) keep(step string, ex *checks.Exchange) checks.Exchange {
	ex.Step = step
	if len(ex.Wire) > 0 {
		ex.In = ex.Wire[0]
	}
	if len(ex.Wire) > 1 {
		ex.Out = ex.Wire[1:2]
		if ex.Error == "" {
			ex.Reply = ex.Wire[1]
		}
	}
	w.shown[step] = ex
	w.recorded = append(w.recorded, *ex)
	return *ex
}

func (w *clientWire) Send(step, line, id string) checks.Exchange {
	rec := checks.Exchange{Step: step, In: line, NotSent: true, Error: "not sent: the client session sends requests through its SDK client only"}
	w.recorded = append(w.recorded, rec)
	return rec
}

func (w *clientWire) ListTools(step string) checks.Exchange {
	_, ex := w.s.listTools(w.ctx)
	return w.keep(step, ex)
}

func (w *clientWire) CallTool(step, name string, args map[string]any, sent ...string) checks.Exchange {
	if q, ok := args["query"].(string); ok && name == "search_notes" && len(args) == 1 && len(sent) == 0 {
		return w.keep(step, w.s.callSearch(w.ctx, q))
	}
	return w.keep(step, w.s.callTool(w.ctx, name, args, sent...))
}

func (w *clientWire) PathTools() []checks.PathTool {
	var out []checks.PathTool
	for _, t := range w.s.pathTools(w.ctx) {
		out = append(out, checks.PathTool{Name: t.name, Arg: t.arg, Array: t.array})
	}
	return out
}

func (w *clientWire) ToolArgs() []checks.ToolArg { return w.s.toolArgs(w.ctx) }

func (w *clientWire) ListResources(step string) []checks.Exchange {
	var out []checks.Exchange
	for i, ex := range w.s.listResourcePages(w.ctx) {
		out = append(out, w.keep(checks.PageStep(step, i), ex))
	}
	return out
}

func (w *clientWire) ListTemplates(step string) checks.Exchange {
	return w.keep(step, w.s.listTemplates(w.ctx))
}

func (w *clientWire) ReadResource(step, uri string, sent ...string) checks.Exchange {
	return w.keep(step, w.s.readResource(w.ctx, uri, sent...))
}

func (w *rawWire) ListTools(step string) checks.Exchange {
	return w.notSent(step)
}

func (w *rawWire) CallTool(step, _ string, _ map[string]any, _ ...string) checks.Exchange {
	return w.notSent(step)
}

func (w *rawWire) PathTools() []checks.PathTool { return nil }

func (w *rawWire) ToolArgs() []checks.ToolArg { return nil }

func (w *rawWire) ListResources(step string) []checks.Exchange {
	return []checks.Exchange{w.notSent(step)}
}

func (w *rawWire) ListTemplates(step string) checks.Exchange { return w.notSent(step) }

func (w *rawWire) ReadResource(step, _ string, _ ...string) checks.Exchange {
	return w.notSent(step)
}

func (w *rawWire) notSent(step string) checks.Exchange {
	rec := checks.Exchange{Step: step, NotSent: true, Error: "not sent: the protocol session sends raw lines only"}
	w.recorded = append(w.recorded, rec)
	return rec
}

// probeAndJudge runs a check whose probe and judge live in its value:
// the probe sends through the session, the judge reads what was recorded.
// The session files the exchanges under the check; they are returned by
// step. A check that also calls other tools is judged once those calls
// have run, in the process of other tools (othertools.go).
func (r *runner) probeAndJudge(ctx context.Context, s *session, c *CheckResult) map[string]*checks.Exchange {
	return r.probeThen(&clientWire{ctx: ctx, s: s, shown: map[string]*checks.Exchange{}}, c, nil)
}

// probeThen runs the check's probe through w; end, when set, adds the
// facts that are not exchanges before the judge reads them.
func (r *runner) probeThen(w *clientWire, c *CheckResult, end func(*checks.Facts)) map[string]*checks.Exchange {
	s := w.s
	facts := &checks.Facts{Fixtures: r.lay.fixtures(), Notes: r.lay.notes(), TimeLimit: r.cfg.Timeout.String(),
		Resources: s.resourcesOffered()}
	for _, req := range c.def.Requires {
		if ex := r.results[req.ID]; ex != nil {
			ref := *ex
			facts.SignIn = &ref
		}
	}
	c.def.Probe(w, facts)
	if end != nil {
		end(facts)
	}
	facts.Exchanges = w.recorded
	facts.Truth = r.truthFor(w.recorded)
	if s.tools != nil {
		// search_notes's own arguments are ToolArgs, not path tools: a
		// judge that lists the path tools it probed names only those.
		facts.PathTools = w.PathTools()
		facts.ToolArgs = w.ToolArgs()
		r.otherTools = r.otherTools || hasOtherTools(s.tools)
	}
	if c.def.Tools != nil {
		r.waiting = append(r.waiting, &waiting{c: c, facts: facts, shown: w.shown})
		return w.shown
	}
	r.judgeProbed(c, facts, w.shown)
	return w.shown
}

// judgeProbed runs the check's judge on what its probes recorded.
func (r *runner) judgeProbed(c *CheckResult, facts *checks.Facts, shown map[string]*checks.Exchange) {
	facts.Notes.Files = r.namedFiles(shown)
	r.transcribe([]*checks.Check{c.def}, facts)
	r.apply(c, c.def.JudgeOn(facts), shown)
}
