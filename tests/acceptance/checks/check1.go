package checks

import (
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"practice-notes/tests/acceptance/visible"
)

// SignIn is check 1's search, the reference of checks 9 and 20.
const SignIn = "sign-in"

var check1 = &Check{
	ID:      "1",
	Section: SectionAcceptance,
	Title:   "sign-in returns the exact N2 passage from sample-notes.md",
	Hint:    "Return the N2 paragraph byte-for-byte (split at blank lines, no reflowing or trimming inside) and name sample-notes.md as its source.",
	Result:  SignIn,
	Probe: func(w Wire, _ *Facts) bool {
		w.CallTool(SignIn, "search_notes", map[string]any{"query": SignIn})
		return true
	},
	Needs: []need{needNotes, needExchanges},
	Judge: func(f *Facts) Verdict {
		var v Verdict
		ex, _ := f.step(SignIn)
		if !v.answered(ex, "tools/call") {
			return v
		}
		res := toolResult(ex)
		if res.IsError {
			v.fail(ex, "isError reply: %q", visible.Clip(FirstText(res), 160))
			return v
		}
		if f.Notes.N2Err != "" {
			v.Findings = append(v.Findings, Finding{Step: ex.Step, Msg: "cannot grade: " + f.Notes.N2Err})
			return v
		}
		n2 := f.Notes.JudgeN2(ReadResult(res, SignIn, f.Notes.Paras))
		v.Compared = n2.Cmp
		if n2.OK {
			v.Summary, v.Notes = n2.Summary, n2.Notes
			return v
		}
		v.Findings = append(v.Findings, Finding{Step: ex.Step, Msg: n2.Problem, Detail: n2.Diff})
		return v
	},
	Test:    1,
	Says:    saysSignIn,
	Forbids: forbidsInvented,
}

// toolResult reads the result of a tools/call reply line.
func toolResult(ex Exchange) *mcp.CallToolResult {
	var reply struct {
		Result *mcp.CallToolResult `json:"result"`
	}
	if json.Unmarshal([]byte(ex.Reply), &reply) != nil || reply.Result == nil {
		return &mcp.CallToolResult{}
	}
	return reply.Result
}
