package record

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"practice-notes/tests/acceptance/checks"
)

// runWith builds a run in the --json shape: checks 1-8 in the acceptance
// section (3-7 are also boundary rules), 9 in boundary, 10 in tool; the
// listed ids fail with evidence naming them.
func runWith(failed ...string) *Run {
	sections := map[string]string{"8.1": "protocol", "9": "boundary", "10": "tool", "11": "protocol"}
	r := &Run{Server: "python3 server.py {root}", Isolation: "process group only"}
	for _, id := range []string{"1", "2", "3", "4", "5", "6", "7", "8", "8.1", "9", "10", "11"} {
		c := Check{ID: id, Section: "acceptance", Title: "check " + id, Status: checks.StatusPass}
		if s, ok := sections[id]; ok {
			c.Section = s
		}
		for _, f := range failed {
			if f == id {
				c.Status = checks.StatusFail
				c.Evidence = "-> tools/call search_notes {\"query\":\"q" + id + "\"}\n<- reply for " + id
				c.Hint = "fix " + id
			}
		}
		if c.Status == checks.StatusFail {
			r.Failed++
		} else {
			r.Passed++
		}
		r.Checks = append(r.Checks, c)
	}
	return r
}

const complete = `# Completion record

Server source created: server.py in this folder
Boundary tests run: %BOUNDARY%
Exact passage manually checked: Ada Lovelace, 2026-11-30
Client and transport: %TRANSPORT%
Integration demonstrated: %INTEGRATION%
Unverified behavior: HTTP transport, Windows
`

func fill(boundary, transport, integration string) string {
	r := strings.NewReplacer("%BOUNDARY%", boundary, "%TRANSPORT%", transport, "%INTEGRATION%", integration)
	return r.Replace(complete)
}

// summary reduces a verdict to what the tests compare: the state, each
// problem as "field: why" and each contradiction as "line: checks".
type summary struct {
	State          State
	Problems       []string
	Contradictions []string
}

func summarise(v *Verdict) summary {
	s := summary{State: v.State}
	for _, p := range v.Problems {
		s.Problems = append(s.Problems, p.Field+": "+p.Why)
	}
	for _, c := range v.Contradictions {
		var ids []string
		for _, ch := range c.Checks {
			ids = append(ids, ch.ID)
		}
		s.Contradictions = append(s.Contradictions, c.Quote+" => "+strings.Join(ids, " "))
	}
	return s
}

