package class

import (
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The test binary doubles as a stand-in for the acceptance harness, so
// that the grader's process handling (working folder, time limits, exit
// statuses, garbage output) is tested without real servers. The server
// command line picks the behaviour.
const fakeEnv = "GRADECLASS_TEST_FAKE_HARNESS"

func TestMain(m *testing.M) {
	if os.Getenv(fakeEnv) == "1" {
		os.Exit(fakeHarness(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// contractRun writes a run in the --json shape: checks 1-8 (acceptance),
// 8.1 (protocol, a warning), 9 (boundary); ids in failed fail.
func contractRun(server, isolation string, failed ...string) string {
	type check struct {
		ID       string   `json:"id"`
		Section  string   `json:"section"`
		Title    string   `json:"title"`
		Status   string   `json:"status"`
		Evidence string   `json:"evidence"`
		Hint     string   `json:"hint"`
		Failures []string `json:"failures,omitempty"`
		Warnings []string `json:"warnings,omitempty"`
	}
	run := struct {
		Server    string  `json:"server"`
		Isolation string  `json:"isolation"`
		Passed    int     `json:"passed"`
		Failed    int     `json:"failed"`
		Warnings  int     `json:"warnings"`
		Skipped   int     `json:"skipped"`
		Checks    []check `json:"checks"`
		Extra     string  `json:"extra"`
	}{Server: server, Isolation: isolation, Extra: "fields beyond the contract are kept"}
	for _, id := range []string{"1", "2", "3", "4", "5", "6", "7", "8", "8.1", "9"} {
		c := check{ID: id, Section: "acceptance", Title: "title of check " + id, Status: "pass"}
		switch id {
		case "8.1":
			c.Section, c.Status = "protocol", "warn"
			c.Evidence, c.Hint = "-> ping\n<- -32601 method not found", "Answer ping with an empty result."
			c.Warnings = []string{"ping answered with an error"}
		case "9":
			c.Section = "boundary"
		}
		for _, f := range failed {
			if f == id {
				c.Status = "fail"
				c.Evidence = fmt.Sprintf("-> tools/call search_notes {\"query\":\"../outside.md\"}\n<- text: secret-token-%s <script>alert(1)</script> \x1b[31m", id)
				c.Hint = "Refuse paths outside the root (check " + id + ")."
				c.Failures = []string{"path outside the root was served"}
			}
		}
		switch c.Status {
		case "pass":
			run.Passed++
		case "fail":
			run.Failed++
		case "warn":
			run.Warnings++
		}
		run.Checks = append(run.Checks, c)
	}
	b, err := json.MarshalIndent(run, "", "  ")
	if err != nil {
		panic(err)
	}
	return string(b)
}

// unansweredRun is a run whose check 1 failed on a call left unanswered,
// with seed n.
func unansweredRun(server string, n int) string {
	var run map[string]any
	if err := json.Unmarshal([]byte(contractRun(server, "process group only", "1")), &run); err != nil {
		panic(err)
	}
	run["seed"] = n
	run["unanswered"] = []map[string]string{{"check": "1", "method": "tools/call search_notes",
		"error": fmt.Sprintf("no answer within 10s (context deadline exceeded); meanwhile the server used %d ms of CPU, running at the limit", 100*n)}}
	b, err := json.Marshal(run)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func fakeHarness(args []string) int {
	var server string
	for i, a := range args {
		if a == "--server" && i+1 < len(args) {
			server = args[i+1]
		}
	}
	cwd, _ := os.Getwd()
	fields := strings.Fields(server)
	if len(fields) == 0 {
		return 2
	}
	switch fields[0] {
	case "pass":
		fmt.Println(contractRun(server, "cwd "+cwd))
		return 0
	case "fail":
		fmt.Println(contractRun(server, "cwd "+cwd, fields[1:]...))
		return 1
	case "hang":
		time.Sleep(time.Hour)
	case "stubborn":
		signal.Ignore(os.Interrupt)
		time.Sleep(time.Hour)
	case "setup":
		fmt.Fprintln(os.Stderr, "acceptance: practice data missing")
		return 2
	case "garbage":
		fmt.Println("this is not JSON")
		return 1
	case "stall-once", "stall-always", "stall-then-garbage":
		// Counts its runs in the learner's folder; the first leaves a
		// call unanswered and fails check 1.
		runs, _ := os.ReadFile("runs")
		os.WriteFile("runs", append(runs, '.'), 0o644)
		switch {
		case len(runs) == 0 || fields[0] == "stall-always":
			fmt.Println(unansweredRun(server, len(runs)+1))
			return 1
		case fields[0] == "stall-then-garbage":
			fmt.Println("this is not JSON")
			return 1
		}
		fmt.Println(contractRun(server, "cwd "+cwd))
		return 0
	case "rendezvous":
		// Waits until N fake harnesses run at once, so that a grader
		// running learners one after another fails visibly.
		dir, n := fields[1], 0
		fmt.Sscan(fields[2], &n)
		os.WriteFile(filepath.Join(dir, fmt.Sprint(os.Getpid())), nil, 0o644)
		deadline := time.Now().Add(20 * time.Second)
		for time.Now().Before(deadline) {
			if entries, _ := os.ReadDir(dir); len(entries) >= n {
				fmt.Println(contractRun(server, "together"))
				return 0
			}
			time.Sleep(20 * time.Millisecond)
		}
		fmt.Println(contractRun(server, "alone", "1"))
		return 1
	}
	return 2
}
