package checks

import (
	"fmt"
	"strings"

	"practice-notes/tests/acceptance/visible"
)

// check12Cases are the queries that are no phrase.
var check12Cases = []struct {
	label string
	args  map[string]any
	// warnOnly: a match is a likely problem, not proof of "everything"
	warnOnly bool
	want     string // results must hold this; "" allows none
}{
	{label: `""`, args: map[string]any{"query": ""}},
	{label: `"   "`, args: map[string]any{"query": "   "}},
	{label: "no query argument", args: map[string]any{}},
	{label: "query null", args: map[string]any{"query": nil}},
	{label: "query 42", args: map[string]any{"query": 42}, want: "42"},
	{label: `query ["sign-in"]`, args: map[string]any{"query": []string{"sign-in"}}, warnOnly: true},
}

var check12 = &Check{
	ID:      "12",
	Section: SectionTool,
	Title:   "empty, whitespace-only, missing and non-string queries are refused or find nothing",
	Hint:    "Refuse a query that is missing, not a string, empty or only whitespace with a clear error before searching.",
	Probe: func(w Wire, _ *Facts) bool {
		for _, tc := range check12Cases {
			w.CallTool(tc.label, "search_notes", tc.args)
		}
		return true
	},
	Needs: []need{needNotes, needExchanges, needTimeLimit},
	Judge: func(f *Facts) Verdict {
		var v Verdict
		refused, empty := 0, 0
		for _, tc := range check12Cases {
			ex, _ := f.step(tc.label)
			fail := func(warn bool, format string, args ...any) {
				v.Findings = append(v.Findings, Finding{Warn: warn, Step: ex.Step, Msg: fmt.Sprintf(format, args...)})
			}
			switch {
			case ex.NotSent:
				continue
			case ex.TimedOut:
				fail(false, "%s got no answer within %s", tc.label, f.TimeLimit)
				continue
			case ex.Error != "" || toolResult(ex).IsError:
				refused++
				continue
			}
			// The query is not a phrase: nothing in the reply is an echo.
			rd := f.read(ex, "")
			if tc.warnOnly {
				if len(rd.Results) > 0 || len(rd.Quoted) > 0 {
					fail(true, "%s was accepted and answered with results; a non-string query should be refused", tc.label)
				} else {
					empty++
				}
				continue
			}
			files, paras := f.Notes.unrelated(rd, tc.want)
			switch {
			case len(files) == 0 && len(paras) == 0:
				empty++
			case len(files) > 0:
				fail(false, "%s named %d note(s) as results: %s", tc.label, len(files), visible.Clip(strings.Join(files, ", "), 120))
			default:
				fail(false, "%s returned %d passage(s), first: %q", tc.label, len(paras), visible.Clip(paras[0], 80))
			}
		}
		v.Summary = fmt.Sprintf("%d of %d refused, %d answered with no passage", refused, len(check12Cases), empty)
		return v
	},
	Says:  `\bempty quer\w*|\bblank quer\w*|\bwhitespace[- ]only\b|\bmissing quer\w*|\bnon-?string\b`,
	Parts: parts12,
}
