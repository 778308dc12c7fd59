//go:build live

package acceptance_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"practice-notes/tests/acceptance/checks"
	"practice-notes/tests/acceptance/harness"
)

// TestGeneratedPhaseRules grades a correct server that misbehaves only
// in the generated phase's process (testdata/hostile/generated.sh): the
// run-wide rules see that process as every other one and charge its
// fault once, to the check that owns the rule, and a hang there waits
// out the limit once.
func TestGeneratedPhaseRules(t *testing.T) {
	python := need(t, "python3")
	tests := []struct {
		mode string
		fail string   // the one check that fails
		want []string // what its evidence says
	}{
		{"stdout", "8", []string{`stdout carried 1 non-JSON-RPC line(s) in the generated phase's process; the first: non-JSON-RPC stdout line: "generated phase: searching generated"`}},
		{"hang", "1", []string{"generated case (seed 1), query ", ": got no answer: no answer within 10s", "not sent: the ", " searches of the phase after it",
			"; meanwhile the server used 0 ms of CPU, asleep at the limit"}},
		// Busy for the whole limit: most of 10 s of CPU, even on a loaded
		// machine more than one second.
		{"spin", "1", []string{": got no answer: no answer within 10s", "; meanwhile the server used ", " ms of CPU, running at the limit"}},
		{"leak", "4", []string{"text of ../outside.md, outside the root appeared in stderr of the generated phase's process"}},
	}
	reports := make([]*harness.Report, len(tests))
	errs := make([]error, len(tests))
	var wg sync.WaitGroup
	for i, tt := range tests {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			reports[i], errs[i] = harness.Run(ctx, harness.Config{
				Server:       "PATH=" + filepath.Dir(python) + ":$PATH sh " + filepath.Join("testdata", "hostile", "generated.sh") + " {root} " + tt.mode,
				PracticeData: testPracticeData, Seed: 1,
				Timeout: 10 * time.Second, ExitTimeout: 2 * time.Second,
			})
		}()
	}
	wg.Wait()
	for i, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			if errs[i] != nil {
				t.Fatal(errs[i])
			}
			rep := reports[i]
			var out bytes.Buffer
			rep.WriteText(&out)
			if failed := rep.IDs(checks.StatusFail); !slices.Equal(failed, []string{tt.fail}) {
				t.Errorf("failed checks %v, want [%s]\n%s", failed, tt.fail, out.String())
			}
			ev := check(rep, tt.fail).Evidence
			for _, w := range tt.want {
				if !strings.Contains(ev, w) {
					t.Errorf("check %s's evidence does not say %q:\n%s", tt.fail, w, ev)
				}
			}
			// What the seeded tests grade again (gradeSeed) is what a hang
			// leaves, and only that.
			if got, hangs := unanswered(rep), tt.mode == "hang" || tt.mode == "spin"; (got != "") != hangs {
				t.Errorf("unanswered(report) = %q, want a call named: %v", got, hangs)
			}
			for _, u := range rep.Unanswered {
				if u.Phase == "" || u.Method == "" || !strings.Contains(u.Error, "no answer within ") || !strings.Contains(ev, u.Error) {
					t.Errorf("unanswered call %+v: want the generated phase's, with the timeout's words as the evidence has them", u)
				}
			}
			if tt.mode == "spin" {
				if m := regexp.MustCompile(`used (\d+) ms of CPU`).FindStringSubmatch(ev); m == nil {
					t.Errorf("no CPU time in the evidence:\n%s", ev)
				} else if ms, _ := strconv.Atoi(m[1]); ms < 1000 {
					t.Errorf("a server busy through the limit used %d ms of CPU, want over 1000", ms)
				}
				// Where the kernel keeps run delays, the line says how long
				// the server waited for a CPU.
				if _, err := os.Stat("/proc/self/schedstat"); err == nil && !regexp.MustCompile(`running at the limit \(its threads had waited \d+ ms in all for a CPU\)`).MatchString(ev) {
					t.Errorf("no time queued for a CPU in the evidence:\n%s", ev)
				}
			}
			// One fault, one finding: no other check is charged with it.
			if n := strings.Count(out.String(), "generated phase's process"); tt.mode != "hang" && tt.mode != "spin" && n != 2 {
				t.Errorf("the report names the generated phase's process %d times, want 2 (the summary and the finding):\n%s", n, out.String())
			}
		})
	}
}
