package class

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"practice-notes/tests/acceptance/record"

	"practice-notes/tests/acceptance/visible"
)

// harnessIDs are the check ids of a full harness run.
var harnessIDs = strings.Fields("1 2 3 4 5 6 7 8 8.1 8.2 8.3 8.4 8.5 8.6 8.7 9 10 11 12 13 14 15 16 17 18 19 20 21 22")

type fakeCheck struct {
	ID       string   `json:"id"`
	Section  string   `json:"section"`
	Title    string   `json:"title"`
	Status   string   `json:"status"`
	Evidence string   `json:"evidence"`
	Hint     string   `json:"hint"`
	Failures []string `json:"failures,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
	Notes    []string `json:"notes,omitempty"`
}

// fullRun writes a run in the --json shape with every check of the
// harness, each passing unless set changes it.
func fullRun(t *testing.T, isolation string, set func(c *fakeCheck)) string {
	t.Helper()
	run := struct {
		Server    string      `json:"server"`
		Isolation string      `json:"isolation"`
		Passed    int         `json:"passed"`
		Failed    int         `json:"failed"`
		Warnings  int         `json:"warnings"`
		Skipped   int         `json:"skipped"`
		Checks    []fakeCheck `json:"checks"`
	}{Server: "s {root}", Isolation: isolation}
	for _, id := range harnessIDs {
		c := fakeCheck{ID: id, Section: "boundary", Title: "the rule of check " + id, Status: "pass"}
		set(&c)
		switch c.Status {
		case "pass":
			run.Passed++
		case "fail":
			run.Failed++
		case "warn":
			run.Warnings++
		case "skip":
			run.Skipped++
		}
		run.Checks = append(run.Checks, c)
	}
	b, err := json.Marshal(run)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// neverStarts is the run of a server whose command is not found: check 1
// says so with the shell's stderr, every other check points back at it.
func neverStarts(t *testing.T, stderr string) string {
	return fullRun(t, "process group; the server ran as uid and gid 2000000000, not root, in private mount, network and PID namespaces; the grader's home /home/grader hidden; limits (rlimits, each process): 1 GiB of memory", func(c *fakeCheck) {
		c.Status, c.Hint = "fail", "Make the server start and answer initialize (see check 1)."
		c.Failures = []string{"server did not start; see check 1"}
		switch c.ID {
		case "1":
			c.Failures = []string{"server did not start: the process exited (exit status 127) before completing initialize (connect failed after 13 ms: EOF)"}
			c.Hint = "Make the command start a stdio MCP server that answers initialize within the start timeout."
		case "7":
			c.Failures = []string{"no call was answered, so an unchanged tree proves nothing"}
		case "16":
			c.Failures = []string{"server did not start; see check 1 (an empty HOME proves nothing then)"}
		}
		c.Evidence = "FAIL: " + c.Failures[0]
		if c.ID == "1" {
			c.Evidence += "\n   stderr: " + strings.ReplaceAll(stderr, "\n", "\n   stderr: ")
		}
	})
}

func result(t *testing.T, name, command, runJSON, rec string) *Result {
	t.Helper()
	r := &Result{Learner: name, Command: command}
	if runJSON != "" {
		run, err := record.DecodeRun(strings.NewReader(runJSON))
		if err != nil {
			t.Fatal(err)
		}
		r.Graded, r.RunParsed, r.Run = true, run, []byte(runJSON)
	}
	r.Record = record.Judge(rec, r.RunParsed)
	r.Record.File = RecordFile
	return r
}

// Hostile text in every place a learner controls: folder names, server
// commands, records, what the server replied and what it wrote on stderr.
const (
	hostileName  = "=HYPERLINK(\"x\")\x1b]0;pwn\x07\u202e<img src=x onerror=alert(1)>`[x](javascript:alert(1))"
	hostileName2 = "@SUM(1+1)*cmd|'C calc'!A0 \u2066<script>alert(2)"
	hostileCmd   = "node `x` ```` <script>alert(3)</script> \x1b[2J\u202e {root}"
	hostileRec   = "Boundary tests run: all passed ````` <blink>alert(4)</blink>\x1b[31m\u202e\nIntegration demonstrated: yes <img src=y>\n" +
		// A claim line the reader cannot read, and one about the
		// learner's own tests: both are quoted back.
		"\nOverall it went fine and the result looks good ````` <img src=u onerror=alert(8)>\x1b]0;t\x07\u202e\n" +
		"My unit tests are green ```` <script>alert(9)</script>\x1b[2J\u2066\n"
	hostileReply  = "<- text: `````` <img src=z onerror=alert(5)>\x1b]52;c;AAAA\x07\u202e\u009b31m"
	hostileMethod = "tools/call <img src=r onerror=alert(10)>\x1b]0;t\x07\u202e"
	hostileErr    = "\x1b[2J````\n``````\n<script>alert(6)</script>\u202e\ntraceback line ``\x07"
)

