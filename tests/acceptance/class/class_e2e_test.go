//go:build live

package class

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var repoRoot = filepath.Join("..", "..", "..")

const testClass = "tests/acceptance/testdata/class"

// needPython skips when python3 is missing, except in CI, where learner
// bea's server must run.
func needPython(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("python3 is needed for learner bea's server: %v", err)
		}
		t.Skip("python3 not installed: learner bea's server needs it")
	}
}

// runCmd runs a command from the repository root with a time limit.
func runCmd(t *testing.T, dir string, limit time.Duration, name string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		code = ee.ExitCode()
	default:
		t.Fatalf("%s: %v\n%s", name, err, errb.String())
	}
	return out.String(), errb.String(), code
}

// TestClassEndToEnd grades the test class through scripts/grade-class.sh
// and the real harness, as an instructor would. Learners fay (hangs at
// start), eve (no such command) and hal (floods stdout) must be graded
// like the others.
func TestClassEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: grading the test class runs eight learners' servers")
	}
	needPython(t)
	// Learners ada, cal, dan and gus start with "go run"; compiling them
	// here first keeps that compile out of the harness's 10 s handshake.
	if out, errOut, code := runCmd(t, repoRoot, 5*time.Minute, "go", "build", "practice-notes",
		"./tests/acceptance/testdata/servers/follows-symlinks", "./tests/acceptance/testdata/servers/banner-on-stdout",
		"./tests/acceptance/testdata/servers/invents-passage"); code != 0 {
		t.Fatalf("building the learners' Go servers: %s%s", out, errOut)
	}
	out := filepath.Join(t.TempDir(), "grades")
	start := time.Now()
	// The learners' Go servers are compiled above, so a 10 s start limit is
	// ample; it keeps the hanging and flooding learners (fay, hal) from
	// holding a core for the default 30 s while other packages' tests run.
	// A seed of its own would change the learners' pages from run to run:
	// the documented pages are those of seed 1.
	stdout, stderr, code := runCmd(t, repoRoot, 10*time.Minute, "bash", "scripts/grade-class.sh", "-start-timeout", "10s", "-seed", "1", "-o", out, testClass)
	t.Logf("scripts/grade-class.sh → exit %d in %s\nstdout:\n%s\nstderr:\n%s", code, time.Since(start).Round(time.Millisecond), stdout, stderr)
	if code != 0 {
		t.Fatalf("exit %d, want 0", code)
	}
	lines := strings.Split(strings.TrimRight(stdout, "\n"), "\n")
	if got, want := lines[len(lines)-1], "8 learners graded, 2 passed every check"; got != want {
		t.Errorf("last stdout line %q, want %q", got, want)
	}
	checkDocs(t, "grading-class-stdout", strings.ReplaceAll(stdout, out, "grades"))

	// Progress: one line per learner, counting down.
	progressRe := regexp.MustCompile(`^(\w+): .*; record (missing|incomplete|contradicted|consistent); \d+\.\d s; (\d) left$`)
	var lefts []string
	for _, l := range strings.Split(strings.TrimSpace(stderr), "\n") {
		if m := progressRe.FindStringSubmatch(l); m != nil {
			lefts = append(lefts, m[3])
		}
	}
	if diff := cmp.Diff([]string{"7", "6", "5", "4", "3", "2", "1", "0"}, lefts); diff != "" {
		t.Errorf("progress lines (-want +got):\n%s", diff)
	}

	csvText := readFile(t, filepath.Join(out, "summary.csv"))
	checkDocs(t, "grading-class-summary-csv", csvText)
	rows, err := csv.NewReader(strings.NewReader(csvText)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(csvHeader, rows[0]); diff != "" {
		t.Fatalf("header (-want +got):\n%s", diff)
	}
	type want struct {
		record string
		// failed checks that must be among the row's; nil: none may fail
		failed []string
		// unread claim lines; "" for a record not read
		unread string
	}
	wants := map[string]want{
		"ada": {"consistent", nil, "0"},
		"bea": {"incomplete", nil, "1"},
		"cal": {"contradicted", []string{"5"}, "0"},
		"dan": {"contradicted", []string{"8"}, "0"},
		"eve": {"missing", []string{"1", "8"}, ""},
		// fay's record names the transport and marks integration
		// pending: a plan, which the stdio rule does not refute.
		"fay": {"incomplete", []string{"1", "2", "8"}, "0"},
		"gus": {"consistent", []string{"2"}, "0"},
		"hal": {"incomplete", []string{"1", "8"}, "0"},
	}
	var learners []string
	for _, row := range rows[1:] {
		name, failed := row[0], strings.Fields(row[5])
		learners = append(learners, name)
		w := wants[name]
		if row[6] != w.record || row[7] != w.unread {
			t.Errorf("%s: record %s with %q lines unread, want %s with %q", name, row[6], row[7], w.record, w.unread)
		}
		if w.failed == nil && (len(failed) > 0 || row[2] != "0") {
			t.Errorf("%s: failed %q (%s), want none", name, row[5], row[2])
		}
		for _, id := range w.failed {
			if !slices.Contains(failed, id) && !(id != "1" && row[3] != "0") {
				t.Errorf("%s: failed checks %q lack %s", name, row[5], id)
			}
		}
		// A server that never started failed one check; the others
		// were not run, and are counted so.
		if name == "eve" && (row[2] != "1" || row[3] != "28" || row[5] != "1") {
			t.Errorf("eve: failed %s, not run %s, failed checks %q; want 1, 28 and check 1", row[2], row[3], row[5])
		}
	}
	if diff := cmp.Diff([]string{"ada", "bea", "cal", "dan", "eve", "fay", "gus", "hal"}, learners); diff != "" {
		t.Errorf("learners (-want +got):\n%s", diff)
	}

	// Each feedback file: the evidence, the record's state with each
	// contradiction quoted, and the command to rerun the checks.
	feedback := map[string][]string{
		"ada": {"## Completion record: consistent", "--server 'go run practice-notes serve -root {root}' --completion COMPLETION.md"},
		"bea": {"## Completion record: incomplete", `- Incomplete: "Exact passage manually checked" (line 5): names no person and gives no date.`,
			"### Read these yourself\n\nThe record check could not tell what these lines claim, so it counted them neither for nor against your record; a person reads them against the run.\n\nLine 11, a claim that names no test:\n\n````text\nOverall it went fine and the result looks good.\n````\n",
			"### Your own tests, not checked by this run\n\nLine 10 of `COMPLETION.md` speaks of your own tests, which this run can neither confirm nor refute:\n\n````text\nMy own tests (pytest) are green too.\n````\n",
			"--server 'python3 server.py {root}' --completion COMPLETION.md"},
		"cal": {"### Check 5:", "What to fix:", "<details><summary>Evidence</summary>\n\nCut; the whole transcript is in cal.json.\n",
			"claims the acceptance tests passed:\n\n````text\nBoundary tests run: **all 8 passed**, nothing leaked\n````\n\nbut check 5 failed (see also checks 17 and 18):\n\n````text\nFAIL: text of escape-target.md",
			"--server 'go run ../../servers/follows-symlinks serve -root {root}'"},
		"dan": {"### Check 8:", "non-JSON-RPC", "````text\n* INTEGRATION DEMONSTRATED: yes, Claude Desktop listed search_notes and called it\n````\n\nbut check 8 failed:\n\n````text\nFAIL: stdout carried 1 non-JSON-RPC line(s)"},
		"eve": {"## Your server did not start", "eve-notes-server: not found", "Likely cause: the shell could not find the program", "## Completion record: missing"},
		"fay": {"## Your server did not start", "It did not answer `initialize` within the start limit.", "## Completion record: incomplete\n\n- Incomplete: \"Exact passage manually checked\" (line 3): empty or still \\_\\_\\_.\n",
			"--server 'sleep 3600'"},
		"gus": {"### Check 2:", "## Completion record: consistent"},
		"hal": {"## Your server did not start", "Its first lines on stdout:\n\n````text\nready, ready, ready\n", "not JSON-RPC on stdout", `- Incomplete: "Client and transport" (line 6): empty or still \_\_\_.`},
	}
	for name, wants := range feedback {
		md := readFile(t, filepath.Join(out, name+".md"))
		for _, w := range wants {
			if !strings.Contains(md, w) {
				t.Errorf("%s.md lacks %q:\n%s", name, w, md)
			}
		}
		if !strings.Contains(md, "## Rerun the checks on your machine") {
			t.Errorf("%s.md has no rerun command", name)
		}
		if n := strings.Count(md, "\n"); strings.Contains(md, "## Your server did not start") && n >= 60 {
			t.Errorf("%s.md: a server that never started gets %d lines, want under 60", name, n)
		}
		if strings.Contains(md, "see check 1") || strings.Contains(md, repoRoot) {
			t.Errorf("%s.md repeats \"see check 1\" or shows the grader's paths:\n%s", name, md)
		}
	}
	checkDocs(t, "grading-class-summary-md", readFile(t, filepath.Join(out, "summary.md")))
	checkDocs(t, "grading-learner-eve", readFile(t, filepath.Join(out, "eve.md")))
	// cal's first failed check, up to its evidence (which holds the run's
	// random markers).
	cal := readFile(t, filepath.Join(out, "cal.md"))
	from, to := strings.Index(cal, "## What failed"), strings.Index(cal, "<details>")
	if from < 0 || to < from {
		t.Fatalf("cal.md has no failed check with evidence:\n%s", cal)
	}
	checkDocs(t, "grading-learner-cal-excerpt", cal[from:to])

	// The page: well-formed, every link resolves, no external assets, and
	// each FAIL cell links to evidence on the page.
	page := readFile(t, filepath.Join(out, "index.html"))
	els := parsePage(t, page)
	ids := map[string]*element{}
	for _, e := range els {
		if id := e.attrs["id"]; id != "" {
			ids[id] = e
		}
	}
	fails := 0
	for _, e := range els {
		switch e.name {
		case "script", "link", "img", "iframe", "object", "embed":
			t.Errorf("page has a <%s> element", e.name)
		}
		if _, ok := e.attrs["src"]; ok {
			t.Errorf("<%s> has a src attribute", e.name)
		}
		href, ok := e.attrs["href"]
		switch {
		case !ok:
		case strings.HasPrefix(href, "#"):
			if ids[href[1:]] == nil {
				t.Errorf("link %q points at no element", href)
			}
			if e.text == "FAIL" {
				fails++
				if strings.TrimSpace(ids[href[1:]].text) == "" {
					t.Errorf("FAIL link %q leads to no evidence", href)
				}
			}
		case strings.Contains(href, ":") || strings.HasPrefix(href, "//"):
			t.Errorf("link %q leaves the output folder", href)
		default:
			if _, err := os.Stat(filepath.Join(out, href)); err != nil {
				t.Errorf("link %q: %v", href, err)
			}
		}
	}
	// In the grid, a server that never started has one FAIL (check 1) and
	// the other checks not run.
	wantFails := 0
	for _, row := range rows[1:] {
		if strings.Contains(readFile(t, filepath.Join(out, row[0]+".md")), "## Your server did not start") {
			wantFails++
			continue
		}
		wantFails += len(strings.Fields(row[4]))
	}
	if fails != wantFails {
		t.Errorf("page has %d FAIL links, want %d from summary.csv", fails, wantFails)
	}
	for _, name := range []string{"ada", "bea", "cal", "dan", "eve", "fay", "gus", "hal"} {
		if _, err := os.Stat(filepath.Join(out, name+".json")); err != nil {
			t.Error(err)
		}
	}
}

