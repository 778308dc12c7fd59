package checks

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"practice-notes/tests/acceptance/visible"
)

// Handshake is the step the harness records check 8's handshake under:
// the process's initialize (or server/discover) and its reply, made
// before the probe runs.
const Handshake = "handshake"

const (
	// ListTools8 is check 8's tools/list, whose names the report lists.
	ListTools8 = "list tools"
	stepCall8  = "call search_notes"
)

// discoverFrom is the first protocol version whose handshake is
// server/discover rather than initialize.
const discoverFrom = "2026-07-28"

var check8 = &Check{
	ID:      "8",
	Process: OwnProcess,
	Section: SectionAcceptance,
	Title:   "tool discovery and tool call over stdio with a separate process, clean stdout, exit on stdin close",
	Hint:    "Offer search_notes with a query property in tools/list, answer tools/call, keep stdout for JSON-RPC only (log to stderr) and exit when stdin closes.",
	// Lists the tools and calls search_notes in a process of its own;
	// the harness then closes its stdin and records how it ended.
	Probe: func(w Wire, _ *Facts) bool {
		w.ListTools(ListTools8)
		search(w, stepCall8, SignIn)
		return true
	},
	Needs: []need{needExchanges, needNegotiated, needEnded},
	Judge: func(f *Facts) Verdict {
		var v Verdict
		var parts []string
		if hs, ok := f.step(Handshake); ok && f.Negotiated != "" {
			how := "handshake"
			if f.Negotiated < discoverFrom {
				how = "initialize handshake"
			}
			parts = append(parts, fmt.Sprintf("separate process, %s → protocol %s in %d ms", how, f.Negotiated, hs.Millis))
		}
		if lex, _ := f.step(ListTools8); v.got(lex, "tools/list") {
			var names []string
			var found *mcp.Tool
			for _, t := range toolsOf(lex) {
				names = append(names, t.Name)
				if t.Name == "search_notes" {
					found = t
				}
			}
			switch {
			case found == nil:
				v.fail(lex, "tools/list has no search_notes (tools: %v)", names)
			case !schemaHasQuery(found.InputSchema):
				v.fail(lex, "search_notes input schema does not declare a query property: %s", visible.Clip(marshal(found.InputSchema), 160))
			default:
				parts = append(parts, fmt.Sprintf("tools/list → %v", names))
			}
			if len(names) > 1 {
				v.Notes = append(v.Notes, fmt.Sprintf("other tools offered: %v (each one that may be called is probed in a process of its own)", names))
			}
		}
		if ex, _ := f.step(stepCall8); v.got(ex, "tools/call") {
			res := toolResult(ex)
			switch {
			case res.IsError:
				v.fail(ex, "tools/call search_notes sign-in answered isError: %q", visible.Clip(ToolText(res), 120))
			case len(res.Content) == 0:
				v.fail(ex, "tools/call search_notes returned no content")
			default:
				parts = append(parts, fmt.Sprintf("tools/call search_notes answered in %d ms", ex.Millis))
			}
		}
		if e := f.Ended; e != nil {
			parts = v.judgeEnd(e, parts)
		}
		v.Summary = strings.Join(parts, "; ")
		return v
	},
	Test:  8,
	Says:  `\bdiscovery and (?:the )?tool[- ]call\b|\btool discovery\b|\bdescubrimiento\b|\bdecouverte\b|\berkennung\b|\bdescoberta\b|\bscoperta\b|\bontdekking\b|\bwykrywani\w*`,
	Parts: parts8,
}

// judgeEnd judges how the process ended and what it wrote: it exits by
// itself with status 0 once stdin closes, and every reply carries an id.
func (v *Verdict) judgeEnd(e *Ended, parts []string) []string {
	if e.OnItsOwn {
		v.Observed = append(v.Observed, fmt.Sprintf("client closed the server's stdin; the process exited by itself after %d ms with status %d", e.AfterMs, e.Code))
	} else {
		v.Observed = append(v.Observed, fmt.Sprintf("client closed the server's stdin; the process was still running after %s and got %s", e.Grace, e.Signal))
	}
	if n := e.NoID; n != nil {
		// The line that broke the session goes first: the failures after
		// it are what it caused.
		where := fmt.Sprintf("stdout line %d of this process", n.At)
		if n.After != "" {
			where += "; the last notification the client had sent was " + n.After + ", which gets no reply"
		}
		v.Findings = append([]Finding{{
			Msg:    fmt.Sprintf("the server wrote a reply with no id (%s); a client cannot match it to a request and drops the session", where),
			Detail: []string{"stdout: " + n.Line},
			Hint:   "Answer requests only: a notification (no id, such as notifications/initialized) gets no reply, and every reply carries the id of its request.",
		}}, v.Findings...)
	}
	v.Observed = append(v.Observed, fmt.Sprintf("this process wrote %d stdout lines, each a JSON-RPC 2.0 message; stderr had %d bytes", e.Messages, e.StderrBytes))
	switch {
	case !e.OnItsOwn:
		v.Findings = append(v.Findings, Finding{Msg: fmt.Sprintf("process still running %s after stdin closed; harness sent %s", e.Grace, e.Signal),
			Detail: e.Tail, Hint: "Exit when stdin reaches end of file (the client closing the connection), within a few seconds."})
	case e.Code != 0:
		v.Findings = append(v.Findings, Finding{Msg: fmt.Sprintf("process exited with status %d after stdin closed", e.Code),
			Detail: e.Tail, Hint: "Treat end of stdin as a normal shutdown and exit with status 0."})
	default:
		parts = append(parts, fmt.Sprintf("stdin closed → exit 0 in %d ms", e.AfterMs))
	}
	return append(parts, fmt.Sprintf("stdout of this process: %d JSON-RPC lines", e.Messages))
}

// schemaHasQuery says whether an input schema declares a query property.
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
