package harness

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"practice-notes/tests/acceptance/checks"
)

// answered reports a failed call as a check failure and returns false.
func answered(c *CheckResult, ex *Exchange) bool {
	if ex.NotSent {
		return false // the request the server did not answer is the finding
	}
	if ex.failed() {
		if len(ex.Wire) > 1 && !ex.answered() {
			c.failOn(ex, "%s was answered on stdout, but the client had dropped the session and could not read the reply: %s", ex.Method, clip(ex.Error, 200))
			return false
		}
		c.failOn(ex, "%s got no answer: %s", ex.Method, clip(ex.Error, 200))
		return false
	}
	return true
}

// check1 runs check 1 from its value; its search is the reference of
// checks 9 and 20.
func (r *runner) check1(ctx context.Context, s *session, c *CheckResult) {
	r.signIn = r.probeAndJudge(ctx, s, c)[checks.SignIn]
}

// searchAll sends queries whose replies the run-wide leak rules judge.
func (r *runner) searchAll(ctx context.Context, s *session, c *CheckResult, queries []string) int {
	n := 0
	for _, q := range queries {
		ex := s.callSearch(ctx, q)
		n++
		if ex.TimedOut {
			c.failOn(ex, "no answer within %s", r.cfg.Timeout)
		}
	}
	return n
}

// probeRefused reads each URI and requires a JSON-RPC error.
func (r *runner) probeRefused(ctx context.Context, s *session, c *CheckResult, uris []string, extraSent ...string) int {
	refused := 0
	for _, u := range uris {
		ex := s.readResource(ctx, u, extraSent...)
		if ex.failed() {
			if ex.TimedOut {
				c.failOn(ex, "resources/read %s got no answer within %s", u, r.cfg.Timeout)
			}
			if !ex.TimedOut && !ex.NotSent {
				refused++
			}
			continue
		}
		c.failOn(ex, "resources/read %s was not refused (returned %d bytes)", u, len(resourceText(ex)))
	}
	return refused
}

// Check 7: nothing changed on disk.
func (r *runner) check7(before snapshot) {
	c := r.checks["7"]
	after, err := takeSnapshot(r.lay.Base)
	if err != nil {
		c.fail("re-reading fixtures: %v", err)
		return
	}
	facts := &checks.Facts{Files: &checks.FileFacts{Before: before, After: after, Bodies: bodies(r.lay.Base, before, after)}, Calls: len(r.allExchanges)}
	for _, ex := range r.allExchanges {
		if !ex.failed() {
			facts.Answered++
		}
	}
	r.judge(c, facts)
}

// Check 8: discovery and a tool call over stdio, clean stdout, clean exit.
func (r *runner) check8(ctx context.Context, s *session, c *CheckResult) {
	ir := s.cs.InitializeResult()
	var parts []string
	if ir != nil {
		r.rep.Check8Protocol = ir.ProtocolVersion
		how := "handshake"
		if ir.ProtocolVersion < "2026-07-28" {
			how = "initialize handshake"
		}
		parts = append(parts, fmt.Sprintf("separate process, %s → protocol %s in %d ms", how, ir.ProtocolVersion, s.connectMs))
		method := "initialize"
		if how == "handshake" {
			method = "server/discover"
		}
		c.Exchanges = append(c.Exchanges, &Exchange{
			Check:   "8",
			Method:  method,
			Request: marshal(map[string]any{"protocolVersion": s.requested, "clientInfo": map[string]string{"name": "practice-notes-acceptance"}}),
			Reply:   marshal(ir),
			Millis:  s.connectMs,
			Wire:    s.wire.pair(0, method),
		})
	}
	tools, lex := s.listTools(ctx)
	if answered(c, lex) {
		var names []string
		var found *mcp.Tool
		for _, t := range tools {
			names = append(names, t.Name)
			if t.Name == "search_notes" {
				found = t
			}
		}
		r.rep.Tools = names
		switch {
		case found == nil:
			c.failOn(lex, "tools/list has no search_notes (tools: %v)", names)
		case !schemaHasQuery(found.InputSchema):
			c.failOn(lex, "search_notes input schema does not declare a query property: %s", clip(marshal(found.InputSchema), 160))
		default:
			parts = append(parts, fmt.Sprintf("tools/list → %v", names))
		}
		if len(names) > 1 {
			c.note("other tools offered (not probed by this harness): %v", names)
		}
	}
	ex := s.callSearch(ctx, "sign-in")
	if answered(c, ex) {
		switch {
		case ex.result.IsError:
			c.failOn(ex, "tools/call search_notes sign-in answered isError: %q", clip(toolText(ex.result), 120))
		case len(ex.result.Content) == 0:
			c.failOn(ex, "tools/call search_notes returned no content")
		default:
			parts = append(parts, fmt.Sprintf("tools/call search_notes answered in %d ms", ex.Millis))
		}
	}
	info := s.stop(r.cfg.ExitTimeout)
	r.rep.ExitAfterMs, r.rep.ExitCode = info.After.Milliseconds(), info.Code
	if info.OnItsOwn {
		c.Observed = append(c.Observed, fmt.Sprintf("client closed the server's stdin; the process exited by itself after %d ms with status %d", info.After.Milliseconds(), info.Code))
	} else {
		c.Observed = append(c.Observed, fmt.Sprintf("client closed the server's stdin; the process was still running after %s and got %s", r.cfg.ExitTimeout, info.Signal))
	}
	if line, at, notification, ok := s.wire.idless(); ok {
		// The line that broke the session goes first: the failures after
		// it are what it caused.
		where := fmt.Sprintf("stdout line %d of this process", at)
		if notification != "" {
			where += "; the last notification the client had sent was " + notification + ", which gets no reply"
		}
		c.findings = append([]finding{{
			msg:    fmt.Sprintf("the server wrote a reply with no id (%s); a client cannot match it to a request and drops the session", where),
			detail: []string{"stdout: " + truncateBytes(line, 600)},
			hint:   "Answer requests only: a notification (no id, such as notifications/initialized) gets no reply, and every reply carries the id of its request.",
		}}, c.findings...)
	}
	msgsSeen, _ := s.tap.stats()
	c.Observed = append(c.Observed, fmt.Sprintf("this process wrote %d stdout lines, each a JSON-RPC 2.0 message; stderr had %d bytes", msgsSeen, len(s.stderr.String())))
	switch {
	case !info.OnItsOwn:
		c.add(finding{msg: fmt.Sprintf("process still running %s after stdin closed; harness sent %s", r.cfg.ExitTimeout, info.Signal),
			detail: s.outputTail(), hint: "Exit when stdin reaches end of file (the client closing the connection), within a few seconds."})
	case info.Code != 0:
		c.add(finding{msg: fmt.Sprintf("process exited with status %d after stdin closed", info.Code),
			detail: s.outputTail(), hint: "Treat end of stdin as a normal shutdown and exit with status 0."})
	default:
		parts = append(parts, fmt.Sprintf("stdin closed → exit 0 in %d ms", info.After.Milliseconds()))
	}
	msgs, _ := s.tap.stats()
	parts = append(parts, fmt.Sprintf("stdout of this process: %d JSON-RPC lines", msgs))
	c.Summary = strings.Join(parts, "; ")
}

func schemaHasQuery(schema any) bool {
	b, err := json.Marshal(schema)
	if err != nil {
		return false
	}
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(b, &s) != nil {
		return false
	}
	_, ok := s.Properties["query"]
	return ok
}