// TestCompletionFlag grades one learner's record with the command the
// feedback page gives under "Rerun the checks", as written, run by sh in
// the learner's folder with the kit's path filled in.
func TestCompletionFlag(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs a learner's server")
	}
	needPython(t)
	dir := filepath.Join(repoRoot, testClass, "bea")
	kit, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	forms := harnessCommands(&Result{Command: "python3 server.py {root}"}, "--completion")
	if len(forms) != 1 || !strings.HasPrefix(forms[0], "go -C "+kitPath+" ") {
		t.Fatalf("the page's rerun command: %q", forms)
	}
	line := strings.Replace(forms[0], kitPath, kit, 1)
	stdout, stderr, code := runCmd(t, dir, 5*time.Minute, "sh", "-c", line)
	t.Logf("exit %d\n%s%s", code, stdout, stderr)
	// go run exits 1 for any failure of the program.
	if code != 1 {
		t.Errorf("exit %d, want 1 for an incomplete record", code)
	}
	for _, want := range []string{
		"PASS 1 ",
		"record COMPLETION.md: incomplete\n",
		"  incomplete: Exact passage manually checked (line 5): names no person and gives no date\n",
		"  read this yourself: line 11, a claim that names no test: Overall it went fine and the result looks good.\n",
		"  your own tests, not checked by this run: line 10: My own tests (pytest) are green too.\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if !regexp.MustCompile(`\n\d+ passed, 0 failed\n$`).MatchString(stdout) {
		t.Errorf("output does not end with \"N passed, 0 failed\"")
	}
}