func hostileClass(t *testing.T) (string, []*Result) {
	t.Helper()
	leaky := fullRun(t, "process group only", func(c *fakeCheck) {
		if c.ID == "4" || c.ID == "8" || c.ID == "17" {
			c.Status, c.Hint = "fail", "Refuse it."
			c.Failures = []string{"leaked ````` <blink>x</blink> \x1b[1m\u202e"}
			c.Evidence = "FAIL: " + c.Failures[0] + "\n   -> tools/call search_notes {\"query\":\"x\"}\n   " + hostileReply + "\n``````\n<img src=q onerror=alert(7)>"
		}
	})
	notGraded := result(t, "cy\x1b[31m\u202e<b>", hostileCmd, "", hostileRec)
	notGraded.Error = "the harness could not run the checks (exit 2): " + hostileErr
	notGraded.HarnessStderr = hostileErr
	deps := result(t, "dee<i>\x07", "node s.js {root}", "", "")
	deps.Error, deps.Install, deps.DepsMissing = "dependencies not installed: run npm ci in class/dee<i>\x07", "npm ci", true
	regraded := result(t, hostileName, hostileCmd, leaky, hostileRec)
	regraded.FirstRun = &FirstRun{Seed: 7, Failed: []string{"1", "<b>2"}, Unanswered: []record.Unanswered{{Check: "1",
		Method: hostileMethod, Error: "no answer within 10s ````` <script>alert(11)</script>\x1b[2J\u202e"}}}
	results := []*Result{
		regraded,
		result(t, hostileName2, hostileCmd, neverStarts(t, hostileErr), hostileRec),
		notGraded,
		deps,
	}
	out := filepath.Join(t.TempDir(), "grades")
	if err := WriteAll(out, results); err != nil {
		t.Fatal(err)
	}
	return out, results
}

// inert reports the characters of s that a terminal, editor or browser
// would act on: controls other than newline and tab, and bidi formatting.
func inert(t *testing.T, what, s string) {
	t.Helper()
	for _, r := range s {
		if r != '\n' && r != '\t' && visible.NeedsEscape(r) {
			t.Errorf("%s holds raw %U", what, r)
			return
		}
	}
}

func TestHostileCSV(t *testing.T) {
	out, _ := hostileClass(t)
	text := readFile(t, filepath.Join(out, "summary.csv"))
	inert(t, "summary.csv", text)
	rows, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 5 {
		t.Fatalf("%d rows, want a header and 4 learners", len(rows))
	}
	for _, row := range rows {
		for _, cell := range row {
			if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
				t.Errorf("cell %q would be read as a formula", cell)
			}
		}
	}
	if rows[1][0] != `'=HYPERLINK("x")\x1b]0;pwn\a\u202e<img src=x onerror=alert(1)>`+"`[x](javascript:alert(1))" {
		t.Errorf("learner cell %q", rows[1][0])
	}
	if got, want := rows[1][8], "to review: the first run left a call unanswered, the second answered every call"; got != want {
		t.Errorf("regraded cell %q, want %q", got, want)
	}
	// The record's line that the reader could not read is counted; a
	// learner without a run has no count.
	if got := []string{rows[1][7], rows[3][7]}; !cmp.Equal(got, []string{"1", ""}) {
		t.Errorf("record_unread_lines %q, want [1 \"\"]", got)
	}
}

