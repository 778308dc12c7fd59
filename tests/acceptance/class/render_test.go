package class

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"practice-notes/tests/acceptance/record"
)

// renderedClass grades three records against runs in the --json shape and
// writes every output into a temp folder.
func renderedClass(t *testing.T) (string, []*Result) {
	t.Helper()
	mk := func(name, cmd, runJSON, rec string) *Result {
		r := &Result{Learner: name, Command: cmd}
		if runJSON != "" {
			run, err := record.DecodeRun(strings.NewReader(runJSON))
			if err != nil {
				t.Fatal(err)
			}
			r.Graded, r.RunParsed, r.Run = true, run, []byte(runJSON)
		} else {
			r.Error = "stopped after the per-learner limit of 5m0s"
			r.HarnessStderr = "last words \x00 of the harness"
		}
		r.Record = record.Judge(rec, r.RunParsed)
		r.Record.File = RecordFile
		return r
	}
	results := []*Result{
		mk("ada", "python3 server.py {root}", contractRun("python3 server.py {root}", "process group only"), honest),
		mk("bob <&> 'x'", "node it's.js {root}", contractRun("node it's.js {root}", "process group only", "4", "9"),
			strings.Replace(honest, "9 passed, 0 failed", "**8/8 passed**", 1)+bobsNotes),
		mk("cy", "sleep 3600", "", ""),
	}
	out := filepath.Join(t.TempDir(), "grades")
	if err := WriteAll(out, results); err != nil {
		t.Fatal(err)
	}
	return out, results
}

// bobsNotes follow bob's six fields: two claims refuted by checks his
// "8/8" claim does not speak for or already quoted, a claim the reader
// cannot read, one about his own tests, and a pasted result line that
// shows a failure this run did not find.
const bobsNotes = `
Everything passes.
All checks pass.
Overall it went fine and the result looks good.
My unit tests (go test ./...) are green.

FAIL 3 a valid file
`

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestSummaryFiles(t *testing.T) {
	out, results := renderedClass(t)
	wantCSV := "learner,passed,failed,not_run,warnings,failed_checks,record,record_unread_lines,regraded\n" +
		"ada,9,0,0,1,,consistent,0,\n" +
		"bob <&> 'x',7,2,0,1,4 9,contradicted,1,\n" +
		"cy,,,,,,missing,,\n"
	if diff := cmp.Diff(wantCSV, readFile(t, filepath.Join(out, "summary.csv"))); diff != "" {
		t.Errorf("summary.csv (-want +got):\n%s", diff)
	}
	md := readFile(t, filepath.Join(out, "summary.md"))
	for _, want := range []string{
		"2 of 3 learners graded, 1 passed every check; not graded: cy.",
		"| [ada](ada.md) | 9 | 0 | 0 | 1 |  | consistent |",
		"| [bob \\<\\&\\> 'x'](bob%20%3C&%3E%20%27x%27.md) | 7 | 2 | 0 | 1 | 4: path outside the root was served; 9: path outside the root was served | contradicted, 1 line to read |",
		"| [cy](cy.md) | | | | | not graded: stopped after the per-learner limit of 5m0s | missing |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("summary.md lacks %q:\n%s", want, md)
		}
	}
	if got, want := SummaryLine(results), "2 of 3 learners graded, 1 passed every check; not graded: cy"; got != want {
		t.Errorf("summary line %q, want %q", got, want)
	}
	for _, name := range []string{"ada.json", "bob <&> 'x'.json", "cy.json"} {
		if _, err := os.Stat(filepath.Join(out, name)); err != nil {
			t.Error(err)
		}
	}
	if j := readFile(t, filepath.Join(out, "bob <&> 'x'.json")); !strings.Contains(j, `"extra": "fields beyond the contract are kept"`) {
		t.Errorf("learner JSON lost the run's other fields:\n%s", j)
	}
}

