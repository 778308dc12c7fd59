package harness

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"path"
	"regexp"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"practice-notes/tests/acceptance/checks"
)

// answered reports a failed call as a check failure and returns false.
func answered(c *CheckResult, ex *Exchange) bool {
	if ex.NotSent {
		return false // the request the server did not answer is the finding
	}
	if ex.failed() {
		if len(ex.Wire) > 1 && !ex.answered() {
			c.failOn(ex, "%s was answered on stdout, but the client had dropped the session and could not read the reply: %s", ex.Method, clip(ex.Error, 200))
			return false
		}
		c.failOn(ex, "%s got no answer: %s", ex.Method, clip(ex.Error, 200))
		return false
	}
	return true
}

// check1 runs check 1 from its value; its search is the reference of
// checks 9 and 20.
func (r *runner) check1(ctx context.Context, s *session, c *CheckResult) {
	r.signIn = r.probeAndJudge(ctx, s, c)[checks.SignIn]
}

// Check 3: a phrase in a valid nested file inside the root is found; if the
// server offers resources, the file is also read through them.
func (r *runner) check3(ctx context.Context, s *session, c *CheckResult) {
	ex := s.callSearch(ctx, r.lay.ValidMarker)
	if !answered(c, ex) {
		return
	}
	rd := r.read(ex)
	switch {
	case rd.IsError:
		c.failOn(ex, "isError reply: %q", clip(checks.FirstText(ex.result), 160))
	case !rd.Names(r.lay.ValidRel) && !rd.Names(path.Base(r.lay.ValidRel)) && rd.Quotes(r.lay.ValidProof):
		// The nested file was found: what is missing is its name.
		c.add(finding{msg: fmt.Sprintf("the reply quotes the line of %s but does not name the file as a result (results: %v)", r.lay.ValidRel, rd.Results), ex: ex,
			hint: "Name the file each passage came from, by its path relative to the root (" + r.lay.ValidRel + ")."})
	case !rd.Names(r.lay.ValidRel) && !rd.Names(path.Base(r.lay.ValidRel)):
		c.failOn(ex, "the reply does not name %s as a result (results: %v)", r.lay.ValidRel, rd.Results)
	case !rd.Quotes(r.lay.ValidProof):
		c.Summary = fmt.Sprintf("search named %s (nested two folders down) as a result", r.lay.ValidRel)
		c.note("the reply does not quote the proof word that follows the phrase on its line (%s)", r.lay.ValidProof)
	default:
		c.Summary = fmt.Sprintf("search named %s (nested two folders down) and quoted the line holding the phrase", r.lay.ValidRel)
	}
	r.probeTools(ctx, s, c, []string{r.lay.ValidRel})
	if !s.resourcesOffered() {
		c.note("no path-taking surface offered: the server did not advertise resources, so the file was read through search_notes only")
		return
	}
	list, lex := s.listResources(ctx)
	if !answered(c, lex) {
		return
	}
	uri, from := offeredURI(r.lay.ValidRel, list, s.listTemplates(ctx), ex.result)
	if uri == "" {
		// A URI the server never offered proves nothing about it: the
		// file is then read through search_notes only, as for a server
		// without resources.
		c.note("the server offered no URI for %s (resources/list named %d resources, and no template or link in a reply gave one), so the file was read through search_notes only", r.lay.ValidRel, len(list))
		return
	}
	c.note("the resource URI was taken from %s", from)
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
		c.add(finding{msg: fmt.Sprintf("resources/read %s did not return the file's text", uri), ex: rex,
			hint: "Answer resources/read of a URI you offer with that file's text, byte for byte."})
	}
}

// searchAll sends queries whose replies the run-wide leak rules judge.
func (r *runner) searchAll(ctx context.Context, s *session, c *CheckResult, queries []string) int {
	n := 0
	for _, q := range queries {
		ex := s.callSearch(ctx, q)
		n++
		if ex.TimedOut {
			c.failOn(ex, "no answer within %s", r.cfg.Timeout)
		}
	}
	return n
}

// probeRefused reads each URI and requires a JSON-RPC error.
func (r *runner) probeRefused(ctx context.Context, s *session, c *CheckResult, uris []string, extraSent ...string) int {
	refused := 0
	for _, u := range uris {
		ex := s.readResource(ctx, u, extraSent...)
		if ex.failed() {
			if ex.TimedOut {
				c.failOn(ex, "resources/read %s got no answer within %s", u, r.cfg.Timeout)
			}
			if !ex.TimedOut && !ex.NotSent {
				refused++
			}
			continue
		}
		c.failOn(ex, "resources/read %s was not refused (returned %d bytes)", u, len(resourceText(ex)))
	}
	return refused
}