// fences splits Markdown into the text outside fenced code blocks and the
// text inside, by CommonMark's rules: a fence closes only with the same
// character, at least as long, and nothing else on the line.
func fences(md string) (outside, inside string) {
	var out, in strings.Builder
	open := ""
	openRe := regexp.MustCompile("^ {0,3}(`{3,}|~{3,})")
	for _, line := range strings.Split(md, "\n") {
		if open == "" {
			if m := openRe.FindStringSubmatch(line); m != nil && !(m[1][0] == '`' && strings.Contains(line[len(m[0]):], "`")) {
				open = m[1]
				continue
			}
			out.WriteString(line + "\n")
			continue
		}
		t := strings.TrimSpace(line)
		if len(t) >= len(open) && strings.Trim(t, open[:1]) == "" && line[0] != '\t' {
			open = ""
			continue
		}
		in.WriteString(line + "\n")
	}
	return out.String(), in.String()
}

// Outside fenced blocks no learner text is markup: every "<", "[", "`"
// and "(" it brought is escaped; inside, each fence holds all of its text.
func TestHostileMarkdown(t *testing.T) {
	out, results := hostileClass(t)
	unescaped := regexp.MustCompile(`(^|[^\\])(<(img|script|blink|b|i)\b|\]\(javascript|alert\()`)
	for _, r := range results {
		name := fileBase(r.Learner) + ".md"
		md := readFile(t, filepath.Join(out, name))
		inert(t, name, md)
		outside, inside := fences(md)
		if m := unescaped.FindString(outside); m != "" {
			t.Errorf("%s: learner text is live Markdown or HTML outside code blocks (%q):\n%s", name, m, outside)
		}
		for _, want := range []string{"<script>alert(3)</script>"} {
			if r.Command == hostileCmd && !strings.Contains(inside, want) {
				t.Errorf("%s: %q is not inside a code block; outside:\n%s", name, want, outside)
			}
		}
		if !strings.HasPrefix(md, "# Practice-notes checks: ") || strings.Count(md[:strings.Index(md, "\n")], "\\<") < 1 && strings.ContainsRune(r.Learner, '<') {
			t.Errorf("%s: heading not built from the escaped name: %q", name, md[:strings.Index(md, "\n")])
		}
	}
	md := readFile(t, filepath.Join(out, fileBase(hostileName)+".md"))
	_, inside := fences(md)
	for _, want := range []string{"<img src=z onerror=alert(5)>", "<blink>alert(4)</blink>", "<img src=q onerror=alert(7)>",
		"<img src=u onerror=alert(8)>", "<script>alert(9)</script>"} {
		if !strings.Contains(inside, want) {
			t.Errorf("%q (reply, record) not inside a code block:\n%s", want, md)
		}
	}
	for _, want := range []string{"### Read these yourself", "### Your own tests, not checked by this run"} {
		if !strings.Contains(md, want) {
			t.Errorf("the learner's page lacks %q:\n%s", want, md)
		}
	}
	// The first run's unanswered call: named outside a code block,
	// escaped, and quoted whole inside one.
	outside, inside := fences(md)
	if !strings.Contains(outside, "## Graded twice\n\nTo review, graded twice: the first run left 1 call unanswered \\(check 1, tools/call \\<img src=r") {
		t.Errorf("the learner's page does not say why it was graded twice:\n%s", md)
	}
	if !strings.Contains(inside, "check 1, tools/call <img src=r onerror=alert(10)>\\x1b]0;t\\a\\u202e: no answer within 10s ````` <script>alert(11)</script>") {
		t.Errorf("the first run's unanswered call is not quoted in a code block:\n%s", md)
	}
	never := readFile(t, filepath.Join(out, fileBase(hostileName2)+".md"))
	if _, inside := fences(never); !strings.Contains(inside, "<script>alert(6)</script>") {
		t.Errorf("the server's stderr is not inside a code block:\n%s", never)
	}
	sum := readFile(t, filepath.Join(out, "summary.md"))
	inert(t, "summary.md", sum)
	if m := unescaped.FindString(sum); m != "" {
		t.Errorf("summary.md: live markup %q:\n%s", m, sum)
	}
	if !strings.Contains(sum, "; to review (a call unanswered in one run of two): ") || !strings.Contains(sum, ".md) (to review) |") {
		t.Errorf("summary.md does not mark the learner to review:\n%s", sum)
	}
}

