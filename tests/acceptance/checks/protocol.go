package checks

import (
	"encoding/json"
	"strings"

	"practice-notes/tests/acceptance/visible"
)

// The protocol checks 8.1-8.7 share one server process spoken to in raw
// JSON-RPC lines, so that they can send what a client library never
// would: string ids, unknown methods, a line that is not JSON. Check 8.2
// opens the session; 8.6 and 8.7 judge its initialize reply.

// Steps of the protocol session, by which judges find their exchanges.
const (
	stepInit        = "initialize"
	stepInitNumber  = "initialize with id 1"
	stepInitialized = "initialized"
	stepPing        = "ping"
	stepUnknown     = "unknown method"
	stepUnknownTool = "unknown tool"
	stepNotJSON     = "not JSON"
	stepPingAfter   = "ping after the line that is not JSON"
)

func initLine(id string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"practice-notes-acceptance","version":"1.0.0"}}}`
}

// message is one JSON-RPC message as read from a line.
type message map[string]json.RawMessage

// parse reads a line as a JSON object; nil if it is not one.
func parse(line string) message {
	var m message
	if json.Unmarshal([]byte(line), &m) != nil {
		return nil
	}
	return m
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (m message) err() *rpcError {
	raw, ok := m["error"]
	if !ok {
		return nil
	}
	var e rpcError
	if json.Unmarshal(raw, &e) != nil {
		return &rpcError{Code: 0, Message: string(raw)}
	}
	return &e
}

// reply returns the parsed reply of the named step; nil if none came.
func (f *Facts) reply(step string) (message, Exchange) {
	ex, ok := f.step(step)
	if !ok || ex.Reply == "" {
		return nil, ex
	}
	return parse(ex.Reply), ex
}

// opened returns the answered initialize of the protocol session: with
// the string id, or else the retry with a number.
func (f *Facts) opened() (message, Exchange, bool) {
	if m, ex := f.reply(stepInit); m != nil {
		return m, ex, true
	}
	if m, ex := f.reply(stepInitNumber); m != nil {
		return m, ex, true
	}
	return nil, Exchange{}, false
}

// notOpened is every protocol check's finding when initialize got no
// answer at all: nothing else was sent.
func notOpened(f *Facts) Verdict {
	ex, _ := f.step(stepInit)
	return Verdict{Findings: []Finding{{Warn: true, Msg: "initialize (protocol 2024-11-05) was not answered: " + ex.Error, Step: stepInit,
		Detail: tailLines("stderr", f.Stderr), Hint: "Answer initialize for protocol revision 2024-11-05 (the official SDKs do)."}}}
}

// tailLines quotes the last three non-blank lines of a process's output.
func tailLines(label, text string) []string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if len(lines) > 3 {
		lines = lines[len(lines)-3:]
	}
	var out []string
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			out = append(out, label+": "+visible.Clip(l, 200))
		}
	}
	return out
}

func warnOn(step, msg string) Finding { return Finding{Warn: true, Msg: msg, Step: step} }
