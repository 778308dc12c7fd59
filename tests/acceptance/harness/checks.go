package harness

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const shapeNote = "graded on " + ShapeFields + " (this repository's shape); other servers are graded on text content"

// answered reports a failed call as a check failure and returns false.
func answered(c *CheckResult, ex *Exchange) bool {
	if ex.failed() {
		c.failOn(ex, "%s got no answer: %s", ex.Method, clip(ex.Error, 200))
		return false
	}
	return true
}

// Check 1: "sign-in" returns the exact N2 passage from sample-notes.md.
func (r *runner) check1(ctx context.Context, s *session, c *CheckResult) {
	ex := s.callSearch(ctx, "sign-in")
	if !answered(c, ex) {
		return
	}
	if ex.result.IsError {
		c.failOn(ex, "isError reply: %q", clip(firstText(ex.result), 160))
		return
	}
	if r.lay.N2Err != nil {
		c.failOn(ex, "cannot grade: %v", r.lay.N2Err)
		return
	}
	want := r.lay.N2[0]
	cmpRec := &N2Comparison{File: r.lay.SampleRel, StartLine: want.StartLine, EndLine: want.EndLine, FileText: want.Text}
	r.rep.N2 = cmpRec
	if shape, ok := parseOurShape(ex.result); ok {
		r.rep.OurShape = true
		c.ShapeDependent = shapeNote
		var files []string
		for _, m := range shape.Matches {
			files = append(files, m.File+"/"+m.NoteID)
			if m.File != r.lay.SampleRel {
				continue
			}
			for _, p := range r.lay.N2 {
				if samePassage(m.Passage, p.Text) {
					cmpRec.StartLine, cmpRec.EndLine, cmpRec.FileText = p.StartLine, p.EndLine, p.Text
					cmpRec.Returned, cmpRec.ReturnedVia, cmpRec.Identical = m.Passage, "structuredContent.matches[].passage", true
					if m.NoteID != "" && m.NoteID != "N2" {
						c.failOn(ex, "N2 passage labelled note_id %q", m.NoteID)
					}
					c.Summary = fmt.Sprintf("matches[] holds file %s note_id %q line %d, passage byte-identical to %s lines %d-%d (%d bytes)",
						m.File, m.NoteID, m.Line, r.lay.SampleRel, p.StartLine, p.EndLine, len(p.Text))
					return
				}
			}
			if cmpRec.Returned == "" && strings.Contains(strings.ToLower(m.Passage), "sign-in") {
				cmpRec.Returned, cmpRec.ReturnedVia = m.Passage, "structuredContent.matches[].passage"
			}
		}
		c.failOn(ex, "no match with file %s and the N2 passage byte-for-byte (got %d match(es): %s)",
			r.lay.SampleRel, len(shape.Matches), strings.Join(files, ", "))
		return
	}
	// Any other shape: look for the paragraph verbatim in text.
	texts := replyTexts(ex.result)
	cmpRec.Returned, cmpRec.ReturnedVia = truncateBytes(firstText(ex.result), 4000), "text content"
	c.ShapeDependent = "no structuredContent in this repository's shape: graded on text content"
	if !containsAny(texts, r.lay.SampleRel) {
		c.failOn(ex, "reply does not name %s as the source: %q", r.lay.SampleRel, clip(firstText(ex.result), 160))
		return
	}
	for _, p := range r.lay.N2 {
		if containsAny(texts, p.Text) {
			cmpRec.StartLine, cmpRec.EndLine, cmpRec.FileText, cmpRec.Identical = p.StartLine, p.EndLine, p.Text, true
			c.Summary = fmt.Sprintf("text names %s and contains %s lines %d-%d verbatim (%d bytes)", r.lay.SampleRel, r.lay.SampleRel, p.StartLine, p.EndLine, len(p.Text))
			return
		}
	}
	words := len(wordRe.FindAllString(want.Text, -1))
	run := longestVerbatimRun(want.Text, "sign-in", texts)
	need := min(words, 6)
	if run >= need {
		c.Summary = fmt.Sprintf("text names %s and quotes %d of the N2 paragraph's %d words verbatim (around sign-in)", r.lay.SampleRel, run, words)
		c.note("the whole N2 paragraph was not found verbatim; a verbatim run of %d words was", run)
		return
	}
	c.failOn(ex, "text names %s but quotes only %d consecutive words of the N2 paragraph verbatim (need %d)", r.lay.SampleRel, run, need)
}

