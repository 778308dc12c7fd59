package harness

import (
	"context"
	"encoding/json"

	"practice-notes/tests/acceptance/checks"

	"practice-notes/tests/acceptance/visible"
)

// check8 runs check 8 from its value in a process of its own: the
// handshake that started the process is its first exchange, and once the
// probe has run the harness closes the server's stdin and records how the
// process ended and what it wrote, for the judge.
func (r *runner) check8(ctx context.Context, s *session, c *CheckResult) {
	w := &clientWire{ctx: ctx, s: s, shown: map[string]*checks.Exchange{}}
	negotiated := ""
	if ir := s.cs.InitializeResult(); ir != nil {
		negotiated = ir.ProtocolVersion
		r.rep.Check8Protocol = ir.ProtocolVersion
		method := "initialize"
		if ir.ProtocolVersion >= "2026-07-28" {
			method = "server/discover"
		}
		ex := &checks.Exchange{
			Check:   c.ID,
			Method:  method,
			Request: marshal(map[string]any{"protocolVersion": s.requested, "clientInfo": map[string]string{"name": "practice-notes-acceptance"}}),
			Decoded: marshal(ir),
			Millis:  s.connectMs,
			Wire:    s.wire.pair(0, method),
		}
		c.Exchanges = append(c.Exchanges, ex)
		w.keep(checks.Handshake, ex)
	}
	r.probeThen(w, c, func(f *checks.Facts) {
		f.Negotiated = negotiated
		if ex := w.shown[checks.ListTools8]; ex != nil && ex.Error == "" {
			r.rep.Tools = toolNames(ex.Decoded)
		}
		info := s.stop(r.cfg.ExitTimeout)
		r.rep.ExitAfterMs, r.rep.ExitCode = info.After.Milliseconds(), info.Code
		msgs, _ := s.tap.stats()
		e := &checks.Ended{OnItsOwn: info.OnItsOwn, AfterMs: info.After.Milliseconds(), Code: info.Code, Signal: info.Signal,
			Grace: r.cfg.ExitTimeout.String(), Messages: msgs, StderrBytes: len(s.stderr.String())}
		if !info.OnItsOwn || info.Code != 0 {
			e.Tail = s.outputTail()
		}
		if line, at, notification, ok := s.wire.idless(); ok {
			e.NoID = &checks.NoIDReply{Line: visible.Truncate(line, 600), At: at, After: notification}
		}
		f.Ended = e
	})
}

// toolNames reads the names of a tools/list reply as the session
// records it.
func toolNames(reply string) []string {
	var list struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	_ = json.Unmarshal([]byte(reply), &list)
	var names []string
	for _, t := range list.Tools {
		names = append(names, t.Name)
	}
	return names
}