// Check 4: ../outside.md and an absolute path outside the root.
func (r *runner) check4(ctx context.Context, s *session, c *CheckResult) {
	outside, absolute := r.lay.secret("outside.md"), r.lay.secret("absolute-secret.md")
	queries := []string{outside.Marker, absolute.Marker, "../outside.md", r.lay.AbsOutside, r.lay.OutsideMD}
	n := r.searchAll(ctx, s, c, queries)
	c.Summary = fmt.Sprintf("%d searches (both outside markers, \"../outside.md\", two absolute paths) returned no outside byte", n)
	if t := r.probeTools(ctx, s, c, []string{"../outside.md", r.lay.AbsOutside, "extra/../../outside.md"}); t != "" {
		c.Summary += "; " + t
	}
	if !s.resourcesOffered() {
		c.Summary += "; no resources capability"
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

// Check 5: a symlink inside the root that points outside.
func (r *runner) check5(ctx context.Context, s *session, c *CheckResult) {
	escape := r.lay.secret("escape-target.md")
	first := len(s.exchanges)
	n := r.searchAll(ctx, s, c, []string{escape.Marker, "escape-link.md"})
	c.Summary = fmt.Sprintf("%d searches (the public word of the file behind escape-link.md, and its name) returned no outside byte and no link as a result", n)
	if ex := s.exchanges[first]; ex.result != nil {
		if sk := r.read(ex).Skipped; len(sk) > 0 {
			c.note("the reply names as skipped or refused: %s", strings.Join(sk, ", "))
		}
	}
	if t := r.probeTools(ctx, s, c, []string{"escape-link.md"}); t != "" {
		c.Summary += "; " + t
	}
	c.Summary += r.probeResources(ctx, s, c, []string{"escape-link.md"})
}

var clearLimitRe = regexp.MustCompile(`(?i)200|long|length|characters|limit|too many`)
var boundItemRe = regexp.MustCompile(`(?i)Bounded result (\d\d) mentions`)

// Check 6: oversized query, oversized files, bounded results, timeouts.
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
	case ex.NotSent:
	case ex.failed():
		c.failOn(ex, "200-character query (400 UTF-8 bytes) rejected: %s", clip(ex.Error, 120))
	case ex.result.IsError:
		c.failOn(ex, "200-character query (400 UTF-8 bytes) rejected: %q", clip(toolText(ex.result), 120))
	default:
		parts = append(parts, "200 chars (400 bytes) accepted")
	}

	for _, big := range r.lay.secretsOf("6") {
		ex = s.callSearch(ctx, big.Marker)
		if !answered(c, ex) {
			continue
		}
		rd := r.read(ex)
		if rd.IsError {
			c.note("the search touching %s answered isError: %q", big.Name, clip(toolText(ex.result), 120))
		}
		switch {
		case rd.Names(big.Name):
			c.failOn(ex, "%s (over %d bytes) was searched and named as a result", big.Name, FileLimit)
		case contains(rd.Skipped, big.Name):
			parts = append(parts, big.Name+" named as not searched")
		default:
			parts = append(parts, big.Name+" not returned")
		}
	}

	ex = s.callSearch(ctx, r.lay.BoundMarker)
	if answered(c, ex) {
		rd := r.read(ex)
		labels := map[string]bool{}
		for _, t := range rd.Strings {
			for _, m := range boundItemRe.FindAllStringSubmatch(t, -1) {
				labels[m[1]] = true
			}
		}
		n := len(labels)
		if len(rd.Items) > 0 {
			n = len(rd.Items) // a result may hold more than its paragraph
		}
		spread := fmt.Sprintf("a phrase in %d paragraphs of %d files", r.lay.BoundCount, len(r.lay.BoundFiles))
		switch {
		case n == 0 && len(rd.Results) == 0:
			c.failOn(ex, "%s returned none of them", spread)
		case n > MaxPassages:
			c.failOn(ex, "%s returned %d passages (limit %d in all)", spread, n, MaxPassages)
		case rd.Truncated != nil && !*rd.Truncated:
			c.failOn(ex, "%s returned %d of them and says truncated: false", spread, n)
		default:
			parts = append(parts, fmt.Sprintf("%s → %d passages", spread, n))
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
	facts := &checks.Facts{Files: &checks.FileFacts{Before: before, After: after, Bodies: bodies(r.lay.Base, before, after)}, Calls: len(r.allExchanges)}
	for _, ex := range r.allExchanges {
		if !ex.failed() {
			facts.Answered++
		}
	}
	r.judge(c, facts)
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
			Wire:    s.wire.pair(0, method),
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
	if line, at, notification, ok := s.wire.idless(); ok {
		// The line that broke the session goes first: the failures after
		// it are what it caused.
		where := fmt.Sprintf("stdout line %d of this process", at)
		if notification != "" {
			where += "; the last notification the client had sent was " + notification + ", which gets no reply"
		}
		c.findings = append([]finding{{
			msg:    fmt.Sprintf("the server wrote a reply with no id (%s); a client cannot match it to a request and drops the session", where),
			detail: []string{"stdout: " + truncateBytes(line, 600)},
			hint:   "Answer requests only: a notification (no id, such as notifications/initialized) gets no reply, and every reply carries the id of its request.",
		}}, c.findings...)
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