var negativeRe = regexp.MustCompile(`(?i)\b(no|not|none|nothing|zero|0)\b|didn't|did not|n't`)

// Check 2: an absent phrase returns no matches and no invented passage.
func (r *runner) check2(ctx context.Context, s *session, c *CheckResult) {
	ex := s.callSearch(ctx, r.lay.Absent)
	if !answered(c, ex) {
		return
	}
	res := ex.result
	if shape, ok := parseOurShape(res); ok {
		c.ShapeDependent = shapeNote
		switch {
		case shape.MatchesNull:
			c.failOn(ex, "matches is null; an empty list [] is required")
		case len(shape.Matches) > 0:
			m := shape.Matches[0]
			c.failOn(ex, "%d passage(s) returned for a phrase in no file, first: %s %q", len(shape.Matches), m.File, clip(m.Passage, 100))
		}
		if res.IsError {
			c.failOn(ex, "isError is true for a plain miss")
		}
		if strings.TrimSpace(shape.Message) == "" {
			c.failOn(ex, "no no-match message")
		}
		if len(c.Failures) == 0 {
			c.Summary = fmt.Sprintf("matches [], isError false, message %q", clip(shape.Message, 100))
		}
		return
	}
	c.ShapeDependent = "no structuredContent in this repository's shape: graded on text content"
	text := toolText(res)
	if res.IsError {
		c.note("the miss was reported with isError true (false is preferred)")
	}
	if arrays := nonEmptyResultArrays(res); len(arrays) > 0 {
		c.failOn(ex, "reply lists results under %v for a phrase in no file", arrays)
	}
	if !negativeRe.MatchString(text) {
		c.failOn(ex, "reply does not say nothing matched: %q", clip(text, 160))
	}
	// Judge what the reply says, not its layout: in every text (each
	// content block, and every string inside one that is JSON) the phrase
	// may be echoed, but not embedded in a sentence that presents it as
	// found.
	for _, t := range replyTexts(res) {
		for _, line := range strings.Split(t, "\n") {
			if presentsAsFound(line, r.lay.Absent) {
				c.warnOn(ex, "a line puts the absent phrase in a sentence without saying it was not found: %q", clip(line, 160))
			}
		}
	}
	if len(c.findings) == 0 {
		c.Summary = fmt.Sprintf("text says no match: %q", clip(text, 100))
	}
}

// presentsAsFound reports whether a line embeds phrase in prose (four or
// more other words) without any negation: likely an invented passage.
// An echo such as `"query": "phrase",` or `No notes matched "phrase".` is not.
func presentsAsFound(line, phrase string) bool {
	if !strings.Contains(line, phrase) {
		return false
	}
	rest := strings.ReplaceAll(line, phrase, " ")
	if negativeRe.MatchString(rest) {
		return false
	}
	return len(proseWordRe.FindAllString(rest, -1)) >= 4
}

var proseWordRe = regexp.MustCompile(`\pL{2,}`)

