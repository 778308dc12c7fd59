package harness

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// This file holds the checks for the rules of the specification's "One
// tool" and "Access boundary" sections beyond its eight acceptance tests.

// n2Found reports whether a reply carries the N2 passage: verbatim, or
// (for text replies) a verbatim run of words around sign-in as check 1
// accepts.
func (r *runner) n2Found(res *mcp.CallToolResult) bool {
	if res == nil || res.IsError || len(r.lay.N2) == 0 {
		return false
	}
	texts := replyTexts(res)
	for _, p := range r.lay.N2 {
		if containsAny(texts, strings.TrimRight(p.Text, "\r\n")) {
			return true
		}
	}
	want := r.lay.N2[0].Text
	words := len(wordRe.FindAllString(want, -1))
	return longestVerbatimRun(want, "sign-in", texts) >= min(words, 6)
}

// quoted returns the note paragraphs of the root that a reply quotes (by
// their first 40 bytes), leaving out those for which keep returns true.
func (r *runner) quoted(res *mcp.CallToolResult, keep func(p string) bool) []string {
	if res == nil {
		return nil
	}
	texts := replyTexts(res)
	var out []string
	for _, p := range r.lay.paras {
		if keep != nil && keep(p.Text) {
			continue
		}
		if containsAny(texts, prefixBytes(p.Text, 40)) {
			out = append(out, p.Text)
		}
	}
	return out
}

func prefixBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}

// Check 9: other capitalisations of sign-in find the N2 passage.
func (r *runner) check9(ctx context.Context, s *session, c *CheckResult) {
	if r.lay.N2Err != nil {
		c.skip("the practice data has no N2 passage to look for (%v)", r.lay.N2Err)
		return
	}
	var ok []string
	for _, q := range []string{"SIGN-IN", "Sign-In"} {
		ex := s.callSearch(ctx, q)
		if !answered(c, ex) {
			continue
		}
		if r.n2Found(ex.result) {
			ok = append(ok, q)
		} else {
			c.failOn(ex, "%q did not return the N2 passage that sign-in returns", q)
		}
	}
	c.Summary = fmt.Sprintf("%s found the N2 passage", strings.Join(ok, " and "))
}

// Check 10: a non-ASCII phrase in another case.
func (r *runner) check10(ctx context.Context, s *session, c *CheckResult) {
	q := strings.ToUpper(r.lay.UnicodePhrase)
	ex := s.callSearch(ctx, q)
	if ex.failed() {
		if !ex.NotSent {
			c.warnOn(ex, "%q got no answer", q)
		}
		return
	}
	if containsAny(replyTexts(ex.result), r.lay.UnicodeProof) {
		c.Summary = fmt.Sprintf("%q found %s, written %q", q, r.lay.UnicodeRel, r.lay.UnicodePhrase)
		return
	}
	c.warnOn(ex, "%q did not find %s, where the note says %q", q, r.lay.UnicodeRel, r.lay.UnicodePhrase)
}

var regexErrRe = regexp.MustCompile(`(?i)regex|regular expression|pattern|unterminated|nothing to repeat|missing \)|unbalanced|invalid group|bad escape`)

// Check 11: regular-expression characters match only themselves.
func (r *runner) check11(ctx context.Context, s *session, c *CheckResult) {
	queries := []string{"sign.in", "(N2)", "[", "*"}
	var parts []string
	for _, q := range queries {
		ex := s.callSearch(ctx, q)
		switch {
		case ex.NotSent:
			continue
		case ex.TimedOut:
			c.failOn(ex, "%q got no answer within %s", q, r.cfg.Timeout)
			continue
		case ex.failed():
			if regexErrRe.MatchString(ex.Error) {
				c.failOn(ex, "%q was treated as a pattern: %s", q, clip(ex.Error, 120))
			} else {
				c.warnOn(ex, "%q was refused with a JSON-RPC error rather than searched as text", q)
			}
			continue
		case ex.result.IsError:
			if msg := toolText(ex.result); regexErrRe.MatchString(msg) {
				c.failOn(ex, "%q was treated as a pattern: %q", q, clip(msg, 120))
			} else {
				parts = append(parts, fmt.Sprintf("%s refused", q))
			}
			continue
		}
		if foreign := r.quoted(ex.result, func(p string) bool { return containsFold(p, q) }); len(foreign) > 0 {
			c.failOn(ex, "%q returned %d passage(s) that do not contain %q, first: %q", q, len(foreign), q, clip(foreign[0], 80))
			continue
		}
		parts = append(parts, fmt.Sprintf("%s answered with no passage lacking it", q))
	}
	ex := s.callSearch(ctx, "sign-in")
	if ex.failed() && !ex.NotSent {
		c.failOn(ex, "the server stopped answering after those queries")
	}
	c.Summary = strings.Join(parts, "; ") + "; the server still answers sign-in"
}