func TestFeedback(t *testing.T) {
	out, _ := renderedClass(t)
	bob := readFile(t, filepath.Join(out, "bob <&> 'x'.md"))
	for _, want := range []string{
		"- Result: 7 passed, 2 failed, 1 warnings\n",
		"- Completion record (`COMPLETION.md`): contradicted\n",
		"### Check 4: title of check 4\n",
		"- path outside the root was served\n\nWhat to fix: Refuse paths outside the root \\(check 4\\).\n",
		"````text\n-> tools/call search_notes {\"query\":\"../outside.md\"}\n<- text: secret-token-4 <script>alert(1)</script> \\x1b[31m\n````\n",
		"## Warnings\n\n### Check 8.1: title of check 8.1\n",
		// Each contradiction once: the claim, the evidence line of the
		// first refuting check not quoted above, the others by number.
		"Contradicted: line 2 of `COMPLETION.md` claims the acceptance tests passed:\n\n````text\nBoundary tests run: **8/8 passed**\n````\n\n" +
			"but check 4 failed:\n\n````text\n-> tools/call search_notes {\"query\":\"../outside.md\"}\n````\n\n" +
			"Contradicted: line 8 of `COMPLETION.md` claims every check passed:\n\n````text\nEverything passes.\n````\n\n" +
			"but check 9 failed (see also check 4):\n\n````text\n-> tools/call search_notes {\"query\":\"../outside.md\"}\n````\n\n" +
			"Contradicted: line 9 of `COMPLETION.md` claims every check passed:\n\n````text\nAll checks pass.\n````\n\n" +
			"but this run failed checks 4 and 9: see above.\n\n",
		"### Read these yourself\n\n",
		"Line 10, a claim that names no test:\n\n````text\nOverall it went fine and the result looks good.\n````\n",
		"### Your own tests, not checked by this run\n\nLine 11 of `COMPLETION.md` speaks of your own tests, which this run can neither confirm nor refute:\n\n````text\nMy unit tests (go test ./...) are green.\n````\n",
		"### Results from another run\n\nResults in your record differ from this run without claiming more than it shows:\n\n- line 13: the pasted lines say check 3 FAIL, this run PASS\n",
		"````text\ngo -C path/to/practice-notes run ./tests/acceptance/cmd/acceptance --dir \"$PWD\" --server 'node it'\\''s.js {root}' --completion COMPLETION.md\n````\n\nIn PowerShell:\n\n" +
			"````text\ngo -C path/to/practice-notes run ./tests/acceptance/cmd/acceptance --dir \"$PWD\" --server 'node it''s.js {root}' --completion COMPLETION.md\n````\n",
	} {
		if !strings.Contains(bob, want) {
			t.Errorf("bob's feedback lacks %q:\n%s", want, bob)
		}
	}
	// Check 9 is a boundary check, but "8/8" speaks only for checks 1-8;
	// no check's full evidence is repeated under the record.
	if strings.Contains(bob, "but check 4 failed (see also") {
		t.Errorf("8/8 claim refuted by check 9:\n%s", bob)
	}
	if n := strings.Count(bob, "secret-token-4"); n != 1 {
		t.Errorf("check 4's evidence appears %d times, want once (under What failed):\n%s", n, bob)
	}
	if strings.Contains(bob, "--learner-record") {
		t.Errorf("bob's record was not generated, yet his page says how to write it again:\n%s", bob)
	}
	cy := readFile(t, filepath.Join(out, "cy.md"))
	for _, want := range []string{"## Not graded\n\n````text\nstopped after the per-learner limit of 5m0s\n````\n", "## Completion record: missing\n", "--server 'sleep 3600'"} {
		if !strings.Contains(cy, want) {
			t.Errorf("cy's feedback lacks %q:\n%s", want, cy)
		}
	}
}

// element is what the page test needs of each parsed element.
type element struct {
	name  string
	attrs map[string]string
	text  string // text directly inside, including that of children
}

// parsePage reads index.html with encoding/xml in strict mode: the page is
// written as well-formed XML (XHTML-compatible), so any unclosed element,
// unquoted attribute, stray "&" or control character is a parse error
// here. golang.org/x/net/html would also accept malformed pages, which is
// what this test must refuse.
func parsePage(t *testing.T, page string) []*element {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(page))
	dec.Strict = true
	var all, open []*element
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("index.html is not well-formed: %v", err)
		}
		switch tk := tok.(type) {
		case xml.StartElement:
			e := &element{name: tk.Name.Local, attrs: map[string]string{}}
			for _, a := range tk.Attr {
				e.attrs[a.Name.Local] = a.Value
			}
			all = append(all, e)
			open = append(open, e)
		case xml.EndElement:
			open = open[:len(open)-1]
		case xml.CharData:
			for _, e := range open {
				e.text += string(tk)
			}
		}
	}
	return all
}