// The page stays inert: no element, attribute or link the learner's text
// brought, no raw control or bidi character.
func TestHostilePage(t *testing.T) {
	out, _ := hostileClass(t)
	page := readFile(t, filepath.Join(out, "index.html"))
	inert(t, "index.html", page)
	allowed := map[string]bool{}
	for _, n := range strings.Fields("html head meta title style body h1 h2 h3 h4 p table colgroup col thead tbody tr th td a ul li b div dl dt dd section pre code") {
		allowed[n] = true
	}
	for _, e := range parsePage(t, page) {
		if !allowed[e.name] {
			t.Errorf("page has a <%s> element", e.name)
		}
		for name, v := range e.attrs {
			if name == "src" || strings.HasPrefix(name, "on") || name == "style" {
				t.Errorf("<%s %s=%q>", e.name, name, v)
			}
			if name == "href" && (strings.Contains(v, ":") || strings.HasPrefix(v, "//")) {
				t.Errorf("link %q leaves the folder", v)
			}
		}
		if e.name == "b" && e.text != strings.TrimSpace(e.text) {
			t.Errorf("<b> %q", e.text)
		}
	}
	for _, want := range []string{`\u202e&lt;img src=x onerror=alert(1)&gt;`, `\x1b[2J`, `&lt;script&gt;alert(6)&lt;/script&gt;\u202e`,
		"<pre>Overall it went fine and the result looks good ````` &lt;img src=u onerror=alert(8)&gt;\\x1b]0;t\\a\\u202e</pre>",
		"<pre>My unit tests are green ```` &lt;script&gt;alert(9)&lt;/script&gt;\\x1b[2J\\u2066</pre>",
		`<a class="warn" href="#learner-1-regraded">to review</a>`, `<p id="learner-1-regraded" class="warn">To review, graded twice: the first run left 1 call unanswered (check 1, tools/call &lt;img src=r onerror=alert(10)&gt;\x1b]0;t\a\u202e: no answer within 10s `} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q, the learner's text shown as text", want)
		}
	}
}

// What reaches the instructor's terminal: progress lines and the record
// check of scripts/acceptance.sh --completion.
func TestHostileTerminal(t *testing.T) {
	_, results := hostileClass(t)
	for _, r := range results {
		line := ProgressLine(r, 0)
		inert(t, "progress line", line)
		if strings.Contains(line, "\n") {
			t.Errorf("progress line spans lines: %q", line)
		}
	}
	inert(t, "summary line", SummaryLine(results))
	if line := ProgressLine(results[0], 0); !strings.Contains(line, "; graded twice, to review: a call unanswered in the first run only;") {
		t.Errorf("progress line does not mark the learner to review: %q", line)
	}
	if line := SummaryLine(results); !strings.Contains(line, "; to review (a call unanswered in one run of two): =HYPERLINK") {
		t.Errorf("summary line does not name the learner to review: %q", line)
	}
	var b bytes.Buffer
	WriteRecordCheck(&b, results[0])
	inert(t, "record check", b.String())
	for _, want := range []string{`\x1b[31m\u202e`,
		"  read this yourself: line 4, a claim that names no test: Overall it went fine and the result looks good ````` <img src=u onerror=alert(8)>\\x1b]0;t\\a\\u202e\n",
		"  your own tests, not checked by this run: line 5: My unit tests are green ```` <script>alert(9)</script>\\x1b[2J\\u2066\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the record check lacks %q, the record's text shown escaped:\n%s", want, b.String())
		}
	}
}