// judgeCases are records and the verdicts TestJudge expects of them.
var judgeCases = []struct {
	name   string
	record string
	run    *Run
	want   summary
}{
	{
		name:   "blank specification template",
		record: "Server source created: ___\nBoundary tests run: ___\nExact passage manually checked: ___\nClient and transport: ___\nIntegration demonstrated: ___\nUnverified behavior: ___\n",
		run:    runWith(),
		want: summary{State: Incomplete, Problems: []string{
			"Server source created: empty or still ___",
			"Boundary tests run: empty or still ___",
			"Exact passage manually checked: empty or still ___",
			"Client and transport: empty or still ___",
			"Integration demonstrated: empty or still ___",
			"Unverified behavior: empty or still ___",
		}},
	},
	{
		name:   "honest and complete",
		record: fill("8/8 passed on 2026-11-30", "MCP Inspector over stdio", "yes: tools/list and a search_notes call in the Inspector"),
		run:    runWith(),
		want:   summary{State: Consistent},
	},
	{
		name:   "honest about failures",
		record: fill("6 of 8 passed; 4 and 5 failed", "MCP Inspector, stdio", "pending: not tried with a desktop client"),
		run:    runWith("4", "5"),
		want:   summary{State: Consistent},
	},
	{
		name:   "a count of passes above the run's",
		record: fill("6 of 8 passed; 4 and 5 failed", "MCP Inspector, stdio", "pending: not tried with a desktop client"),
		run:    runWith("4", "5", "8"),
		want: summary{State: Contradicted, Contradictions: []string{
			"Boundary tests run: 6 of 8 passed; 4 and 5 failed => 8",
		}},
	},
	{
		name:   "8/8 claimed, boundary failed",
		record: fill("8/8 passed", "Claude Desktop (local)", "pending"),
		run:    runWith("5"),
		want: summary{State: Contradicted, Contradictions: []string{
			"Boundary tests run: 8/8 passed => 5",
		}},
	},
	{
		name:   "bare passed in the boundary field covers boundary checks only",
		record: fill("passed", "Claude Desktop (local)", "pending"),
		run:    runWith("2", "9"),
		want: summary{State: Contradicted, Contradictions: []string{
			"Boundary tests run: passed => 9",
		}},
	},
	{
		name:   "0 failed reads as all passed",
		record: fill("all checks: 12 passed, 0 failed", "Claude Desktop (local)", "pending"),
		run:    runWith("10"),
		want: summary{State: Contradicted, Contradictions: []string{
			"Boundary tests run: all checks: 12 passed, 0 failed => 10",
		}},
	},
	{
		name:   "a count of skipped checks does not withdraw the claim",
		record: fill("all checks: 28 passed, 0 failed, 0 warnings, 1 skipped", "Claude Desktop (local)", "pending"),
		run:    runWith("10"),
		want: summary{State: Contradicted, Contradictions: []string{
			"Boundary tests run: all checks: 28 passed, 0 failed, 0 warnings, 1 skipped => 10",
		}},
	},
	{
		name:   "a negation in another clause does not withdraw the claim",
		record: fill("read-only except the temp folders. Result: 12 passed, 0 failed", "Claude Desktop (local)", "pending"),
		run:    runWith("10"),
		want: summary{State: Contradicted, Contradictions: []string{
			"Boundary tests run: read-only except the temp folders. Result: 12 passed, 0 failed => 10",
		}},
	},
	{
		name:   "8/8 is not refuted by a protocol sub-check; integration is",
		record: fill("8/8 passed", "Inspector, stdio", "yes, in the Inspector"),
		run:    runWith("8.1"),
		want: summary{State: Contradicted, Contradictions: []string{
			"Integration demonstrated: yes, in the Inspector => 8.1",
		}},
	},
	{
		name:   "a script's name is not a scope",
		record: fill("`scripts/acceptance.sh` on 2026-12-01: all checks passed, 0 failed", "stdio", "pending"),
		run:    runWith("10"),
		want: summary{State: Contradicted, Contradictions: []string{
			"Boundary tests run: `scripts/acceptance.sh` on 2026-12-01: all checks passed, 0 failed => 10",
		}},
	},
	{
		name:   "all acceptance tests passed speaks for checks 1-8",
		record: fill("all acceptance tests passed", "stdio", "pending"),
		run:    runWith("10"),
		want:   summary{State: Consistent},
	},
	{
		name:   "integration and stdio claimed, check 8 failed",
		record: fill("the run's boundary checks failed on 4", "Claude Desktop over stdio", "Yes, Claude Desktop listed and called search_notes"),
		run:    runWith("4", "8"),
		want: summary{State: Contradicted, Contradictions: []string{
			"Integration demonstrated: Yes, Claude Desktop listed and called search_notes => 8",
		}},
	},
	{
		name:   "stdio claimed to work, no reply over stdio at all",
		record: fill("none ran: the server did not start", "Claude Desktop over stdio, works", "pending"),
		run:    runWith("1", "2", "3", "4", "5", "6", "8"),
		want: summary{State: Contradicted, Contradictions: []string{
			"Client and transport: Claude Desktop over stdio, works => 1 2 8",
		}},
	},
	{
		name:   "stdio named, integration pending, no reply over stdio: no claim",
		record: fill("none ran: the server did not start", "Claude Desktop over stdio", "pending"),
		run:    runWith("1", "2", "3", "4", "5", "6", "8"),
		want:   summary{State: Consistent},
	},
	{
		name: "bold, list markers, case, multi-line values",
		record: "## Completion record\n\n- **server source created:** `server.py`\n* __BOUNDARY TESTS RUN__: see below\n  - 8 out of 8 passed ✅\n" +
			"1. **Exact passage manually checked**: compared by grace on March 3, 2026\n- *Client and transport*: Inspector / stdio\n" +
			"- **Integration Demonstrated:**\n  tools/list and tools/call in the Inspector\n- Unverified behaviour:\n  - HTTP\n\n## Notes\nBoundary tests: all passed (a repeated label, read as a claim)\n",
		run: runWith("7"),
		want: summary{State: Contradicted, Contradictions: []string{
			"- 8 out of 8 passed ✅ => 7",
			"Boundary tests: all passed (a repeated label, read as a claim) => 7",
		}},
	},
	{
		name: "table",
		record: "| Field | Value |\n|---|---|\n| Server source created | main.go |\n| Boundary tests run | 8/8 |\n| Exact passage manually checked | Grace Hopper 2026-12-01 |\n" +
			"| Client and transport | Inspector, stdio |\n| Integration demonstrated | yes |\n| Unverified behavior | HTTP |\n",
		run:  runWith(),
		want: summary{State: Consistent},
	},
	{
		name: "passage check without a person or a date",
		record: strings.Replace(fill("8/8 passed", "stdio", "yes"), "Ada Lovelace, 2026-11-30", "Checked by hand, matches the file", 1) +
			"",
		run: runWith(),
		want: summary{State: Incomplete, Problems: []string{
			"Exact passage manually checked: names no person and gives no date",
		}},
	},
	{
		name:   "passage check pending",
		record: strings.Replace(fill("8/8 passed", "stdio", "yes"), "Ada Lovelace, 2026-11-30", "Pending: the harness compared it", 1),
		run:    runWith(),
		want: summary{State: Incomplete, Problems: []string{
			"Exact passage manually checked: says no person has checked it",
		}},
	},
	{
		name:   "a field absent and one half filled",
		record: "Server source created: server.py\nBoundary tests run: by ___ on ___\nExact passage manually checked: Ada, 1.12.2026\nClient and transport: stdio\nIntegration demonstrated: no\n",
		run:    runWith(),
		want: summary{State: Incomplete, Problems: []string{
			"Boundary tests run: still has a ___ blank",
			"Unverified behavior: field absent",
		}},
	},
	{
		name:   "incomplete and lying is contradicted, problems kept",
		record: "Boundary tests run: all passed\n",
		run:    runWith("3"),
		want: summary{State: Contradicted,
			Problems: []string{
				"Server source created: field absent", "Exact passage manually checked: field absent",
				"Client and transport: field absent", "Integration demonstrated: field absent", "Unverified behavior: field absent",
			},
			Contradictions: []string{"Boundary tests run: all passed => 3"},
		},
	},
	{
		name:   "empty file",
		record: " \n\n",
		run:    runWith(),
		want:   summary{State: Missing},
	},
}

