package acceptance_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"practice-notes/tests/acceptance/harness"
)

// learner is one learner-style server the harness must grade right: a
// correct one (want "") passes with 0 failed; a defective one gets status
// want on check id.
type learner struct {
	name   string
	lang   string // python, go, node
	args   string // appended to the language's command
	id     string
	want   string // harness.StatusFail or harness.StatusWarn; "" for correct
	config func(*harness.Config)
	// homeFile must not appear in the grader's own home folder.
	homeFile string
}

var learners = []learner{
	// Correct servers in the styles instructors meet: text only, no
	// outputSchema, protocol 2024-11-05 only, slow calls, no annotations,
	// chatty stderr echoing the query, pretty-printed JSON text, one
	// content block per passage, `go run .` and npx.
	{name: "python text, 300 ms per call", lang: "python", args: "--style text --delay 0.3"},
	{name: "python pretty-printed JSON text", lang: "python", args: "--style pretty"},
	{name: "python one block per passage", lang: "python", args: "--style blocks"},
	{name: "go run, one block per passage", lang: "go"},
	{name: "go run, isolation off", lang: "go", config: func(c *harness.Config) { c.Isolation = "off" }},
	{name: "node chatty pretty-printed JSON", lang: "node", args: "--chatty --style pretty"},
	{name: "node chatty one block per passage", lang: "node", args: "--chatty --style blocks"},
	{name: "npx -c node", lang: "npx", args: "--chatty"},

	// One defect each, caught by the check it belongs to.
	{name: "python case-sensitive", lang: "python", args: "--defect case-sensitive", id: "9", want: harness.StatusFail},
	{name: "go case-sensitive", lang: "go", args: "-defect case-sensitive", id: "9", want: harness.StatusFail},
	{name: "python regex", lang: "python", args: "--defect regex", id: "11", want: harness.StatusFail},
	{name: "node regex", lang: "node", args: "--defect regex", id: "11", want: harness.StatusFail},
	{name: "python empty query matches everything", lang: "python", args: "--defect empty-matches-all", id: "12", want: harness.StatusFail},
	{name: "python honours a root argument", lang: "python", args: "--defect root-arg", id: "13", want: harness.StatusFail},
	{name: "python offers a write tool", lang: "python", args: "--defect write-tool", id: "14", want: harness.StatusFail},
	{name: "node offers a write tool", lang: "node", args: "--defect write-tool", id: "14", want: harness.StatusFail},
	{name: "python readOnlyHint false", lang: "python", args: "--defect readonly-false", id: "14", want: harness.StatusWarn},
	{name: "node readOnlyHint false", lang: "node", args: "--defect readonly-false", id: "14", want: harness.StatusWarn},
	{name: "python random order", lang: "python", args: "--defect nondeterministic", id: "15", want: harness.StatusFail},
	{name: "go map order", lang: "go", args: "-defect map-order", id: "15", want: harness.StatusFail},
	{name: "python writes into HOME", lang: "python", args: "--defect write-home", id: "16", want: harness.StatusFail, homeFile: ".practice_notes_history"},
	{name: "go writes into HOME, isolation off", lang: "go", args: "-defect write-home", id: "16", want: harness.StatusFail, homeFile: ".go-notes-history",
		config: func(c *harness.Config) { c.Isolation = "off" }},
	{name: "python writes into TMPDIR", lang: "python", args: "--defect write-tmp", id: "16", want: harness.StatusFail},
	{name: "python startswith without separator", lang: "python", args: "--defect startswith-root", id: "17", want: harness.StatusFail},
	{name: "go HasPrefix without separator", lang: "go", args: "-defect startswith-root", id: "17", want: harness.StatusFail},
	{name: "python walks into linked directories", lang: "python", args: "--defect linked-dir", id: "18", want: harness.StatusFail},
	{name: "python resolves links one level", lang: "python", args: "--defect one-level-links", id: "18", want: harness.StatusFail},
	{name: "python reads hard links", lang: "python", args: "--defect hardlink", id: "19", want: harness.StatusWarn},
	{name: "python hangs on a FIFO", lang: "python", args: "--defect fifo", id: "20", want: harness.StatusFail},
	{name: "python opens a directory named x.md", lang: "python", args: "--defect dir-md", id: "20", want: harness.StatusFail},
	{name: "python trips on a dangling link", lang: "python", args: "--defect dangling", id: "20", want: harness.StatusFail},
	{name: "python trips on a binary file", lang: "python", args: "--defect binary", id: "20", want: harness.StatusFail},
	{name: "python expands include directives", lang: "python", args: "--defect include", id: "21", want: harness.StatusFail},
	{name: "python sloppy protocol", lang: "python", args: "--defect protocol-sloppy", id: "8.5", want: harness.StatusWarn},
}

