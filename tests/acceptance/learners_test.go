package acceptance_test

import (
	"bytes"
	"context"
	"fmt"
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

// learner is one learner-style server the harness must grade right: a
// correct one (no fail, no warn listed) passes with 0 failed; a defective
// one fails exactly the checks in fail and warns exactly on those in
// warn, besides the warnings its family always gets (quirks).
type learner struct {
	name   string
	family string // a key of families
	args   string // appended to the family's command
	fail   []string
	warn   []string
	config func(*harness.Config)
	// homeFile must not appear in the grader's own home folder.
	homeFile string
	// hidesHard is set for a defect that keeps the server from reaching
	// the hard-case notes, so its family's hardFail does not show.
	hidesHard bool
}

// family is one server program and the warnings it gets even when
// correct, because its SDK behaves so (the official TypeScript SDK answers
// an unknown tool with isError and a bad line with nothing; the Go SDK
// ends the session on a line that is not JSON).
//
// hardFail lists the checks a family fails on the hard-case notes
// (truth.HardCases) because of how its program reads text: the Go
// learners drop the CR of every CRLF line, so a CRLF paragraph comes back
// without its CRs (check 1). Lowercasing instead of folding (ς and σ stay
// apart) warns under check 10, a quirk of the Go and Node learners.
type family struct {
	lang     string // python, go, node, npx
	path     string // the script, or the folder for go run
	quirks   []string
	hardFail []string
}

var families = map[string]family{
	"python":     {lang: "python", path: "learners/python/server.py"},
	"pyclass":    {lang: "python", path: "learners/pyclass/server.py"},
	"go":         {lang: "go", path: "learners/go", quirks: []string{"8.5", "10"}, hardFail: []string{"1"}},
	"gotyped":    {lang: "go", path: "learners/gotyped", quirks: []string{"8.5", "10"}, hardFail: []string{"1"}},
	"mcpgo":      {lang: "go", path: "learners/mcpgo", quirks: []string{"10"}, hardFail: []string{"1"}},
	"node":       {lang: "node", path: "server.mjs", quirks: []string{"8.4", "8.5", "10", "13"}},
	"npx":        {lang: "npx", path: "server.mjs", quirks: []string{"8.4", "8.5", "10", "13"}},
	"node-text":  {lang: "node", path: "text-server.mjs", quirks: []string{"8.4", "8.5", "10"}},
	"node-typed": {lang: "node", path: "structured-server.mjs", quirks: []string{"8.4", "8.5", "10"}},
}

// ids lists check ids, for the tables below.
func ids(list ...string) []string { return list }

// union returns the ids in a or b, in the report's order.
func union(a, b []string) []string {
	var out []string
	for _, c := range checks.All() {
		if slices.Contains(a, c.ID) || slices.Contains(b, c.ID) {
			out = append(out, c.ID)
		}
	}
	return out
}

var learners = []learner{
	// Correct servers in the styles instructors meet: text only, no
	// outputSchema, protocol 2024-11-05 only, slow calls, no annotations,
	// chatty stderr echoing the query, pretty-printed JSON text, one
	// content block per passage, JSON text and structuredContent of their
	// own shapes, `go run .` on the official Go SDK and on mcp-go, and npx.
	{name: "python text, 300 ms per call", family: "python", args: "--style text --delay 0.3"},
	{name: "python pretty-printed JSON text", family: "python", args: "--style pretty"},
	{name: "python one block per passage", family: "python", args: "--style blocks"},
	{name: "python class, JSON text and structuredContent", family: "pyclass"},
	{name: "go run, one block per passage", family: "go"},
	{name: "go run, isolation off", family: "go", config: func(c *harness.Config) { c.Isolation = "off" }},
	{name: "go run, typed output of its own shape", family: "gotyped"},
	{name: "go run on mcp-go, plain text", family: "mcpgo"},
	{name: "node chatty pretty-printed JSON", family: "node", args: "--chatty --style pretty"},
	{name: "node chatty one block per passage", family: "node", args: "--chatty --style blocks"},
	{name: "node registerTool and zod, plain text", family: "node-text"},
	{name: "node structuredContent of its own shape", family: "node-typed"},
	{name: "npx -c node", family: "npx", args: "--chatty"},

	// One defect each, caught by the checks whose rules it breaks. Where a
	// defect trips the server on a trap, its error message names the
	// note by absolute path, which check 22 warns about; a link followed
	// to a missing target breaks check 20's rule too.
	{name: "python case-sensitive", family: "python", args: "--defect case-sensitive", fail: ids("9"), warn: ids("10")},
	{name: "go case-sensitive", family: "go", args: "-defect case-sensitive", fail: ids("9"), warn: ids("10")},
	{name: "python regex", family: "python", args: "--defect regex", fail: ids("11")},
	{name: "node regex", family: "node", args: "--defect regex", fail: ids("11")},
	{name: "python empty query matches everything", family: "python", args: "--defect empty-matches-all", fail: ids("12")},
	{name: "python honours a root argument", family: "python", args: "--defect root-arg", fail: ids("13")},
	{name: "python offers a write tool", family: "python", args: "--defect write-tool", fail: ids("14")},
	{name: "node offers a write tool", family: "node", args: "--defect write-tool", fail: ids("14")},
	{name: "python readOnlyHint false", family: "python", args: "--defect readonly-false", warn: ids("14")},
	{name: "node readOnlyHint false", family: "node", args: "--defect readonly-false", warn: ids("14")},
	{name: "python random order", family: "python", args: "--defect nondeterministic", fail: ids("15")},
	{name: "go map order", family: "go", args: "-defect map-order", fail: ids("15")},
	{name: "python writes into HOME", family: "python", args: "--defect write-home", fail: ids("16"), homeFile: ".practice_notes_history"},
	{name: "go writes into HOME, isolation off", family: "go", args: "-defect write-home", fail: ids("16"), homeFile: ".go-notes-history",
		config: func(c *harness.Config) { c.Isolation = "off" }},
	{name: "python writes into TMPDIR", family: "python", args: "--defect write-tmp", fail: ids("16")},
	{name: "python startswith without separator", family: "python", args: "--defect startswith-root", fail: ids("17", "20"), warn: ids("22")},
	{name: "go HasPrefix without separator", family: "go", args: "-defect startswith-root", fail: ids("17")},
	{name: "python walks into linked directories", family: "python", args: "--defect linked-dir", fail: ids("17", "18")},
	{name: "python resolves links one level", family: "python", args: "--defect one-level-links", fail: ids("18", "20"), warn: ids("22")},
	{name: "python reads hard links", family: "python", args: "--defect hardlink", warn: ids("19")},
	{name: "python hangs on a FIFO", family: "python", args: "--defect fifo", fail: ids("20", "22")},
	{name: "python opens a directory named x.md", family: "python", args: "--defect dir-md", fail: ids("20", "22"), warn: ids("19")},
	{name: "python trips on a dangling link", family: "python", args: "--defect dangling", fail: ids("20"), warn: ids("22")},
	{name: "python trips on a binary file", family: "python", args: "--defect binary", fail: ids("20")},
	{name: "python expands include directives", family: "python", args: "--defect include", fail: ids("21")},
	{name: "python sloppy protocol", family: "python", args: "--defect protocol-sloppy", warn: ids("8.3", "8.4", "8.5", "8.7")},

	// Check 1 takes the whole paragraph, byte for byte, and its note ID.
	{name: "node text, first line only", family: "node-text", args: "--defect first-line", fail: ids("1")},
	{name: "node text, first words and ...", family: "node-text", args: "--defect ellipsis", fail: ids("1")},
	{name: "node text, lower-cased passage", family: "node-text", args: "--defect lowercase", fail: ids("1")},
	{name: "node text, no note ID", family: "node-text", args: "--defect no-note-id", fail: ids("1")},
	{name: "node typed, snippet cut with …", family: "node-typed", args: "--defect snippet", fail: ids("1")},
	{name: "node typed, the whole file", family: "node-typed", args: "--defect whole-file", fail: ids("1")},
	{name: "python class, the whole file", family: "pyclass", args: "--defect whole-file", fail: ids("1")},
	{name: "python class, first words and ...", family: "pyclass", args: "--defect ellipsis", fail: ids("1")},
	{name: "go typed, first line only", family: "gotyped", args: "-defect first-line", fail: ids("1")},
	{name: "go typed, lower-cased passage", family: "gotyped", args: "-defect lowercase", fail: ids("1")},
	// Check 2 wants a statement that nothing matched.
	{name: "node text, only \"files were not searched\"", family: "node-text", args: "--defect not-searched-message", fail: ids("2")},
	{name: "python class, only \"files were not searched\"", family: "pyclass", args: "--defect not-searched-message", fail: ids("2")},
	// Check 3: nested notes.
	{name: "mcp-go, root folder only", family: "mcpgo", args: "-defect not-recursive", fail: ids("3"), hidesHard: true},
	// Paths through a second read-only tool, links named as results,
	// outside text and outside paths.
	{name: "node text, read_note(path) follows links and ../", family: "node-text", args: "--defect read-note-tool", fail: ids("4", "5", "17", "18"), warn: ids("14", "19")},
	{name: "python class, read_note(path) follows links and ../", family: "pyclass", args: "--defect read-note-tool", fail: ids("4", "5", "17", "18"), warn: ids("14", "19")},
	{name: "node typed, list_notes(dir) lists the folder above", family: "node-typed", args: "--defect list-notes-tool", fail: ids("4", "13"), warn: ids("14", "22")},
	{name: "node typed, link names as matches", family: "node-typed", args: "--defect filename-match", fail: ids("5", "17", "18")},
	{name: "node typed, absolute link targets in notes", family: "node-typed", args: "--defect abs-link-paths", fail: ids("5", "17", "18"), warn: ids("22")},
	{name: "mcp-go, follows links", family: "mcpgo", args: "-defect outside-text", fail: ids("5", "17", "18")},
	{name: "go typed, follows links", family: "gotyped", args: "-defect follows-links", fail: ids("5", "17", "18")},
	{name: "python class, absolute paths of notes", family: "pyclass", args: "--defect abs-paths", warn: ids("22")},
	// Limits: bytes, not characters; ten in all, not per file.
	{name: "node text, file limit in characters", family: "node-text", args: "--defect char-limit", fail: ids("6")},
	{name: "python class, file limit in characters", family: "pyclass", args: "--defect char-limit", fail: ids("6")},
	{name: "node typed, ten per file", family: "node-typed", args: "--defect per-file-limit", fail: ids("6")},
	{name: "node typed, truncated: false when cut", family: "node-typed", args: "--defect truncated-false", fail: ids("6")},
	{name: "go typed, no result limit", family: "gotyped", args: "-defect no-result-limit", fail: ids("6")},
	// Checks 9-12.
	{name: "mcp-go, ASCII-only case folding", family: "mcpgo", args: "-defect ascii-fold", warn: ids("10")},
	{name: "node text, * lists every note", family: "node-text", args: "--defect star-lists-all", fail: ids("11")},
	{name: "python class, * lists every note", family: "pyclass", args: "--defect star-lists-all", fail: ids("11")},
	{name: "mcp-go, empty query lists every note", family: "mcpgo", args: "-defect empty-lists-all", fail: ids("12")},
	// Protocol basics.
	{name: "python class, string ids answered with a number", family: "pyclass", args: "--defect numeric-ids", warn: ids("8.2")},
	{name: "python class, one protocol revision for all", family: "pyclass", args: "--defect fixed-version", warn: ids("8.6")},
	{name: "python class, no ping", family: "pyclass", args: "--defect no-ping", warn: ids("8.1")},
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
		fam := families[l.family]
		path := filepath.Join(wd, "testdata", filepath.FromSlash(fam.path))
		switch fam.lang {
		case "python":
			if pyErr != nil {
				results[i].skip = "python3 is not on PATH"
				continue
			}
			server = python + " " + path + " --root {root} " + l.args
		case "go":
			if goErr != nil {
				results[i].skip = "go is not on PATH"
				continue
			}
			if why := goModules(t, goBin, path); why != "" {
				results[i].skip = why
				continue
			}
			server = "cd " + path + " && " + goBin + " run . -root {root} " + l.args
		case "node", "npx":
			if !nodeReady {
				results[i].skip = "the Node.js dependencies are not installed (see the \"node dependencies\" subtest)"
				continue
			}
			script := node + " " + filepath.Join(nodeDeps, fam.path) + " --root {root} " + l.args
			server = script
			if fam.lang == "npx" {
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
			quirks := families[l.family].quirks
			var warned []string
			for _, id := range rep.IDs(harness.StatusWarn) {
				if !slices.Contains(quirks, id) || slices.Contains(l.warn, id) {
					warned = append(warned, id)
				}
			}
			wantFail := l.fail
			if !l.hidesHard {
				wantFail = union(l.fail, families[l.family].hardFail)
			}
			if diff := cmp.Diff(wantFail, rep.IDs(harness.StatusFail), cmpEmpty); diff != "" {
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

// TestServerChildrenAreKilled starts servers that leave a background
// process behind: it must be gone after the run, through the process group
// always, and through the PID namespace even when it left the group.
func TestServerChildrenAreKilled(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("SKIP: python3 is not on PATH, so the Python learner server cannot run")
	}
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
			if _, err := exec.LookPath(strings.Fields(tt.spawn)[0]); err != nil {
				t.Skipf("SKIP: %s is not on PATH", strings.Fields(tt.spawn)[0])
			}
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
				t.Errorf("failed %v", rep.IDs(harness.StatusFail))
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

// cmpEmpty treats a nil and an empty list alike.
var cmpEmpty = cmp.Transformer("empty", func(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
})

var (
	goModOnce sync.Map // folder -> the reason it cannot run, or ""
)

// goModules downloads the modules of a learner that is a module of its
// own (mcp-go's) before grading: the server runs without network. It
// returns why the learner cannot run, or "". Under CI=true a download
// that fails fails the test instead.
func goModules(t *testing.T, goBin, dir string) string {
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		return "" // part of this module, already downloaded
	}
	if why, ok := goModOnce.Load(dir); ok {
		return why.(string)
	}
	cmd := exec.Command(goBin, "mod", "download")
	cmd.Dir = dir
	why := ""
	if out, err := cmd.CombinedOutput(); err != nil {
		why = fmt.Sprintf("go mod download in %s: %v: %s", dir, err, strings.TrimSpace(string(out)))
		if os.Getenv("CI") == "true" {
			t.Errorf("%s", why)
		}
	}
	goModOnce.Store(dir, why)
	return why
}

// TestCatalogHasProof holds every check to proof both ways: at least one
// server in the tables above breaks its rule (the runs assert that the
// check then fails or warns), and at least one correct server exists
// (the runs assert that it passes every check).
func TestCatalogHasProof(t *testing.T) {
	caught := map[string][]string{}
	correct := 0
	for _, l := range learners {
		if len(l.fail)+len(l.warn) == 0 {
			correct++
		}
		for _, id := range append(append([]string(nil), l.fail...), l.warn...) {
			caught[id] = append(caught[id], l.name)
		}
	}
	for _, fs := range fixtureServers {
		if len(fs.wantFailed) == 0 {
			correct++
		}
		for _, id := range fs.wantFailed {
			caught[id] = append(caught[id], fs.server)
		}
	}
	if correct == 0 {
		t.Error("no correct server in the tables")
	}
	for _, id := range harness.CheckIDs() {
		if len(caught[id]) == 0 {
			t.Errorf("check %s: no server in the tables breaks its rule, so nothing shows it can fail", id)
		}
	}
}