// Check 3: a phrase in a valid nested file inside the root is found; if the
// server offers resources, the file is also read through them.
func (r *runner) check3(ctx context.Context, s *session, c *CheckResult) {
	ex := s.callSearch(ctx, r.lay.ValidMarker)
	if !answered(c, ex) {
		return
	}
	if ex.result.IsError {
		c.failOn(ex, "isError reply: %q", clip(firstText(ex.result), 160))
	} else if shape, ok := parseOurShape(ex.result); ok {
		c.ShapeDependent = shapeNote
		found := false
		for _, m := range shape.Matches {
			if m.File == r.lay.ValidRel && strings.Contains(m.Passage, r.lay.ValidProof) {
				found = true
			}
		}
		if found {
			c.Summary = fmt.Sprintf("search found %s (nested) with its marker paragraph", r.lay.ValidRel)
		} else {
			c.failOn(ex, "no match with file %s containing the fixture's paragraph (%d match(es))", r.lay.ValidRel, len(shape.Matches))
		}
	} else {
		c.ShapeDependent = "no structuredContent in this repository's shape: graded on text content"
		texts := replyTexts(ex.result)
		if containsAny(texts, r.lay.ValidProof) && containsAny(texts, "valid-note.md") {
			c.Summary = "search text names valid-note.md and quotes the fixture's paragraph"
		} else {
			c.failOn(ex, "search text lacks the fixture's paragraph or file name: %q", clip(firstText(ex.result), 160))
		}
	}

	if !s.resourcesOffered() {
		c.note("no path-taking surface offered: the server did not advertise resources, so the file was read through search_notes only")
		return
	}
	list, lex := s.listResources(ctx)
	if !answered(c, lex) {
		return
	}
	uri := ""
	for _, res := range list {
		if strings.HasSuffix(res.URI, r.lay.ValidRel) {
			uri = res.URI
		}
	}
	if uri == "" {
		uri = r.resourcePrefix(list) + r.lay.ValidRel
		c.note("%s was not in resources/list (%d resources); read %s", r.lay.ValidRel, len(list), uri)
	} else {
		c.note("the resource URI was taken from resources/list")
	}
	rex := s.readResource(ctx, uri)
	if !answered(c, rex) {
		return
	}
	body := resourceText(rex)
	want, _ := r.lay.rootFile(r.lay.ValidRel)
	switch {
	case body == want:
		c.Summary += fmt.Sprintf("; resources/read %s returned the file byte-for-byte", uri)
	case strings.Contains(body, r.lay.ValidProof):
		c.Summary += fmt.Sprintf("; resources/read %s returned the fixture text", uri)
		c.note("resources/read content differs from the file bytes (%d vs %d bytes)", len(body), len(want))
	default:
		c.failOn(rex, "resources/read %s did not return the file's text", uri)
	}
}

// searchAll runs queries that must not surface outside content and fails on
// any match that names a path outside the root.
func (r *runner) searchAll(ctx context.Context, s *session, c *CheckResult, queries []string) int {
	n := 0
	for _, q := range queries {
		ex := s.callSearch(ctx, q)
		n++
		if ex.failed() {
			if ex.TimedOut {
				c.failOn(ex, "no answer within %s", r.cfg.Timeout)
			}
			continue
		}
		if shape, ok := parseOurShape(ex.result); ok {
			for _, m := range shape.Matches {
				if !isRootRelative(m.File) {
					c.failOn(ex, "query %q returned a match naming %q, outside the root", clip(q, 60), m.File)
				}
			}
		}
	}
	return n
}

