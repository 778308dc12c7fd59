//go:build live

package acceptance_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"practice-notes/tests/acceptance/checks"
	"practice-notes/tests/acceptance/harness"
)

// TestLearnerServers grades learner servers in Python (standard library),
// Go (official SDK, started with `go run .`) and Node.js (official
// TypeScript SDK, also through npx, and none): the correct ones must pass, each
// defective one must fail or warn on the check its defect belongs to. The
// runs are independent, so they run several at a time.
func TestLearnerServers(t *testing.T) {
	home, _ := os.UserHomeDir()

	type outcome struct {
		rep *harness.Report
		err error
	}
	results := make([]outcome, len(learners))
	sem := make(chan struct{}, 4)
	var wg sync.WaitGroup
	for i, l := range learners {
		server := learnerServer(t, l)
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
			if res.err != nil {
				t.Fatal(res.err)
			}
			rep := res.rep
			var out bytes.Buffer
			rep.WriteText(&out)
			checkContract(t, rep)
			quirks := families[l.family].quirks
			var warned []string
			for _, id := range rep.IDs(checks.StatusWarn) {
				if !slices.Contains(quirks, id) || slices.Contains(l.warn, id) {
					warned = append(warned, id)
				}
			}
			if diff := cmp.Diff(l.fail, rep.IDs(checks.StatusFail), cmpEmpty); diff != "" {
				t.Errorf("failed checks (-want +got):\n%s\n%s", diff, out.String())
			}
			if diff := cmp.Diff(l.warn, warned, cmpEmpty); diff != "" {
				t.Errorf("warned checks besides the family's quirks %v (-want +got):\n%s\n%s", quirks, diff, out.String())
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

// learnerServer returns the command line that starts l, as an instructor
// would start it; runtimes missing from PATH fail the test.
func learnerServer(t *testing.T, l learner) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	fam := families[l.family]
	path := filepath.Join(wd, "testdata", filepath.FromSlash(fam.path))
	root := fam.root
	if root == "" {
		root = "--root {root}"
		if fam.lang == "go" {
			root = "-root {root}"
		}
	}
	args := root + " " + l.args
	switch fam.lang {
	case "python":
		return need(t, "python3") + " " + path + " " + args
	case "go":
		goBin := need(t, "go")
		goPrepare(t, goBin, path)
		return "cd " + path + " && " + goBin + " run . " + args
	case "js":
		return need(t, "node") + " " + path + " " + args
	case "node", "npx":
		node, nodeDeps := nodeDemo(t)
		script := node + " " + filepath.Join(nodeDeps, fam.path) + " " + args
		if fam.lang == "npx" {
			return need(t, "npx") + " --prefix " + nodeDeps + " -c '" + script + "'"
		}
		return script
	}
	t.Fatalf("learner %q: family %q has no language the matrix starts", l.name, l.family)
	return ""
}

// TestServerChildrenAreKilled starts servers that leave a background
// process behind: it must be gone after the run, through the process group
// always, and through the PID namespace even when it left the group.
func TestServerChildrenAreKilled(t *testing.T) {
	python := need(t, "python3")
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	server := python + " " + filepath.Join(wd, "testdata", "learners", "python", "server.py") + " --root {root}"
	tests := []struct {
		name, spawn, isolation string
		needNamespaces         bool
	}{
		{"child in the group, isolation off", "sleep 291.25 &", "off", false},
		{"child in the group, isolated", "sleep 292.25 &", "auto", false},
		{"child in a new session, isolated", "setsid sleep 293.25 &", "auto", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			need(t, strings.Fields(tt.spawn)[0])
			rep, err := harness.Run(context.Background(), harness.Config{
				Server:       tt.spawn + " exec " + server,
				PracticeData: testPracticeData,
				ExitTimeout:  2 * time.Second,
				Isolation:    tt.isolation,
			})
			if err != nil {
				t.Fatal(err)
			}
			if tt.needNamespaces && !strings.HasPrefix(rep.Isolation, "process group;") {
				t.Skip("SKIP: private namespaces are not available here: " + rep.Isolation)
			}
			if rep.Failed != 0 {
				t.Errorf("failed %v", rep.IDs(checks.StatusFail))
			}
			arg := strings.Fields(tt.spawn)[len(strings.Fields(tt.spawn))-2]
			deadline := time.Now().Add(5 * time.Second)
			for {
				left := processesWithArg(arg)
				if len(left) == 0 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("processes the server started are still running after the run: pids %v", left)
				}
				time.Sleep(100 * time.Millisecond)
			}
		})
	}
}

// processesWithArg lists the pids whose command line holds arg (Linux).
func processesWithArg(arg string) []string {
	entries, _ := os.ReadDir("/proc")
	var pids []string
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		for _, a := range strings.Split(string(b), "\x00") {
			if a == arg {
				pids = append(pids, e.Name())
			}
		}
	}
	return pids
}

// goReady lists the learner folders prepared by goPrepare.
var goReady sync.Map

// goPrepare readies a learner started with `go run`: it downloads the
// modules of a learner that is a module of its own (mcp-go's), since the
// server runs without network, and builds it once, so that `go run` in the
// sandbox starts from the grader's build cache rather than compiling a
// whole SDK inside the 30 s start limit of every run. A failure fails the
// test.
func goPrepare(t *testing.T, goBin, dir string) {
	t.Helper()
	if _, done := goReady.Load(dir); done {
		return
	}
	steps := [][]string{{"build", "-o", os.DevNull, "."}}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
		steps = append([][]string{{"mod", "download"}}, steps...)
	}
	for _, args := range steps {
		cmd := exec.Command(goBin, args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s in %s: %v: %s", strings.Join(args, " "), dir, err, strings.TrimSpace(string(out)))
		}
	}
	goReady.Store(dir, true)
}

// need finds a program the live matrix needs on PATH. Without it the test
// fails: the matrix never skips a server because its runtime is missing.
func need(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Fatalf("%s is not on PATH, and the live matrix needs it: install it (go test ./... without -tags live needs only Go)", name)
	}
	return p
}