// checkDocs compares the block of docs/*.md marked "<!-- output: ID -->"
// (the grading reference, split by concern) with what the command printed
// now. With UPDATE_GRADING_DOCS=1 it rewrites the block instead.
func checkDocs(t *testing.T, id, got string) {
	t.Helper()
	re := regexp.MustCompile("<!-- output: " + regexp.QuoteMeta(id) + " -->\n(~{3,}|`{3,})[^\n]*\n")
	paths, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	var path, doc string
	var om []int
	for _, p := range paths {
		if d := readFile(t, p); re.MatchString(d) {
			path, doc, om = p, d, re.FindStringSubmatchIndex(d)
			break
		}
	}
	if om == nil {
		t.Errorf("no file of docs/ has a block <!-- output: %s -->", id)
		return
	}
	// The block ends at a line that is exactly its opening fence, so a
	// learner page's own fences inside it do not end it.
	fence := doc[om[2]:om[3]]
	n := strings.Index(doc[om[1]:], "\n"+fence+"\n")
	if n < 0 {
		t.Errorf("%s: block %s is not closed", path, id)
		return
	}
	m := []int{om[0], om[1] + n + 1, om[1], om[1] + n + 1}
	block := strings.TrimRight(doc[m[2]:m[3]], "\n")
	want := strings.TrimRight(got, "\n")
	if os.Getenv("UPDATE_GRADING_DOCS") == "1" {
		doc = doc[:m[2]] + want + "\n" + doc[m[3]:]
		if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if diff := cmp.Diff(want, block); diff != "" {
		t.Errorf("%s: block %s is not what the command printed now (-now +docs); UPDATE_GRADING_DOCS=1 rewrites it:\n%s", path, id, diff)
	}
}