func TestJudge(t *testing.T) {
	tests := judgeCases
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := summarise(Judge(tt.record, tt.run))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("verdict (-want +got):\n%s", diff)
			}
		})
	}
}

// The quoted contradiction carries the refuting check's evidence, so a
// reader sees the record's line beside what the run observed.
func TestContradictionQuotesEvidence(t *testing.T) {
	v := Judge(fill("8/8 passed", "stdio", "pending"), runWith("4"))
	if len(v.Contradictions) != 1 {
		t.Fatalf("got %d contradictions, want 1: %+v", len(v.Contradictions), v.Contradictions)
	}
	c := v.Contradictions[0]
	if c.Line != 4 || c.Field != fieldBoundary || c.Claim != "the acceptance tests passed" {
		t.Errorf("contradiction at line %d field %q claim %q", c.Line, c.Field, c.Claim)
	}
	if got := c.Checks[0].Evidence; !strings.Contains(got, `"query":"q4"`) {
		t.Errorf("evidence %q does not quote the run", got)
	}
}

// This repository's own record is written from a real run: against a
// passing run it is incomplete only because no person has compared the
// passage yet; against a run that failed a boundary check it is
// contradicted on its "Boundary tests run" line.
func TestRepositoryRecord(t *testing.T) {
	path := filepath.Join("..", "..", "..", "COMPLETION.md")
	v, err := CheckFile(path, runWith())
	if err != nil {
		t.Fatal(err)
	}
	want := summary{State: Incomplete, Problems: []string{"Exact passage manually checked: says no person has checked it"}}
	if diff := cmp.Diff(want, summarise(v)); diff != "" {
		t.Errorf("passing run (-want +got):\n%s", diff)
	}
	v, err = CheckFile(path, runWith("5"))
	if err != nil {
		t.Fatal(err)
	}
	// The record's "29 passed, 0 failed" (twice), and its table's PASS row
	// for check 5, each claim what the run refutes; only the first quotes
	// check 5's evidence line.
	var got []string
	for _, c := range v.Contradictions {
		got = append(got, fmt.Sprintf("%s check=%s see=%v", strings.Fields(c.Quote)[0], c.Check, c.See))
	}
	want2 := []string{
		"Written check=5 see=[]",
		"**Boundary check= see=[5]",
		"| check= see=[5]",
	}
	if diff := cmp.Diff(want2, got); v.State != Contradicted || diff != "" {
		t.Errorf("failing run %s (-want +got):\n%s", v.State, diff)
	}
}