func TestHostileJSONAndFileNames(t *testing.T) {
	out, results := hostileClass(t)
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		inert(t, "file name "+e.Name(), e.Name())
	}
	for _, r := range results {
		text := readFile(t, filepath.Join(out, fileBase(r.Learner)+".json"))
		inert(t, r.Learner+".json", text)
		var back Result
		if err := json.Unmarshal([]byte(text), &back); err != nil {
			t.Fatal(err)
		}
		if back.Learner != r.Learner || back.Command != r.Command {
			t.Errorf("the .json does not hold the learner's name and command as they are: %q %q", back.Learner, back.Command)
		}
	}
}

// A server that never starts gets one short section: the command, how it
// ended, its stderr, the likely cause, and the checks not run in one line.
func TestServerNeverStarts(t *testing.T) {
	r := result(t, "eve", "eve-notes-server --root {root}", neverStarts(t, "/bin/sh: 1: eve-notes-server: not found"), "")
	out := filepath.Join(t.TempDir(), "grades")
	if err := WriteAll(out, []*Result{r}); err != nil {
		t.Fatal(err)
	}
	md := readFile(t, filepath.Join(out, "eve.md"))
	if n := strings.Count(md, "\n"); n >= 60 {
		t.Errorf("page of %d lines, want under 60:\n%s", n, md)
	}
	for _, want := range []string{
		"## Your server did not start\n\nThe checks ran your command in your folder. It ended with exit status 127 before answering `initialize`.\n",
		"Its last lines on stderr:\n\n````text\n/bin/sh: 1: eve-notes-server: not found\n````\n",
		"Likely cause: the shell could not find the program \"eve-notes-server\": install it, or give its path relative to your folder in server.cmd.\n",
		"Not run, because the server did not start: checks 2, 3, 4, 5, 6, 7, 8, 8.1, 8.2, 8.3, 8.4, 8.5, 8.6, 8.7, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22.\n",
		"- Your server ran in a sandbox: a user of its own, no network, only its own folders writable and limits on memory, processes and CPU time (details: the kit's docs/grading-isolation.md).\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("eve.md lacks %q:\n%s", want, md)
		}
	}
	for _, not := range []string{"see check 1", "/home/grader", "## What failed"} {
		if strings.Contains(md, not) {
			t.Errorf("eve.md holds %q:\n%s", not, md)
		}
	}
	var term bytes.Buffer
	WriteRecordCheck(&term, r)
	wantTerm := "FAIL 1 the rule of check 1\n" +
		"    FAIL: server did not start: the process exited (exit status 127) before completing initialize (connect failed after 13 ms: EOF)\n" +
		"       stderr: /bin/sh: 1: eve-notes-server: not found\n" +
		"    fix: Make the command start a stdio MCP server that answers initialize within the start timeout.\n" +
		"    likely cause: the shell could not find the program \"eve-notes-server\": install it, or give its path relative to your folder in server.cmd.\n" +
		"NOT RUN 2 3 4 5 6 7 8 8.1 8.2 8.3 8.4 8.5 8.6 8.7 9 10 11 12 13 14 15 16 17 18 19 20 21 22: the server did not start\n" +
		"record COMPLETION.md: missing\n" +
		"0 passed, 29 failed\n"
	if diff := cmp.Diff(wantTerm, term.String()); diff != "" {
		t.Errorf("terminal output (-want +got):\n%s", diff)
	}
	if got := ProgressLine(r, 0); !strings.HasPrefix(got, "eve: server did not start (exit status 127), 28 checks not run; record missing;") {
		t.Errorf("progress line %q", got)
	}
	page := readFile(t, filepath.Join(out, "index.html"))
	if !strings.Contains(page, `server did not start</a>: the shell could not find the program &#34;eve-notes-server&#34;`) {
		t.Errorf("the page's first table does not say the server did not start")
	}
	// One fault, counted once: check 1 failed, the 28 others were not run.
	if !strings.Contains(page, `<td class="fail">1</td><td class="none">28</td>`) {
		t.Errorf("the page's first table does not count 1 failed and 28 not run")
	}
	if got, want := readFile(t, filepath.Join(out, "summary.csv")), "eve,0,1,28,0,1,missing,,\n"; !strings.HasSuffix(got, want) {
		t.Errorf("summary.csv:\n%s\nwant its row %q", got, want)
	}
	if got := readFile(t, filepath.Join(out, "summary.md")); !strings.Contains(got, "| [eve](eve.md) | 0 | 1 | 28 | 0 | server did not start") {
		t.Errorf("summary.md does not count 1 failed and 28 not run:\n%s", got)
	}
	if !strings.Contains(md, "- Result: 0 passed, 1 failed, 28 not run, 0 warnings\n") {
		t.Errorf("eve.md does not count 1 failed and 28 not run:\n%s", md)
	}
	var j struct {
		Failed int      `json:"failed"`
		NotRun []string `json:"notRun"`
	}
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(out, "eve.json"))), &j); err != nil {
		t.Fatal(err)
	}
	if j.Failed != 1 || len(j.NotRun) != 28 || j.NotRun[0] != "2" {
		t.Errorf("eve.json: failed %d, notRun %q; want 1 and checks 2 to 22", j.Failed, j.NotRun)
	}
}