// Check 12: empty, whitespace-only, missing and non-string queries.
func (r *runner) check12(ctx context.Context, s *session, c *CheckResult) {
	cases := []struct {
		label string
		args  map[string]any
		// warnOnly: a match is a likely problem, not proof of "everything"
		warnOnly bool
		keep     func(p string) bool
	}{
		{label: `""`, args: map[string]any{"query": ""}},
		{label: `"   "`, args: map[string]any{"query": "   "}},
		{label: "no query argument", args: map[string]any{}},
		{label: "query null", args: map[string]any{"query": nil}},
		{label: "query 42", args: map[string]any{"query": 42}, keep: func(p string) bool { return strings.Contains(p, "42") }},
		{label: `query ["sign-in"]`, args: map[string]any{"query": []string{"sign-in"}}, warnOnly: true},
	}
	refused, empty := 0, 0
	for _, tc := range cases {
		ex := s.callTool(ctx, "search_notes", tc.args)
		switch {
		case ex.NotSent:
			continue
		case ex.TimedOut:
			c.failOn(ex, "%s got no answer within %s", tc.label, r.cfg.Timeout)
			continue
		case ex.failed() || ex.result.IsError:
			refused++
			continue
		}
		got := r.quoted(ex.result, tc.keep)
		switch {
		case len(got) == 0:
			empty++
		case tc.warnOnly:
			c.warnOn(ex, "%s was accepted and returned %d passage(s); a non-string query should be refused", tc.label, len(got))
		default:
			c.failOn(ex, "%s returned %d passage(s), first: %q", tc.label, len(got), clip(got[0], 80))
		}
	}
	c.Summary = fmt.Sprintf("%d of %d refused, %d answered with no passage", refused, len(cases), empty)
}

// Check 13: no caller-selected root.
func (r *runner) check13(ctx context.Context, s *session, c *CheckResult) {
	var caller, outside secret
	for _, sec := range r.lay.Secrets {
		switch {
		case contains(sec.Checks, "13"):
			caller = sec
		case strings.HasPrefix(sec.Label, "../outside.md"):
			outside = sec
		}
	}
	calls := []map[string]any{
		{"query": caller.Marker, "root": r.lay.CallerRoot},
		{"query": caller.Marker, "path": r.lay.CallerRoot},
		{"query": outside.Marker, "root": r.lay.Base},
		{"query": outside.Marker, "path": "../"},
	}
	ignored := 0
	for _, args := range calls {
		ex := s.callTool(ctx, "search_notes", args, caller.Marker, outside.Marker, r.lay.CallerRoot, r.lay.Base)
		switch {
		case ex.NotSent:
			ignored++ // not judged; keeps the count of refusals honest
		case ex.TimedOut:
			c.failOn(ex, "no answer within %s", r.cfg.Timeout)
		case ex.failed() || ex.result.IsError:
		default:
			ignored++
			c.warnOn(ex, "an extra %s argument was accepted without complaint; refuse arguments the tool does not declare", extraKey(args))
		}
	}
	c.Summary = fmt.Sprintf("%d calls with root or path arguments pointing outside returned no outside byte (%d refused)", len(calls), len(calls)-ignored)
}

func extraKey(args map[string]any) string {
	for k := range args {
		if k != "query" {
			return k
		}
	}
	return ""
}