func isRootRelative(p string) bool {
	return p != "" && !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "../") && p != ".." && !strings.Contains(p, "/../") && !strings.HasPrefix(p, `\`)
}

// probeRefused reads each URI and requires a JSON-RPC error.
func (r *runner) probeRefused(ctx context.Context, s *session, c *CheckResult, uris []string, extraSent ...string) int {
	refused := 0
	for _, u := range uris {
		ex := s.readResource(ctx, u, extraSent...)
		if ex.failed() {
			if ex.TimedOut {
				c.failOn(ex, "resources/read %s got no answer within %s", u, r.cfg.Timeout)
				continue
			}
			refused++
			continue
		}
		c.failOn(ex, "resources/read %s was not refused (returned %d bytes)", u, len(resourceText(ex)))
	}
	return refused
}

// Check 4: ../outside.md and an absolute path outside the root.
func (r *runner) check4(ctx context.Context, s *session, c *CheckResult) {
	outside, absolute := r.lay.Secrets[0], r.lay.Secrets[1]
	queries := []string{outside.Marker, absolute.Marker, "../outside.md", r.lay.AbsOutside, r.lay.OutsideMD}
	n := r.searchAll(ctx, s, c, queries)
	c.Summary = fmt.Sprintf("%d searches (both outside markers, \"../outside.md\", two absolute paths) returned no outside bytes", n)
	if !s.resourcesOffered() {
		c.Summary += "; no path-taking surface offered (no resources capability)"
		return
	}
	list, lex := s.listResources(ctx)
	if !answered(c, lex) {
		return
	}
	pre := r.resourcePrefix(list)
	abs := r.lay.AbsOutside
	uris := []string{
		pre + "../outside.md",
		pre + "..%2Foutside.md",
		pre + "%2E%2E%2Foutside.md",
		pre + "%2e%2e/outside.md",
		pre + "extra/../../outside.md",
		pre + "extra/nested/..%2F..%2F..%2Foutside.md",
		pre + abs,
		pre + strings.TrimPrefix(abs, "/"),
		pre + url.PathEscape(abs),
		"file://" + abs,
	}
	for _, l := range list {
		if strings.Contains(l.URI, "outside.md") || strings.Contains(l.URI, absolute.Path) {
			c.failOn(lex, "resources/list offers %s", l.URI)
		}
	}
	refused := r.probeRefused(ctx, s, c, uris, abs, "../outside.md")
	c.Summary += fmt.Sprintf("; %d/%d resources/read probes (../, %%2E%%2E%%2F, absolute, percent-encoded absolute, file://) refused", refused, len(uris))
}

// Check 5: symlinks inside the root that point outside.
func (r *runner) check5(ctx context.Context, s *session, c *CheckResult) {
	var queries []string
	for _, sec := range r.lay.Secrets {
		if contains(sec.Checks, "5") {
			queries = append(queries, sec.Marker)
		}
	}
	queries = append(queries, "escape-link.md", "linked-dir")
	first := len(s.exchanges)
	n := r.searchAll(ctx, s, c, queries)
	c.Summary = fmt.Sprintf("%d searches for the public words of the files behind the symlinks returned no outside byte", n)
	if ex := s.exchanges[first:]; len(ex) > 0 && ex[0].result != nil {
		if shape, ok := parseOurShape(ex[0].result); ok && shape.HasSkipped {
			var names []string
			for _, sk := range shape.Skipped {
				if _, isLink := r.lay.Symlinks[sk.File]; isLink {
					names = append(names, sk.File)
				}
			}
			c.note("skipped[] lists symlinks: %s", strings.Join(names, ", "))
		}
	}
	if !s.resourcesOffered() {
		c.Summary += "; no path-taking surface offered (no resources capability)"
		return
	}
	list, lex := s.listResources(ctx)
	if !answered(c, lex) {
		return
	}
	for _, l := range list {
		for link := range r.lay.Symlinks {
			if strings.HasSuffix(l.URI, link) || strings.Contains(l.URI, "linked-dir/") {
				c.failOn(lex, "resources/list offers symlink %s", l.URI)
			}
		}
	}
	pre := r.resourcePrefix(list)
	uris := []string{pre + "escape-link.md", pre + "linked-dir/dir-secret.md", pre + "chain-1.md", pre + "nested-links/chain-2.md"}
	refused := r.probeRefused(ctx, s, c, uris)
	c.Summary += fmt.Sprintf("; %d/%d resources/read probes of symlinks refused", refused, len(uris))
}

var clearLimitRe = regexp.MustCompile(`(?i)200|long|length|characters|limit|too many`)
var boundItemRe = regexp.MustCompile(`Bounded result (\d\d) mentions`)

// Check 6: oversized query, oversized file, bounded results, timeouts.
func (r *runner) check6(ctx context.Context, s *session, c *CheckResult) {
	var parts []string

	long := strings.Repeat("q", MaxQueryRunes+1)
	ex := s.callSearch(ctx, long)
	switch {
	case ex.TimedOut:
		c.failOn(ex, "201-character query: %s", ex.Error)
	case ex.failed():
		c.note("201-character query rejected as a JSON-RPC error rather than an isError result: %s", clip(ex.Error, 120))
		parts = append(parts, "201 chars → JSON-RPC error")
	case !ex.result.IsError:
		c.failOn(ex, "201-character query was accepted (isError false)")
	default:
		msg := strings.TrimSpace(toolText(ex.result))
		switch {
		case msg == "":
			c.failOn(ex, "201-character query: isError without a message")
		case !clearLimitRe.MatchString(msg):
			c.failOn(ex, "201-character query: message does not say why: %q", clip(msg, 120))
		case len(msg) > 2000:
			c.failOn(ex, "201-character query: error message is %d bytes", len(msg))
		default:
			if strings.Contains(msg, "\n") {
				c.note("the length error spans several lines")
			}
			parts = append(parts, fmt.Sprintf("201 chars → isError %q", clip(msg, 80)))
		}
	}

	ok200 := strings.Repeat("é", MaxQueryRunes)
	ex = s.callSearch(ctx, ok200)
	switch {
	case ex.failed():
		c.failOn(ex, "200-character query (400 UTF-8 bytes) rejected: %s", clip(ex.Error, 120))
	case ex.result.IsError:
		c.failOn(ex, "200-character query (400 UTF-8 bytes) rejected: %q", clip(toolText(ex.result), 120))
	default:
		parts = append(parts, "200 chars (400 bytes) accepted")
	}

	ex = s.callSearch(ctx, r.lay.OversizeMarker)
	if answered(c, ex) {
		if ex.result.IsError {
			c.note("the search touching the oversized file answered isError: %q", clip(toolText(ex.result), 120))
		}
		if shape, ok := parseOurShape(ex.result); ok {
			c.ShapeDependent = shapeNote
			for _, m := range shape.Matches {
				if m.File == r.lay.OversizeRel {
					c.failOn(ex, "oversized file %s (%d+ bytes) was searched and returned", m.File, FileLimit)
				}
			}
			listed := false
			for _, sk := range shape.Skipped {
				if sk.File == r.lay.OversizeRel {
					listed = true
					parts = append(parts, fmt.Sprintf("oversized file not searched, skipped[] says %q", clip(sk.Reason, 60)))
				}
			}
			if !listed {
				c.failOn(ex, "skipped[] does not list the oversized file %s", r.lay.OversizeRel)
			}
		} else {
			parts = append(parts, "oversized file's marker not found")
		}
	}

	ex = s.callSearch(ctx, r.lay.BoundMarker)
	if answered(c, ex) {
		items := map[string]bool{}
		for _, t := range replyTexts(ex.result) {
			for _, m := range boundItemRe.FindAllStringSubmatch(t, -1) {
				items[m[1]] = true
			}
		}
		switch {
		case len(items) == 0:
			c.failOn(ex, "a phrase in %d paragraphs returned none of them", r.lay.BoundCount)
		case len(items) > MaxPassages:
			c.failOn(ex, "a phrase in %d paragraphs returned %d passages (limit %d)", r.lay.BoundCount, len(items), MaxPassages)
		default:
			p := fmt.Sprintf("%d-paragraph phrase → %d passages", r.lay.BoundCount, len(items))
			if shape, ok := parseOurShape(ex.result); ok {
				if len(shape.Matches) > MaxPassages {
					c.failOn(ex, "matches[] has %d entries (limit %d)", len(shape.Matches), MaxPassages)
				}
				if !shape.Truncated {
					c.failOn(ex, "truncated is false although %d paragraphs matched", r.lay.BoundCount)
				} else {
					p += ", truncated true"
				}
			}
			parts = append(parts, p)
		}
	}

	// Still alive after all that?
	ex = s.callSearch(ctx, "sign-in")
	if ex.failed() {
		c.failOn(ex, "server stopped answering after the oversized probes: %s", clip(ex.Error, 120))
	}
	slowest := int64(0)
	for _, e := range s.exchanges {
		if e.Check != c.ID {
			continue
		}
		slowest = max(slowest, e.Millis)
	}
	parts = append(parts, fmt.Sprintf("slowest call %d ms (limit %s)", slowest, r.cfg.Timeout))
	c.Summary = strings.Join(parts, "; ")
}

// Check 7: nothing changed on disk.
func (r *runner) check7(before snapshot) {
	c := r.checks["7"]
	after, err := takeSnapshot(r.lay.Base)
	if err != nil {
		c.fail("re-reading fixtures: %v", err)
		return
	}
	for _, d := range diffSnapshots(before, after) {
		c.add(finding{msg: d, detail: r.changeDetail(d, before, after)})
	}
	answered := 0
	for _, ex := range r.allExchanges {
		if !ex.failed() {
			answered++
		}
	}
	if answered == 0 {
		c.fail("no call was answered, so an unchanged tree proves nothing")
	}
	paths := make([]string, 0, len(before))
	for p := range before {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		st := before[p]
		line := fmt.Sprintf("%-8s %-44s mtime %s", st.Kind, p, st.MTime.UTC().Format("15:04:05.000000000"))
		switch st.Kind {
		case "file":
			line += fmt.Sprintf(" %7d B sha256 %.16s…", st.Size, st.SHA256)
		case "symlink":
			line += " -> " + st.Target
		}
		if a, ok := after[p]; ok && a.SHA256 == st.SHA256 && a.MTime.Equal(st.MTime) && a.Target == st.Target {
			line += "  unchanged"
		} else {
			line += "  CHANGED"
		}
		c.Observed = append(c.Observed, line)
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			c.Observed = append(c.Observed, "created  "+p)
		}
	}
	f, d, l := before.counts()
	c.Summary = fmt.Sprintf("sha256, mtime, mode and presence of %d files, %d directories and %d symlinks inside and outside the root unchanged after %d calls", f, d, l, len(r.allExchanges))
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
