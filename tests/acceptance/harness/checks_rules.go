package harness

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// This file holds the checks for the rules of the specification's "One
// tool" and "Access boundary" sections beyond its eight acceptance tests.

func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}

// Check 9: other capitalisations of sign-in find what sign-in finds.
func (r *runner) check9(ctx context.Context, s *session, c *CheckResult) {
	ref := s.callSearch(ctx, "sign-in")
	if !answered(c, ref) {
		return
	}
	refRd := r.read(ref)
	if files, passages := refRd.found(); len(files) == 0 && len(passages) == 0 {
		c.skip("sign-in itself found no passage in this process, so other spellings have nothing to match; see check 1")
		return
	}
	var ok []string
	shownRef := false
	for _, q := range []string{"SIGN-IN", "Sign-In"} {
		ex := s.callSearch(ctx, q)
		if !answered(c, ex) {
			continue
		}
		if miss := r.read(ex).missing(refRd); len(miss) > 0 {
			f := finding{msg: fmt.Sprintf("%q found less than sign-in: no %s", q, strings.Join(miss, "; ")), ex: ex}
			if !shownRef {
				f.detail, shownRef = append([]string{"sign-in, in the same process:"}, ref.evidenceLines()...), true
			}
			c.add(f)
			continue
		}
		ok = append(ok, q)
	}
	c.Summary = fmt.Sprintf("%s found the same files and passages as sign-in", strings.Join(ok, " and "))
}

// Check 10: a non-ASCII phrase in another case finds what it finds as
// written.
func (r *runner) check10(ctx context.Context, s *session, c *CheckResult) {
	ref := s.callSearch(ctx, r.lay.UnicodePhrase)
	if !answered(c, ref) {
		return
	}
	refRd := r.read(ref)
	if !refRd.names(r.lay.UnicodeRel) && !refRd.quotes(r.lay.UnicodeProof) {
		c.skip("%q as written did not find %s, so its other case has nothing to match (see check 3 for nested notes)", r.lay.UnicodePhrase, r.lay.UnicodeRel)
		return
	}
	q := strings.ToUpper(r.lay.UnicodePhrase)
	ex := s.callSearch(ctx, q)
	if ex.failed() {
		if !ex.NotSent {
			c.warnOn(ex, "%q got no answer", q)
		}
		return
	}
	if miss := r.read(ex).missing(refRd); len(miss) > 0 {
		c.add(finding{warn: true, msg: fmt.Sprintf("%q found less than %q as written: no %s", q, r.lay.UnicodePhrase, strings.Join(miss, "; ")), ex: ex})
		return
	}
	c.Summary = fmt.Sprintf("%q found %s, written %q", q, r.lay.UnicodeRel, r.lay.UnicodePhrase)
}

// invented reports whether the reply credits file with a passage that
// is not in its content.
func invented(rd *reading, file, content string) bool {
	for _, it := range rd.Items {
		if it.File == file && len(it.Passage) >= 12 && !containsFold(content, strings.Trim(it.Passage, "…. \t\r\n")) {
			return true
		}
	}
	return false
}

// unrelated lists the files a reply names as results that do not hold
// want (case-insensitively; every file when want is empty), and the root
// paragraphs it quotes that do not.
func (r *runner) unrelated(rd *reading, want string) (files, paras []string) {
	for _, f := range rd.Results {
		rel, ok := r.lay.rootRel(f)
		if !ok {
			continue // outside the root: check 4's rule
		}
		if _, isLink := r.lay.linkFor(rel); isLink {
			continue // a link: its own check's rule
		}
		content, err := r.lay.rootFile(rel)
		if err == nil && invented(rd, f, content) {
			continue // a passage the file does not hold: check 2's rule
		}
		if strings.TrimSpace(want) == "" || err != nil || !containsFold(content, want) {
			files = append(files, f)
		}
	}
	for _, p := range rd.Quoted {
		if strings.TrimSpace(want) == "" || !containsFold(p.Text, want) {
			paras = append(paras, p.Text)
		}
	}
	return files, paras
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
		if files, paras := r.unrelated(r.read(ex), q); len(files) > 0 || len(paras) > 0 {
			if len(files) > 0 {
				c.failOn(ex, "%q named %d result file(s) that do not contain %q: %s", q, len(files), q, clip(strings.Join(files, ", "), 120))
			} else {
				c.failOn(ex, "%q returned %d passage(s) that do not contain %q, first: %q", q, len(paras), q, clip(paras[0], 80))
			}
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
		want     string // results must hold this; "" allows none
	}{
		{label: `""`, args: map[string]any{"query": ""}},
		{label: `"   "`, args: map[string]any{"query": "   "}},
		{label: "no query argument", args: map[string]any{}},
		{label: "query null", args: map[string]any{"query": nil}},
		{label: "query 42", args: map[string]any{"query": 42}, want: "42"},
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
		if rd := r.read(ex); tc.warnOnly {
			if len(rd.Results) > 0 || len(rd.Quoted) > 0 {
				c.warnOn(ex, "%s was accepted and answered with results; a non-string query should be refused", tc.label)
			} else {
				empty++
			}
			continue
		}
		files, paras := r.unrelated(r.read(ex), tc.want)
		switch {
		case len(files) == 0 && len(paras) == 0:
			empty++
		case len(files) > 0:
			c.failOn(ex, "%s named %d note(s) as results: %s", tc.label, len(files), clip(strings.Join(files, ", "), 120))
		default:
			c.failOn(ex, "%s returned %d passage(s), first: %q", tc.label, len(paras), clip(paras[0], 80))
		}
	}
	c.Summary = fmt.Sprintf("%d of %d refused, %d answered with no passage", refused, len(cases), empty)
}