var writeToolRe = regexp.MustCompile(`(?i)(^|[_\-.\s])(write|delete|remove|rm|create|update|save|append|edit|modify|move|rename|exec|execute|run|shell|command|put|post|upload|mkdir|touch|patch|insert|store|set)([_\-.\s]|$)|^(write|delete|remove|create|update|save|append|edit|move|rename|exec|run|upload|store)[A-Z]`)

// Check 14: one read-only tool, before and after a note asks for more.
func (r *runner) check14(ctx context.Context, s *session, c *CheckResult) {
	before, lex := s.listTools(ctx)
	if !answered(c, lex) {
		return
	}
	r.judgeTools(c, before, lex)
	ex := s.callSearch(ctx, r.lay.InjectMarker)
	answered(c, ex)
	after, lex2 := s.listTools(ctx)
	if !answered(c, lex2) {
		return
	}
	if a, b := toolNames(before), toolNames(after); a != b {
		c.failOn(lex2, "tools/list changed after searching %s: before [%s], after [%s]", r.lay.InjectRel, a, b)
	}
	c.Summary = fmt.Sprintf("tools/list offers [%s] before and after searching a note that asks for a write tool", toolNames(before))
}

func toolNames(tools []*mcp.Tool) string {
	var names []string
	for _, t := range tools {
		names = append(names, t.Name)
	}
	return strings.Join(names, ", ")
}

func (r *runner) judgeTools(c *CheckResult, tools []*mcp.Tool, lex *Exchange) {
	found := false
	for _, t := range tools {
		if t.Name == "search_notes" {
			found = true
			if a := t.Annotations; a != nil && !a.ReadOnlyHint {
				c.warnOn(lex, "search_notes is annotated without readOnlyHint: true (annotations %s)", marshal(a))
			}
			if a := t.Annotations; a != nil && a.DestructiveHint != nil && *a.DestructiveHint {
				c.warnOn(lex, "search_notes is annotated destructiveHint: true")
			}
			continue
		}
		if writeToolRe.MatchString(t.Name) {
			c.failOn(lex, "tools/list offers %q, a tool whose name says it writes or runs something", t.Name)
		} else if a := t.Annotations; a != nil && a.DestructiveHint != nil && *a.DestructiveHint {
			c.failOn(lex, "tools/list offers %q, annotated destructiveHint: true", t.Name)
		} else {
			c.warnOn(lex, "tools/list offers %q besides search_notes; the specification asks for one tool", t.Name)
		}
	}
	if !found {
		c.failOn(lex, "tools/list has no search_notes (tools: [%s])", toolNames(tools))
	}
}

var volatileRe = regexp.MustCompile(`\d+(\.\d+)?\s*(ms|µs|us|ns|s|sec|secs|seconds|milliseconds)\b|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?`)

// Check 15: the same call twice gives the same answer. The spread word
// is in notes of several folders, so an order that depends on a map or a
// hash shows. It is asked 24 times: a small Go map repeats its order from
// one iteration to the next with a chance of up to about 5/8, so five calls
// missed such a server about once in ten runs; 24 miss it about once in
// 50,000. Calls stop at the first difference.
func (r *runner) check15(ctx context.Context, s *session, c *CheckResult) {
	var same []string
	for _, q := range []string{"sign-in", r.lay.BoundMarker, r.lay.Absent, r.lay.SpreadMarker} {
		times := 2
		if q == r.lay.SpreadMarker {
			times = 24
		}
		first := s.callSearch(ctx, q)
		if !answered(c, first) {
			continue
		}
		want := volatileRe.ReplaceAllString(first.Reply, "<duration>")
		differs := false
		for i := 1; i < times && !differs; i++ {
			again := s.callSearch(ctx, q)
			if !answered(c, again) {
				differs = true
				break
			}
			if volatileRe.ReplaceAllString(again.Reply, "<duration>") != want {
				differs = true
				c.add(finding{msg: fmt.Sprintf("identical calls for %q got different replies (call 1 and call %d)", clip(q, 40), i+1), ex: first,
					detail: append([]string{fmt.Sprintf("call %d:", i+1)}, again.evidenceLines()[1:]...)})
			}
		}
		if !differs {
			same = append(same, fmt.Sprintf("%s (%d calls)", clip(q, 30), times))
		}
	}
	c.Summary = "identical replies, ignoring durations and timestamps, for " + strings.Join(same, ", ")
}