func TestPage(t *testing.T) {
	out, _ := renderedClass(t)
	page := readFile(t, filepath.Join(out, "index.html"))
	els := parsePage(t, page)

	ids := map[string]*element{}
	for _, e := range els {
		if id, ok := e.attrs["id"]; ok {
			if ids[id] != nil {
				t.Errorf("id %q used twice", id)
			}
			ids[id] = e
		}
	}
	for _, e := range els {
		switch e.name {
		case "script", "link", "img", "iframe", "object", "embed", "base":
			t.Errorf("page has a <%s> element", e.name)
		}
		for name, v := range e.attrs {
			if name == "src" || strings.HasPrefix(name, "on") {
				t.Errorf("<%s %s=%q>: external or active content", e.name, name, v)
			}
		}
		if e.name == "style" && (strings.Contains(e.text, "url(") || strings.Contains(e.text, "@import")) {
			t.Errorf("style loads something: %s", e.text)
		}
		href, ok := e.attrs["href"]
		if !ok {
			continue
		}
		switch {
		case strings.HasPrefix(href, "#"):
			if ids[href[1:]] == nil {
				t.Errorf("link %q points at no element", href)
			}
		case strings.Contains(href, ":") || strings.HasPrefix(href, "//"):
			t.Errorf("link %q leaves the page's folder", href)
		default:
			// A sibling file the grader wrote, such as a learner's feedback.
			name := strings.NewReplacer("%20", " ", "%3C", "<", "%3E", ">", "%27", "'").Replace(href)
			if _, err := os.Stat(filepath.Join(out, name)); err != nil {
				t.Errorf("link %q: %v", href, err)
			}
		}
	}

	// Two tables: first one row per learner with the failed checks and a
	// few words of reason each, then learners down and checks across. Each
	// failed check links to the evidence of that check.
	type cell struct{ class, text, target string }
	var tables [][][]cell
	for _, e := range els {
		switch {
		case e.name == "table":
			tables = append(tables, nil)
		case e.name == "tr":
			tables[len(tables)-1] = append(tables[len(tables)-1], nil)
		}
		if len(tables) == 0 {
			continue
		}
		rows := tables[len(tables)-1]
		if len(rows) == 0 {
			continue
		}
		last := rows[len(rows)-1]
		if e.name == "td" || e.name == "th" {
			rows[len(rows)-1] = append(last, cell{class: e.attrs["class"], text: e.text})
		}
		if e.name == "a" && len(last) > 0 {
			last[len(last)-1].target = e.attrs["href"]
		}
	}
	if len(tables) != 2 {
		t.Fatalf("page has %d tables, want 2", len(tables))
	}
	texts := func(row []cell) []string {
		var out []string
		for _, c := range row {
			out = append(out, c.text)
		}
		return out
	}
	first := tables[0]
	if diff := cmp.Diff([]string{"Learner", "Passed", "Failed", "Not run", "Warnings", "Failed checks", "Record"}, texts(first[0])); diff != "" {
		t.Fatalf("first table's header (-want +got):\n%s", diff)
	}
	wantFirst := [][]string{
		{"ada", "9", "0", "0", "1", "none", "consistent"},
		{"bob <&> 'x'", "7", "2", "0", "1", "4 path outside the root was served9 path outside the root was served", "contradicted, 1 line to read"},
		{"cy", "not graded: stopped after the per-learner limit of 5m0s", "missing"},
	}
	var gotFirst [][]string
	for _, row := range first[1:] {
		gotFirst = append(gotFirst, texts(row))
	}
	if diff := cmp.Diff(wantFirst, gotFirst); diff != "" {
		t.Errorf("first table (-want +got):\n%s", diff)
	}
	if c := first[2][5]; !strings.HasSuffix(c.target, "-check-9") {
		t.Errorf("bob's failed checks link to %q", c.target)
	}
	if c := first[2][6]; c.target != "#learner-2-unread" {
		t.Errorf("bob's record cell links to %q, want his lines to read", c.target)
	}
	// Bob's record: each contradiction once with one evidence line, the
	// other refuting checks linked; the lines to read; his own tests.
	for _, want := range []string{
		`<p>but <a href="#learner-2-check-4">check 4</a> failed:</p>`,
		`<p>but <a href="#learner-2-check-9">check 9</a> failed (see also <a href="#learner-2-check-4">check 4</a>):</p>`,
		`<h4 id="learner-2-unread">Read these yourself</h4>`,
		"<li>Line 10, a claim that names no test:\n<pre>Overall it went fine and the result looks good.</pre></li>",
		"<li>Line 11:\n<pre>My unit tests (go test ./...) are green.</pre></li>",
		"<li>line 13: the pasted lines say check 3 FAIL, this run PASS</li>",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if n := strings.Count(page, "secret-token-4"); n != 1 {
		t.Errorf("check 4's evidence appears %d times on the page, want once", n)
	}

	grid := tables[1]
	wantHeader := []string{"Learner", "1", "2", "3", "4", "5", "6", "7", "8", "8.1", "9"}
	if diff := cmp.Diff(wantHeader, texts(grid[0])); diff != "" {
		t.Fatalf("grid header (-want +got):\n%s", diff)
	}
	bob := grid[2]
	if bob[0].text != "bob <&> 'x'" {
		t.Errorf("bob's grid row starts %+v", bob[0])
	}
	for i, id := range wantHeader[1:] {
		c := bob[1+i]
		want := map[string]string{"4": "FAIL", "9": "FAIL", "8.1": "warn"}[id]
		if want == "" {
			want = "pass"
		}
		if c.text != want || c.class != strings.ToLower(want) {
			t.Errorf("bob, check %s: cell %q class %q, want %q", id, c.text, c.class, want)
		}
		if want == "FAIL" {
			ev := ids[strings.TrimPrefix(c.target, "#")]
			if ev == nil || !strings.Contains(ev.text, "secret-token-"+id) || !strings.Contains(ev.text, "<script>alert(1)</script>") {
				t.Errorf("bob's FAIL cell for check %s links to %q, which does not hold its evidence", id, c.target)
			}
		}
	}
	if cy := grid[3]; cy[len(cy)-1].text != "not graded" {
		t.Errorf("cy's grid row: %+v", cy)
	}
	// The evidence is shown as text, never as markup.
	if strings.Contains(page, "<script>") {
		t.Errorf("evidence reached the page unescaped")
	}
}

// A record that --learner-record wrote from an earlier run, in which every
// check passed, graded against a run that fails check 5: its results block
// is contradicted, and every output says how to write it again.
func TestGeneratedRecord(t *testing.T) {
	earlier, err := record.DecodeRun(strings.NewReader(contractRun("python3 server.py {root}", "process group only")))
	if err != nil {
		t.Fatal(err)
	}
	rec := record.Generate(earlier, "")
	r := result(t, "ines", "python3 server.py {root}", contractRun("python3 server.py {root}", "process group only", "5"), rec)
	if !r.Record.Generated || r.Record.State != record.Contradicted {
		t.Fatalf("record generated %v, state %s; want a generated, contradicted record", r.Record.Generated, r.Record.State)
	}
	out := filepath.Join(t.TempDir(), "grades")
	if err := WriteAll(out, []*Result{r}); err != nil {
		t.Fatal(err)
	}
	const cmd = `go -C path/to/practice-notes run ./tests/acceptance/cmd/acceptance --dir "$PWD" --server 'python3 server.py {root}' --learner-record COMPLETION.md`
	md := readFile(t, filepath.Join(out, "ines.md"))
	for _, want := range []string{
		"but check 5 failed:\n\n````text\n-> tools/call search_notes {\"query\":\"../outside.md\"}\n````\n",
		"claims the generated results say check 5 did not fail \\(PASS\\):\n\n````text\n| 5 | PASS | title of check 5 |\n````\n\nbut this run failed check 5: see above.\n",
		"### Write the record again\n\n",
		"````text\n" + cmd + "\n````\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("ines.md lacks %q:\n%s", want, md)
		}
	}
	page := readFile(t, filepath.Join(out, "index.html"))
	if want := "<pre>" + strings.NewReplacer("'", "&#39;", `"`, "&#34;").Replace(cmd) + "</pre>"; !strings.Contains(page, want) {
		t.Errorf("page lacks %q", want)
	}
	var term bytes.Buffer
	WriteRecordCheck(&term, r)
	for _, want := range []string{
		"  contradicted: line ",
		"    but check 5 failed: -> tools/call search_notes {\"query\":\"../outside.md\"}\n",
		"    but check 5 failed: see above\n",
		"  written by --learner-record: after changing the server, run this command with --learner-record COMPLETION.md to write it again\n",
	} {
		if !strings.Contains(term.String(), want) {
			t.Errorf("terminal output lacks %q:\n%s", want, term.String())
		}
	}
}