// Check 13: no caller-selected root.
func (r *runner) check13(ctx context.Context, s *session, c *CheckResult) {
	caller, outside := r.lay.secret("caller-root/notes.md"), r.lay.secret("outside.md")
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
	if t := r.probeTools(ctx, s, c, []string{"..", "../", r.lay.Base, r.lay.CallerRoot, "../caller-root"}); t != "" {
		c.Summary += "; " + t
	}
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

// searchAndProbe searches the public words of a check's fixtures and the
// names of its links, and sends the paths through the links to every
// path-taking surface.
func (r *runner) searchAndProbe(ctx context.Context, s *session, c *CheckResult, names, paths []string) string {
	var qs []string
	for _, sec := range r.lay.secretsOf(c.ID) {
		qs = append(qs, sec.Marker)
	}
	n := r.searchAll(ctx, s, c, append(qs, names...))
	sum := fmt.Sprintf("%d searches (the public words of the files behind the links, and the links' names) returned no outside byte and no link as a result", n)
	if t := r.probeTools(ctx, s, c, paths); t != "" {
		sum += "; " + t
	}
	return sum + r.probeResources(ctx, s, c, paths)
}

// Check 17: a sibling folder whose name starts with the root's.
func (r *runner) check17(ctx context.Context, s *session, c *CheckResult) {
	c.Summary = r.searchAndProbe(ctx, s, c, []string{"old-notes", "archive.md"}, []string{"old-notes/private-notes.md", "archive.md"}) +
		"; old-notes -> ../root-old and archive.md -> <base>/root-old/private-notes.md"
}

// Check 18: a symlinked directory and a chain of links.
func (r *runner) check18(ctx context.Context, s *session, c *CheckResult) {
	c.Summary = r.searchAndProbe(ctx, s, c, []string{"linked-dir", "chain-1.md"}, []string{"linked-dir/dir-secret.md", "chain-1.md", "nested-links/chain-2.md"}) +
		"; linked-dir -> an absolute outside directory, chain-1.md -> nested-links/chain-2.md -> ../../chain-target.md"
}

// Check 19: a hard link to an outside file. The specification names only
// symlinks, so what this check finds (through its fixture's leak rule) is
// a warning.
func (r *runner) check19(ctx context.Context, s *session, c *CheckResult) {
	c.Summary = r.searchAndProbe(ctx, s, c, nil, []string{"shared-note.md"}) + "; shared-note.md is a hard link to a file outside the root"
	for i := range c.findings {
		c.findings[i].warn = true
	}
}

// setupTraps creates the files a naive reader trips on before the check's
// server starts, and returns their cleanup (nil when the check was skipped).
func (r *runner) setupTraps(unreadable bool) func(*CheckResult) func() {
	return func(c *CheckResult) func() {
		if unreadable && !r.sb.LockedUnreadable() && !unreadableFilesPossible() {
			c.skip("the server runs with the rights of the harness, which runs as root (or on a system without file modes), for whom a mode-000 file is still readable; run it where isolation is available, or as an ordinary user, to exercise this rule")
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
	case r.signIn == nil || r.signIn.result == nil:
		parts = append(parts, fmt.Sprintf("sign-in answered in %d ms (check 1 got no answer to compare with)", ex.Millis))
	default:
		if miss := r.read(ex).missing(r.read(r.signIn)); len(miss) > 0 {
			c.add(finding{msg: fmt.Sprintf("with the traps present, sign-in found less than in check 1: no %s", strings.Join(miss, "; ")), ex: ex,
				detail: append([]string{"check 1, without the traps:"}, r.signIn.evidenceLines()...)})
		} else {
			parts = append(parts, fmt.Sprintf("sign-in answered in %d ms with what it found in check 1", ex.Millis))
		}
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
	if answered(c, ex) && !ex.result.IsError && !r.read(ex).quotes(r.lay.InjectMarker) {
		c.warnOn(ex, "the note %s was not returned as a passage", r.lay.InjectRel)
	}
	for _, sec := range r.lay.secretsOf("21") {
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
	s.callSearch(ctx, r.lay.TrapMarker) // the path rule judges its reply
	c.Summary = "searches answered with traps/locked-note.md unreadable, and no absolute path was revealed"
}