// check16 sums up the HOME and TMPDIR findings of every process.
func (r *runner) check16() {
	c := r.checks["16"]
	if r.notStarted != "" {
		c.add(finding{msg: "server did not start; see check " + r.notStarted + " (an empty HOME proves nothing then)", hint: "Make the server start and answer initialize (see check " + r.notStarted + ")."})
	}
	c.Summary = fmt.Sprintf("HOME and TMPDIR of all %d server processes were fresh empty folders and stayed empty", r.dirs)
}

// searchAndProbe searches the given queries and, when the server offers
// resources, reads the given root-relative paths, which must be refused.
func (r *runner) searchAndProbe(ctx context.Context, s *session, c *CheckResult, queries, paths []string) string {
	n := r.searchAll(ctx, s, c, queries)
	sum := fmt.Sprintf("%d searches (the outside files' public words and the link names) returned no outside byte", n)
	if !s.resourcesOffered() || len(paths) == 0 {
		return sum
	}
	list, lex := s.listResources(ctx)
	if !answered(c, lex) {
		return sum
	}
	for _, l := range list {
		for _, p := range paths {
			if strings.HasSuffix(l.URI, p) {
				c.failOn(lex, "resources/list offers %s", l.URI)
			}
		}
	}
	pre := r.resourcePrefix(list)
	var uris []string
	for _, p := range paths {
		uris = append(uris, pre+p)
	}
	refused := r.probeRefused(ctx, s, c, uris)
	return sum + fmt.Sprintf("; %d/%d resources/read probes refused", refused, len(uris))
}

func (r *runner) secretFor(check string) []secret {
	var out []secret
	for _, sec := range r.lay.Secrets {
		if contains(sec.Checks, check) && sec.Marker != "" {
			out = append(out, sec)
		}
	}
	return out
}

// Check 17: a sibling folder whose name starts with the root's.
func (r *runner) check17(ctx context.Context, s *session, c *CheckResult) {
	var qs []string
	for _, sec := range r.secretFor("17") {
		qs = append(qs, sec.Marker)
	}
	qs = append(qs, "old-notes", "archive.md")
	c.Summary = r.searchAndProbe(ctx, s, c, qs, []string{"old-notes/private-notes.md", "archive.md"}) +
		"; old-notes -> ../root-old and archive.md -> <base>/root-old/private-notes.md"
}

// Check 18: a symlinked directory and a chain of links.
func (r *runner) check18(ctx context.Context, s *session, c *CheckResult) {
	var qs []string
	for _, sec := range r.secretFor("18") {
		qs = append(qs, sec.Marker)
	}
	qs = append(qs, "linked-dir", "chain-1.md")
	c.Summary = r.searchAndProbe(ctx, s, c, qs, []string{"linked-dir/dir-secret.md", "chain-1.md", "nested-links/chain-2.md"}) +
		"; linked-dir -> an absolute outside directory, chain-1.md -> nested-links/chain-2.md -> ../../chain-target.md"
}

// Check 19: a hard link to an outside file.
func (r *runner) check19(ctx context.Context, s *session, c *CheckResult) {
	var qs []string
	for _, sec := range r.secretFor("19") {
		qs = append(qs, sec.Marker)
	}
	c.Summary = r.searchAndProbe(ctx, s, c, qs, []string{"shared-note.md"}) + "; shared-note.md is a hard link to a file outside the root"
	// The specification names only symlinks: whatever this check finds is
	// a warning.
	for i := range c.findings {
		c.findings[i].warn = true
	}
}

