package checks

import (
	"fmt"
	"regexp"
	"strings"

	"practice-notes/tests/acceptance/truth"
	"practice-notes/tests/acceptance/visible"
)

// check11Queries hold regular-expression and glob characters.
var check11Queries = []string{"sign.in", "(N2)", "[", "*"}

// phraseQueries are phrases of words that the hard-case notes hold only
// apart (in different notes, or in one paragraph in the other order): the
// true answer is empty, so a server that matches the words one by one
// names a note.
var phraseQueries = []string{"quokka tessellated", "quokka tessellated marzipan", "lantern walrus"}

const stepStillAnswers = "sign-in afterwards"

var regexErrRe = regexp.MustCompile(`(?i)regex|regular expression|pattern|unterminated|nothing to repeat|missing \)|unbalanced|invalid group|bad escape`)

var check11 = &Check{
	ID:      "11",
	Section: SectionTool,
	Title:   "the query is a literal phrase: sign.in, (N2), [ and * match only themselves, and words found only apart match nothing",
	Hint:    "Search for the query as plain text (substring search); never compile it as a regular expression or glob, nor match its words one by one.",
	Probe: func(w Wire, _ *Facts) bool {
		for _, q := range check11Queries {
			search(w, q, q)
		}
		for _, q := range phraseQueries {
			search(w, q, q)
		}
		search(w, stepStillAnswers, SignIn)
		return true
	},
	Needs: []need{needNotes, needTruth, needExchanges, needTimeLimit},
	Judge: func(f *Facts) Verdict {
		var v Verdict
		fail := func(ex Exchange, warn bool, format string, args ...any) {
			v.Findings = append(v.Findings, Finding{Warn: warn, Step: ex.Step, Msg: fmt.Sprintf(format, args...)})
		}
		var parts []string
		for _, q := range check11Queries {
			ex, _ := f.step(q)
			switch {
			case ex.NotSent:
				continue
			case ex.TimedOut:
				fail(ex, false, "%q got no answer within %s", q, f.TimeLimit)
				continue
			case ex.Error != "":
				if regexErrRe.MatchString(ex.Error) {
					fail(ex, false, "%q was treated as a pattern: %s", q, visible.Clip(ex.Error, 120))
				} else {
					fail(ex, true, "%q was refused with a JSON-RPC error rather than searched as text", q)
				}
				continue
			case toolResult(ex).IsError:
				if msg := ToolText(toolResult(ex)); regexErrRe.MatchString(msg) {
					fail(ex, false, "%q was treated as a pattern: %q", q, visible.Clip(msg, 120))
				} else {
					parts = append(parts, fmt.Sprintf("%s refused", q))
				}
				continue
			}
			files, paras := f.Notes.unrelated(f.read(ex, q), q)
			files, big := f.Notes.oversized(files)
			if len(big) > 0 {
				parts = append(parts, fmt.Sprintf("%s also named %s, over the file limit (check 6's rule)", q, visible.Clip(strings.Join(big, ", "), 120)))
			}
			if len(files) > 0 || len(paras) > 0 {
				if len(files) > 0 {
					fail(ex, false, "%q named %d result file(s) that do not contain %q: %s", q, len(files), q, visible.Clip(strings.Join(files, ", "), 120))
				} else {
					fail(ex, false, "%q returned %d passage(s) that do not contain %q, first: %q", q, len(paras), q, visible.Clip(paras[0], 80))
				}
				continue
			}
			parts = append(parts, fmt.Sprintf("%s answered with no passage lacking it", q))
		}
		for _, q := range phraseQueries {
			ex, ok := f.step(q)
			a, known := f.answer(q)
			if !ok || !answered(ex) || toolResult(ex).IsError || !known || len(a.Hits) > 0 {
				continue // not sent, or judged as any search (no answer: check 8)
			}
			rd := f.read(ex, q)
			if shown := f.presented(rd); len(shown) > 0 {
				fail(ex, false, "%q is a phrase whose words the notes hold only apart, so nothing matches it, yet the reply presented %s: the words were matched one by one", q, visible.Clip(strings.Join(shown, ", "), 160))
				continue
			}
			parts = append(parts, fmt.Sprintf("%q found nothing", q))
		}
		if ex, _ := f.step(stepStillAnswers); ex.Error != "" && !ex.NotSent {
			fail(ex, false, "the server stopped answering after those queries")
		}
		if len(v.Findings) == 0 {
			v.Summary = strings.Join(parts, "; ") + "; the server still answers sign-in"
		}
		return v
	},
	Test: 2,
	Says: `\bregex\w*|\bregular expressions?\b|\bliteral\b|\bglob\w*|\bwildcards?\b` + `|` + saysAbsent,
}

// oversized splits off the files over the size limit: a server that
// searched one read what it should have skipped, and matched what it
// appended to the cut ("[truncated]" holds "["), which is check 6's rule,
// not a query read as a pattern.
func (n *Notes) oversized(files []string) (rest, big []string) {
	for _, f := range files {
		rel, ok := n.RootRel(f)
		if ok && (len(n.Files[rel]) > truth.FileLimit || contains(plantNames(check6Big), rel)) {
			big = append(big, f)
			continue
		}
		rest = append(rest, f)
	}
	return rest, big
}
