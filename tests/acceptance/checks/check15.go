package checks

import (
	"fmt"
	"regexp"
	"strings"

	"practice-notes/tests/acceptance/visible"
)

// check15Queries are asked again and again; the spread phrase, in notes
// of several folders, 24 times: a small Go map repeats its order from one
// iteration to the next with a chance of up to about 5/8, so five calls
// missed such a server about once in ten runs; 24 miss it about once in
// 50,000. Calls stop at the first difference.
func check15Queries(f *Facts) []struct {
	q     string
	times int
} {
	return []struct {
		q     string
		times int
	}{{SignIn, 2}, {f.of(boundPhrase).Marker, 2}, {f.of(absentPhrase).Marker, 2}, {f.of(spreadPhrase).Marker, 24}}
}

func callStep(q string, i int) string { return fmt.Sprintf("%s, call %d", q, i) }

var volatileRe = regexp.MustCompile(`\d+(\.\d+)?\s*(ms|µs|us|ns|s|sec|secs|seconds|milliseconds)\b|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?`)

// timedFieldRe is a JSON number under a key that names a time
// (`"_meta":{"executionTime":9}`, "durationMs", "elapsed", "took"): a bare
// count of milliseconds, or a timestamp, carries no unit to recognise.
var timedFieldRe = regexp.MustCompile(`("(?:[\w-]*(?i:time|duration|elapsed|took|millis|_ms)[\w-]*|[\w-]*Ms)"\s*:\s*)-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?`)

// sameReply says whether two replies are the same, ignoring durations and
// timestamps.
func sameReply(a, b Exchange) bool {
	return unvolatile(marshal(toolResult(a))) == unvolatile(marshal(toolResult(b)))
}

func unvolatile(s string) string {
	return timedFieldRe.ReplaceAllString(volatileRe.ReplaceAllString(s, "<duration>"), "$1<duration>")
}

// spreadPhrase is a word in notes of several folders, none outside the
// root: a reply whose order depends on a map or a hash shows on it. The
// notes that hold it are other checks' (3, 6, 10, 21), which ask for it.
var spreadPhrase = &Plant{Name: "spread phrase", Make: func(g *Ground) (Fixture, error) {
	return Fixture{Marker: "spreadmark-" + g.Token(5)}, nil
}}

var check15 = &Check{
	ID:       "15",
	Section:  SectionTool,
	Title:    "the same call twice gives the same answer",
	Hint:     "Make results deterministic: walk files in sorted order and keep no state between calls.",
	Fixtures: []*Plant{spreadPhrase},
	Probe: func(w Wire, f *Facts) bool {
		for _, c := range check15Queries(f) {
			first := search(w, callStep(c.q, 1), c.q)
			if !answered(first) {
				continue
			}
			for i := 2; i <= c.times; i++ {
				again := search(w, callStep(c.q, i), c.q)
				if !answered(again) || !sameReply(first, again) {
					break
				}
			}
		}
		return true
	},
	Needs: []need{needFixtures, needExchanges},
	Judge: func(f *Facts) Verdict {
		var v Verdict
		var same []string
		for _, c := range check15Queries(f) {
			first, _ := f.step(callStep(c.q, 1))
			if !v.answered(first, "tools/call") {
				continue
			}
			differs := false
			for i := 2; i <= c.times && !differs; i++ {
				again, _ := f.step(callStep(c.q, i))
				if !v.answered(again, "tools/call") {
					differs = true
					break
				}
				if !sameReply(first, again) {
					differs = true
					v.Findings = append(v.Findings, Finding{Step: first.Step,
						Msg:    fmt.Sprintf("identical calls for %q got different replies (call 1 and call %d)", visible.Clip(c.q, 40), i),
						Detail: append([]string{fmt.Sprintf("call %d:", i)}, quote(again)[1:]...)})
				}
			}
			if !differs {
				same = append(same, fmt.Sprintf("%s (%d calls)", visible.Clip(c.q, 30), c.times))
			}
		}
		v.Summary = "identical replies, ignoring durations and timestamps, for " + strings.Join(same, ", ")
		return v
	},
	Says: `\bdeterministic\w*|\bsame answer\b|\bidempoten\w*`,
}