// Each likely cause follows from what the server wrote and how it ended.
func TestLikelyCause(t *testing.T) {
	tests := []struct {
		name   string
		ns     noStart
		prefix string
	}{
		{"not found", noStart{Exit: "exit status 127"}, "the shell could not find the program \"srv\""},
		{"found, may not run (dash)", noStart{Exit: "exit status 127", Stderr: []string{"/bin/sh: 1: srv: Permission denied"}}, "the shell found the program \"srv\" but may not run it (Permission denied)"},
		{"found, may not run (bash)", noStart{Exit: "exit status 126", Stderr: []string{"bash: line 1: srv: Permission denied"}}, "the shell found the program \"srv\" but may not run it (Permission denied)"},
		{"node module", noStart{Exit: "exit status 1", Stderr: []string{"Error [ERR_MODULE_NOT_FOUND]: Cannot find package '@modelcontextprotocol/sdk' imported from /x/server.js"}},
			"Node.js could not load \"@modelcontextprotocol/sdk\": the dependencies are not installed"},
		{"python module", noStart{Exit: "exit status 1", Stderr: []string{"ModuleNotFoundError: No module named 'mcp'"}}, "Python could not import \"mcp\""},
		{"not executable", noStart{Exit: "exit status 126"}, "the program \"srv\" is not executable"},
		{"exited", noStart{Exit: "exit status 3"}, "the server exited before answering initialize"},
		{"stdout noise", noStart{Stdout: []string{"ready"}}, "the server wrote text that is not JSON-RPC on stdout"},
		{"silent", noStart{}, "the command ran but never answered initialize"},
	}
	for _, tt := range tests {
		if got := likelyCause("srv --root {root}", &tt.ns); !strings.HasPrefix(got, tt.prefix) {
			t.Errorf("%s: %q, want it to start with %q", tt.name, got, tt.prefix)
		}
	}
}

// Evidence is cut for a person: requests to method and arguments, the
// reply around the text the finding quotes, marked.
func TestCutEvidence(t *testing.T) {
	reply := `{"jsonrpc":"2.0","id":11,"result":{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"x"}},"content":[{"type":"text","text":"` +
		strings.Repeat("padding ", 60) + `secret.md"}]}}`
	ev := "FAIL: the file named as a result (\"secret.md\") appeared\n" +
		`   -> {"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/clientInfo":{"name":"practice-notes-acceptance"}},"name":"search_notes","arguments":{"query":"../x"}}}` + "\n" +
		"   <- " + reply + "   (3 ms)"
	got, cut := cutEvidence(ev, 300, 14)
	lines := strings.Split(got, "\n")
	if !cut || len(lines) != 3 {
		t.Fatalf("cut %v, %d lines:\n%s", cut, len(lines), got)
	}
	if lines[1] != `   -> tools/call search_notes {"query":"../x"}` {
		t.Errorf("request line %q", lines[1])
	}
	if !strings.Contains(lines[2], "»secret.md«") || strings.Contains(lines[2], "_meta") || len(lines[2]) > 400 {
		t.Errorf("reply line %q", lines[2])
	}
	many := strings.Repeat("line\n", 20)
	if got, _ := cutEvidence(many, 300, 14); !strings.HasSuffix(got, "\n… 6 more lines") {
		t.Errorf("20 lines cut to:\n%s", got)
	}
}

