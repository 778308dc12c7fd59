package harness

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"practice-notes/tests/acceptance/checks"
)

// call is what the harness alone reads of an exchange of the client
// session: neither the report nor a judge shows it.
type call struct {
	sent   []string // strings the request carried (echoes are not leaks)
	text   string   // everything the reply said, for scanning
	result *mcp.CallToolResult
	tool   string // for tools/call: the tool's name
	query  string // for search_notes: the query sent
	rd     *reading
	// phase names the part of the run that sent it when that is not its
	// check's probe: the generated phase, with its seed.
	phase string
}

// calls holds the call of each exchange the client sessions sent. The
// harness runs one session at a time, so the map needs no lock.
type calls map[*checks.Exchange]*call

// of returns the call of ex, made empty the first time.
func (m calls) of(ex *checks.Exchange) *call {
	c := m[ex]
	if c == nil {
		c = &call{}
		m[ex] = c
	}
	return c
}

// label names the request of ex: the method, and the tool for tools/call.
func (m calls) label(ex *checks.Exchange) string {
	if c := m[ex]; c != nil && c.tool != "" {
		return ex.Method + " " + c.tool
	}
	return ex.Method
}
