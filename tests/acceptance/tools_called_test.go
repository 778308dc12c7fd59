package acceptance_test

import (
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"practice-notes/tests/acceptance/checks"
	"practice-notes/tests/acceptance/harness"
)

// receivedRe reads the many-tools server's record of a call in its reply:
// the tool and the folder of the HOME of the process that received it.
var receivedRe = regexp.MustCompile(`(\w+) call received by (process-\S+?):`)

// TestToolsThatChangeAreNeverCalled grades testdata/servers/many-tools,
// whose tools change the notes (named and described so, unannotated or
// annotated falsely as read-only) beside a read_note that reads and a
// note_outline that is annotated and described as reading and writes
// into the root. Only the two that say nothing of changing are called,
// only in the process of other tools; the fixtures the search checks
// judge are untouched; and what note_outline wrote, where it could,
// is charged to check 7 as written in that process's own copy.
//
// It runs twice: in the sandbox and with isolation off; in both the
// fixtures are the server's to write, as its copy is.
func TestToolsThatChangeAreNeverCalled(t *testing.T) {
	t.Parallel()
	bin := buildServer(t, "many-tools", "./testdata/servers/many-tools")
	for _, isolation := range []string{"auto", "off"} {
		t.Run("isolation "+isolation, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			rep, err := harness.Run(ctx, harness.Config{
				Server:       bin + " serve -root {root}",
				ServerDir:    binDir,
				PracticeData: testPracticeData,
				ExitTimeout:  2 * time.Second,
				Isolation:    isolation,
			})
			if err != nil {
				t.Fatal(err)
			}
			if !checkToolsCalled(t, rep) {
				t.Errorf("note_outline did not write into its copy of the root")
			}
		})
	}
}

// checkToolsCalled asserts what TestToolsThatChangeAreNeverCalled says of
// one run, and reports whether note_outline wrote into its copy.
func checkToolsCalled(t *testing.T, rep *harness.Report) (wrote bool) {
	t.Helper()
	checkContract(t, rep)
	declared := map[string]bool{}
	for _, name := range rep.Tools {
		declared[name] = true
	}
	called := map[string][]string{} // tool → the processes that received it
	for _, c := range rep.Checks {
		for _, ex := range c.Exchanges {
			name := calledTool(ex)
			if !declared[name] || name == "search_notes" {
				continue
			}
			m := receivedRe.FindStringSubmatch(ex.Decoded)
			if m == nil || m[1] != name {
				t.Errorf("check %s called %s, and the reply does not say which process received it: %s", c.ID, name, ex.Decoded)
				continue
			}
			called[name] = appendNew(called[name], m[2])
			wrote = wrote || strings.Contains(ex.Decoded, "outline-cache.json written: true")
		}
	}
	var names []string
	for name, procs := range called {
		names = append(names, name)
		for _, p := range procs {
			if !strings.Contains(p, "-other-tools-") {
				t.Errorf("%s was called in %s, a process of the search checks", name, p)
			}
		}
	}
	slices.Sort(names)
	if diff := cmp.Diff([]string{"note_outline", "read_note"}, names); diff != "" {
		t.Errorf("tools called besides search_notes (-want +got):\n%s", diff)
	}
	status := map[string]*harness.CheckResult{}
	for _, c := range rep.Checks {
		status[c.ID] = c
	}
	for _, id := range []string{"1", "2", "3", "4", "5", "6", "9", "20", "21"} {
		if c := status[id]; c.Status != checks.StatusPass {
			t.Errorf("check %s is %s, want PASS: %s", id, c.Status, c.Evidence)
		}
	}
	// The fixtures the search checks judged: nothing of them changed.
	c7 := status["7"]
	for _, f := range c7.Failures {
		if !strings.HasPrefix(f, "in the process of other tools (on a fresh copy of the fixtures): ") {
			t.Errorf("check 7 found a change outside the process of other tools: %s", f)
		}
	}
	// What note_outline wrote into its copy.
	if want := "in the process of other tools (on a fresh copy of the fixtures): created root/outline-cache.json (file)"; wrote != slices.Contains(c7.Failures, want) {
		t.Errorf("note_outline wrote into its copy: %t; check 7's failures %q, want %q among them just then", wrote, c7.Failures, want)
	}
	c14 := status["14"]
	for _, name := range []string{"regex_search_and_replace", "export_notes", "switch_vault"} {
		if !slices.ContainsFunc(c14.Failures, func(f string) bool { return strings.Contains(f, `"`+name+`"`) }) {
			t.Errorf("check 14 does not fail %s: failures %q", name, c14.Failures)
		}
	}
	if !slices.ContainsFunc(c14.Warnings, func(f string) bool { return strings.Contains(f, `"tidy_note"`) && strings.Contains(f, "did not call") }) {
		t.Errorf("check 14 does not list tidy_note as not called: warnings %q", c14.Warnings)
	}
	return wrote
}

// calledTool names the tool of a tools/call exchange, "" for another.
func calledTool(ex *checks.Exchange) string {
	if ex.Method != "tools/call" {
		return ""
	}
	var req struct {
		Name   string `json:"name"`
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	if json.Unmarshal([]byte(ex.Request), &req) != nil {
		return ""
	}
	return req.Name + req.Params.Name
}

func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}