func TestCheckFileMissing(t *testing.T) {
	v, err := CheckFile(filepath.Join(t.TempDir(), "COMPLETION.md"), runWith())
	if err != nil || v.State != Missing {
		t.Errorf("CheckFile of no file = %+v, %v; want missing", v, err)
	}
	// A directory, a symlink (to a record, or to a file of the grader's)
	// and a FIFO are not read: the record must be the learner's own file.
	dir := t.TempDir()
	good := filepath.Join(dir, "good.md")
	if err := os.WriteFile(good, []byte(fill("8/8 passed", "stdio", "pending")), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.md")
	if err := os.Symlink(good, link); err != nil {
		t.Fatal(err)
	}
	paths := []string{dir, link}
	fifo := filepath.Join(dir, "fifo.md")
	switch err := mkfifo(fifo); {
	case err == nil:
		paths = append(paths, fifo)
	case errors.Is(err, errNoFIFO):
		t.Log("this system has no FIFOs: the FIFO case is not run")
	default:
		t.Fatal(err)
	}
	for _, p := range paths {
		v, err := CheckFile(p, runWith())
		if err != nil || v.State != Incomplete || len(v.Problems) != 1 || !strings.Contains(v.Problems[0].Why, "not a regular file") {
			t.Errorf("CheckFile(%s) = %+v, %v; want incomplete, not read", p, v, err)
		}
	}
	// A record past the bound is read up to it and reported.
	big := filepath.Join(dir, "big.md")
	text := fill("8/8 passed", "stdio", "pending") + strings.Repeat("padding line\n", maxRecord/13+1)
	if err := os.WriteFile(big, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	v, err = CheckFile(big, runWith())
	if err != nil || v.State != Incomplete || len(v.Problems) != 1 || !strings.Contains(v.Problems[0].Why, "only its first 256 KiB") {
		t.Errorf("CheckFile of a long record = %+v, %v", v, err)
	}
}

func TestDecodeRun(t *testing.T) {
	tests := []struct {
		name, json string
		wantErr    bool
	}{
		{"good", `{"server":"s","isolation":"i","passed":1,"failed":1,"warnings":1,"skipped":1,"checks":[
			{"id":"1","section":"acceptance","title":"t","status":"pass","evidence":"","hint":""},
			{"id":"8","section":"acceptance","title":"t","status":"fail","evidence":"e","hint":"h"},
			{"id":"8.1","section":"protocol","title":"t","status":"warn","evidence":"e","hint":"h"},
			{"id":"9","section":"tool","title":"t","status":"skip","evidence":"why","hint":""}],"extra":true}`, false},
		{"counts disagree", `{"passed":2,"failed":0,"checks":[{"id":"1","status":"pass"}]}`, true},
		{"unknown status", `{"passed":1,"checks":[{"id":"1","status":"PASS"}]}`, true},
		{"duplicate id", `{"passed":2,"checks":[{"id":"1","status":"pass"},{"id":"1","status":"pass"}]}`, true},
		{"old shape with numeric ids", `{"passed":1,"failed":0,"checks":[{"id":1,"passed":true}]}`, true},
		{"no checks", `{"passed":0,"checks":[]}`, true},
		{"truncated", `{"passed":1,"checks":[{"id":"1"`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeRun(strings.NewReader(tt.json))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if err != nil && !errors.Is(err, ErrBadRun) {
				t.Errorf("err %v is not ErrBadRun", err)
			}
		})
	}
}

func TestCompareIDs(t *testing.T) {
	ids := []string{"10", "8.1", "2", "x", "8", "1", "9", "8.10", "8.2"}
	want := []string{"1", "2", "8", "8.1", "8.2", "8.10", "9", "10", "x"}
	got := append([]string(nil), ids...)
	for i := 1; i < len(got); i++ {
		for j := i; j > 0 && CompareIDs(got[j-1], got[j]) > 0; j-- {
			got[j-1], got[j] = got[j], got[j-1]
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
}

func TestMain(m *testing.M) { os.Exit(m.Run()) }

// "see README" is filled when the learner's folder holds a README, and
// blank when it does not.
func TestSeeReadme(t *testing.T) {
	text := fill("see README", "stdio", "pending")
	for _, tt := range []struct {
		readme bool
		want   State
	}{{true, Consistent}, {false, Incomplete}} {
		dir := t.TempDir()
		if tt.readme {
			if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("8/8 passed\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		path := filepath.Join(dir, "COMPLETION.md")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		v, err := CheckFile(path, runWith())
		if err != nil || v.State != tt.want {
			t.Errorf("README in the folder %v: %+v, %v; want %s", tt.readme, v, err, tt.want)
		}
	}
}