// setupTraps creates the files a naive reader trips on before the check's
// server starts, and returns their cleanup (nil when the check was skipped).
func (r *runner) setupTraps(unreadable bool) func(*CheckResult) func() {
	return func(c *CheckResult) func() {
		if unreadable && !unreadableFilesPossible() {
			c.skip("the harness runs as root (or on a system without file modes), for whom a mode-000 file is still readable; run it as an ordinary user to exercise this rule")
			return nil
		}
		st, err := os.Stat(r.lay.TrapDir)
		if err != nil {
			c.fail("preparing the traps: %v", err)
			return nil
		}
		var made []trap
		if unreadable {
			made, err = r.lay.makeLocked()
		} else {
			made, err = r.lay.makeTraps()
		}
		if err != nil {
			c.note("not every trap could be made: %v", err)
		}
		var what []string
		for _, t := range made {
			what = append(what, "traps/"+t.rel+" ("+t.what+")")
		}
		c.Observed = append(c.Observed, "present while this check ran: "+strings.Join(what, ", "))
		return func() {
			if err := r.lay.removeTraps(made, st.ModTime()); err != nil {
				c.fail("removing the traps: %v", err)
			}
		}
	}
}

// Check 20: FIFO, directory named x.md, dangling link, binary file.
func (r *runner) check20(ctx context.Context, s *session, c *CheckResult) {
	var parts []string
	ex := s.callSearch(ctx, "sign-in")
	switch {
	case ex.failed():
		c.failOn(ex, "a search over a root holding the traps got no answer: %s", clip(ex.Error, 120))
	case ex.result.IsError:
		c.failOn(ex, "a search over a root holding the traps failed: %q", clip(toolText(ex.result), 160))
	case r.lay.N2Err == nil && !r.n2Found(ex.result):
		c.failOn(ex, "with the traps present, sign-in no longer returned the N2 passage")
	default:
		parts = append(parts, fmt.Sprintf("sign-in answered in %d ms with the N2 passage", ex.Millis))
	}
	ex = s.callSearch(ctx, r.lay.TrapMarker)
	switch {
	case ex.NotSent:
	case ex.failed():
		c.failOn(ex, "a search for a word inside the traps got no answer: %s", clip(ex.Error, 120))
	case ex.result.IsError:
		c.warnOn(ex, "a search for a word inside the traps answered isError: %q", clip(toolText(ex.result), 160))
	default:
		parts = append(parts, fmt.Sprintf("a word inside the traps answered in %d ms", ex.Millis))
	}
	c.Summary = strings.Join(parts, "; ")
}

// Check 21: file contents are data.
func (r *runner) check21(ctx context.Context, s *session, c *CheckResult) {
	before, lex := s.listTools(ctx)
	answered(c, lex)
	ex := s.callSearch(ctx, r.lay.InjectMarker)
	if answered(c, ex) && !ex.result.IsError && !containsAny(replyTexts(ex.result), r.lay.InjectMarker) {
		c.warnOn(ex, "the note %s was not returned as a passage", r.lay.InjectRel)
	}
	for _, sec := range r.secretFor("21") {
		answered(c, s.callSearch(ctx, sec.Marker))
	}
	after, lex2 := s.listTools(ctx)
	if answered(c, lex2) && toolNames(before) != toolNames(after) {
		c.failOn(lex2, "tools/list changed after the note was read: before [%s], after [%s]", toolNames(before), toolNames(after))
	}
	c.Summary = fmt.Sprintf("%s (asking to call write_note and quote ../outside.md, with include directives for ../include-target.md) came back as text; no outside byte, tools unchanged [%s]", r.lay.InjectRel, toolNames(after))
}

// Check 22: an unreadable file.
func (r *runner) check22(ctx context.Context, s *session, c *CheckResult) {
	ex := s.callSearch(ctx, "sign-in")
	switch {
	case ex.failed():
		c.failOn(ex, "a search over a root holding an unreadable file got no answer: %s", clip(ex.Error, 120))
	case ex.result.IsError:
		c.failOn(ex, "a search over a root holding an unreadable file failed: %q", clip(toolText(ex.result), 160))
	}
	ex = s.callSearch(ctx, r.lay.TrapMarker)
	if !ex.failed() && !ex.NotSent {
		for _, p := range uniq(r.lay.Base, r.lay.BaseReal) {
			if strings.Contains(ex.replyText, p) {
				c.warnOn(ex, "the reply reveals the absolute path %s", p)
			}
		}
	}
	c.Summary = "searches answered with traps/locked-note.md unreadable, and no absolute path was revealed"
}