// TestLearnerServers grades learner servers in Python (standard library),
// Go (official SDK, started with `go run .`) and Node.js (official
// TypeScript SDK, also through npx): the correct ones must pass, each
// defective one must fail or warn on the check its defect belongs to. The
// runs are independent, so they run several at a time.
func TestLearnerServers(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIP: -short: the learner servers take about a minute to grade")
	}
	python, pyErr := exec.LookPath("python3")
	goBin, goErr := exec.LookPath("go")
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	var node, nodeDeps string
	nodeReady := t.Run("node dependencies", func(t *testing.T) { node, nodeDeps = nodeDemo(t) }) && node != ""
	home, _ := os.UserHomeDir()

	type outcome struct {
		rep  *harness.Report
		err  error
		skip string
	}
	results := make([]outcome, len(learners))
	sem := make(chan struct{}, 4)
	var wg sync.WaitGroup
	for i, l := range learners {
		var server string
		switch l.lang {
		case "python":
			if pyErr != nil {
				results[i].skip = "python3 is not on PATH"
				continue
			}
			server = python + " " + filepath.Join(wd, "testdata", "learners", "python", "server.py") + " --root {root} " + l.args
		case "go":
			if goErr != nil {
				results[i].skip = "go is not on PATH"
				continue
			}
			server = "cd " + filepath.Join(wd, "testdata", "learners", "go") + " && " + goBin + " run . -root {root} " + l.args
		case "node", "npx":
			if !nodeReady {
				results[i].skip = "the Node.js dependencies are not installed (see the \"node dependencies\" subtest)"
				continue
			}
			script := node + " " + filepath.Join(nodeDeps, "server.mjs") + " --root {root} " + l.args
			server = script
			if l.lang == "npx" {
				npx, err := exec.LookPath("npx")
				if err != nil {
					results[i].skip = "npx is not on PATH"
					continue
				}
				server = npx + " --prefix " + nodeDeps + " -c '" + script + "'"
			}
		}
		cfg := harness.Config{
			Server:       server,
			PracticeData: testPracticeData,
			Timeout:      10 * time.Second,
			ExitTimeout:  2 * time.Second,
		}
		if l.config != nil {
			l.config(&cfg)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			results[i].rep, results[i].err = harness.Run(ctx, cfg)
		}()
	}
	wg.Wait()

	for i, l := range learners {
		t.Run(l.name, func(t *testing.T) {
			res := results[i]
			if res.skip != "" {
				t.Skip("SKIP: " + res.skip)
			}
			if res.err != nil {
				t.Fatal(res.err)
			}
			rep := res.rep
			var out bytes.Buffer
			rep.WriteText(&out)
			checkContract(t, rep)
			if l.want == "" {
				if rep.Failed != 0 {
					t.Errorf("a correct server failed %v\n%s", rep.IDs(harness.StatusFail), out.String())
				}
			} else {
				got := ""
				for _, c := range rep.Checks {
					if c.ID == l.id {
						got = c.Status
					}
				}
				if got != l.want {
					t.Errorf("check %s is %q, want %q\n%s", l.id, got, l.want, out.String())
				}
			}
			if l.want == harness.StatusWarn && l.lang == "python" && rep.Failed != 0 {
				t.Errorf("a defect the specification does not forbid failed %v\n%s", rep.IDs(harness.StatusFail), out.String())
			}
			if l.homeFile != "" && home != "" {
				if _, err := os.Stat(filepath.Join(home, l.homeFile)); !os.IsNotExist(err) {
					t.Errorf("the server's write reached the grader's own home folder: %s exists", filepath.Join(home, l.homeFile))
				}
			}
			if strings.Contains(l.name, "isolation off") && !strings.HasPrefix(rep.Isolation, "process group only") {
				t.Errorf("isolation off, but the report says %q", rep.Isolation)
			}
		})
	}
}