// The isolation sentence is one line, built from the run's words, and
// never carries the grader's paths.
func TestIsolationLine(t *testing.T) {
	const real = "process group; the server ran as uid and gid 2000000000, not root (no capabilities, no_new_privs), in private mount, network and PID namespaces; the grader's home /root hidden but for .cargo, .pyenv, go (read-only); limits (rlimits, each process): 1 GiB of memory, 5m0s of CPU time"
	tests := []struct{ iso, want string }{
		{real, "Your server ran in a sandbox: a user of its own, no network, only its own folders writable and limits on memory, processes and CPU time"},
		{"process group only", "Your server ran in a process group of its own, not in a sandbox"},
		{"process group; limits (rlimits, each process): 1 GiB of memory", "Your server ran with limits on memory, processes and CPU time"},
	}
	for _, tt := range tests {
		got := isolationLine(tt.iso)
		if want := tt.want + ` (details: the kit's docs/grading-isolation.md).`; got != want {
			t.Errorf("isolationLine(%q)\n = %q\nwant %q", tt.iso, got, want)
		}
	}
}

// Only a run in which no check could run is summed up as a server that
// never started; a check with a verdict of its own keeps the full page.
func TestNeverStartedNeedsEveryCheck(t *testing.T) {
	never := result(t, "a", "s", neverStarts(t, "boom"), "")
	if serverNeverStarted(never) == nil {
		t.Fatal("a run where every check points at check 1 is not recognised")
	}
	partly := fullRun(t, "process group only", func(c *fakeCheck) {
		switch c.ID {
		case "1":
			c.Status, c.Failures, c.Evidence = "fail", []string{"server did not start: no initialize answer within 10s"}, "FAIL: server did not start"
		case "5":
			c.Status, c.Failures, c.Evidence = "fail", []string{"the symlink escape-link.md named as a result"}, "FAIL: the symlink"
		}
	})
	if ns := serverNeverStarted(result(t, "b", "s", partly, "")); ns != nil {
		t.Errorf("a run with checks that ran is summed up as never started: %+v", ns)
	}
	started := fullRun(t, "process group only", func(c *fakeCheck) {
		if c.ID == "1" {
			c.Status, c.Failures, c.Evidence = "fail", []string{"the passage differs"}, "FAIL: the passage differs"
		}
	})
	if ns := serverNeverStarted(result(t, "c", "s", started, "")); ns != nil {
		t.Errorf("a failed check 1 of a started server is summed up as never started: %+v", ns)
	}
}

func TestReason(t *testing.T) {
	run := fullRun(t, "x", func(c *fakeCheck) {
		switch c.ID {
		case "8":
			c.Status, c.Evidence = "fail", "FAIL: stdout"
			c.Failures = []string{`stdout carried 1 non-JSON-RPC line(s) in the process of checks 1, 2, 3 and 8.1; the first: non-JSON-RPC stdout line: "ready"`}
		case "20":
			c.Status, c.Evidence = "fail", "FAIL: short"
			c.Failures = []string{"a FIFO hung the search"}
		case "21":
			c.Status, c.Evidence = "fail", "FAIL: from the evidence\nmore"
		}
	})
	r := result(t, "a", "s", run, "")
	for id, want := range map[string]string{
		"8":  "stdout carried 1 non-JSON-RPC line(s); the first …",
		"20": "a FIFO hung the search",
		"21": "from the evidence",
	} {
		if got := reason(r, id); got != want {
			t.Errorf("reason for %s: %q, want %q", id, got, want)
		}
	}
}
