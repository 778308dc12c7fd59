//go:build live

package acceptance_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"practice-notes/tests/acceptance/checks"
	"practice-notes/tests/acceptance/harness"
)

var (
	buildOnce sync.Once
	buildErr  error
)

// fixtureBin builds every server under testdata/servers once per test run.
func fixtureBin(t *testing.T, name string) string {
	t.Helper()
	buildOnce.Do(func() {
		cmd := exec.Command("go", "build", "-o", binDir+string(filepath.Separator), "./testdata/servers/...")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = errors.New(err.Error() + ": " + string(out))
		}
	})
	if buildErr != nil {
		t.Fatalf("building fixture servers: %v", buildErr)
	}
	return filepath.Join(binDir, name)
}

// TestFixtureServers runs the harness against a correct server and against
// one server per defect, and checks exactly which checks fail.
func TestFixtureServers(t *testing.T) {
	for _, tt := range fixtureServers {
		t.Run(tt.server, func(t *testing.T) {
			bin := fixtureBin(t, tt.server)
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			rep, err := harness.Run(ctx, harness.Config{
				Server:       bin + " serve -root {root}",
				ServerDir:    binDir,
				PracticeData: testPracticeData,
			})
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			rep.WriteText(&out)
			if diff := cmp.Diff(tt.wantFailed, rep.IDs(checks.StatusFail)); diff != "" {
				t.Errorf("failed checks (-want +got):\n%s\nharness output:\n%s", diff, out.String())
			}
			for id, why := range tt.wantWhy {
				for _, c := range rep.Checks {
					if c.ID == id && c.Status == checks.StatusFail && !strings.Contains(c.Failures[0], why) {
						t.Errorf("check %s failed for another reason: %q (want %q)", id, c.Failures[0], why)
					}
				}
			}
			checkContract(t, rep)
			if _, err := os.Stat(rep.TempDir); !os.IsNotExist(err) {
				t.Errorf("temp dir %s left behind", rep.TempDir)
			}
		})
	}
}

// TestScriptAgainstBrokenServer checks --server, --practice-data and --json
// through the script, and that a failure gives a non-zero exit status.
func TestScriptAgainstBrokenServer(t *testing.T) {
	bin := fixtureBin(t, "banner-on-stdout")
	data, err := filepath.Abs(testPracticeData)
	if err != nil {
		t.Fatal(err)
	}
	out, code := runScript(t, "--server", bin+" serve -root {root}", "--server-dir", binDir, "--practice-data", data)
	status := checkTextOutput(t, out)
	if code != 1 || status["8"] != "FAIL" || !strings.HasSuffix(strings.TrimSpace(out), " passed, 1 failed") {
		t.Errorf("banner server: exit %d, want 1 with FAIL 8 and 1 failed", code)
	}
	if !strings.Contains(out, `stdout carried`) || !strings.Contains(out, "    fix: ") {
		t.Errorf("text output lacks the evidence or the hint of FAIL 8")
	}

	out, code = runScript(t, "--server", bin+" serve -root {root}", "--server-dir", binDir, "--practice-data", data, "--json")
	var rep harness.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("--json output does not parse: %v", err)
	}
	if code != 1 || rep.Failed != 1 {
		t.Errorf("--json: exit %d, %d failed; want 1, 1", code, rep.Failed)
	}
	if diff := cmp.Diff([]string{"8"}, rep.IDs(checks.StatusFail)); diff != "" {
		t.Errorf("--json failed checks (-want +got):\n%s", diff)
	}
	checkContract(t, &rep)
	if c := rep.Checks[7]; c.ID != "8" || !strings.Contains(c.Evidence, "practice-notes fixture server ready on stdio") {
		t.Errorf("--json check 8 evidence does not quote the stdout line: %q", c.Evidence)
	}
	// The contract's field names, read without the harness's types.
	var raw struct {
		Server    string           `json:"server"`
		Isolation string           `json:"isolation"`
		Checks    []map[string]any `json:"checks"`
	}
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatal(err)
	}
	for _, c := range raw.Checks {
		for _, k := range []string{"id", "section", "title", "status", "evidence", "hint"} {
			if _, ok := c[k].(string); !ok {
				t.Errorf("--json check %v has no string %q", c["id"], k)
			}
		}
	}
}

// nodeDemo installs testdata/node-server's dependencies (the official
// TypeScript SDK, from its package-lock.json) into a git-ignored folder once
// per test run. Without node, npm or npm's registry the test fails: the
// live matrix never skips a server it cannot run.
func nodeDemo(t *testing.T) (node, dir string) {
	t.Helper()
	nodeOnce.Do(func() { nodeBin, nodeDir, nodeErr = installNodeDemo() })
	if nodeErr != nil {
		t.Fatal(nodeErr)
	}
	return nodeBin, nodeDir
}

var (
	nodeOnce         sync.Once
	nodeBin, nodeDir string
	nodeErr          error
)

func installNodeDemo() (node, deps string, err error) {
	npm, err := exec.LookPath("npm")
	if err != nil {
		return "", "", fmt.Errorf("npm is not on PATH, so the Node.js learner servers (testdata/node-server) cannot be graded: install Node.js and npm")
	}
	node, err = exec.LookPath("node")
	if err != nil {
		return "", "", fmt.Errorf("npm is present but node is not on PATH, so the Node.js learner servers cannot be graded")
	}
	deps, err = filepath.Abs(".node-demo") // git-ignored
	if err != nil {
		return "", "", err
	}
	if err := os.MkdirAll(deps, 0o755); err != nil {
		return "", "", err
	}
	for _, f := range []string{"package.json", "package-lock.json", "server.mjs", "text-server.mjs", "structured-server.mjs"} {
		b, err := os.ReadFile(filepath.Join("testdata", "node-server", f))
		if err != nil {
			return "", "", err
		}
		if err := os.WriteFile(filepath.Join(deps, f), b, 0o644); err != nil {
			return "", "", err
		}
	}
	var pkg struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	b, _ := os.ReadFile(filepath.Join(deps, "package.json"))
	if err := json.Unmarshal(b, &pkg); err != nil {
		return "", "", err
	}
	want := pkg.Dependencies["@modelcontextprotocol/sdk"]
	sdkPkg := filepath.Join(deps, "node_modules", "@modelcontextprotocol", "sdk", "package.json")
	if installedVersion(sdkPkg) != want {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, npm, "ci", "--prefix", deps, "--no-audit", "--no-fund", "--loglevel=error")
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", "", fmt.Errorf("npm ci could not install the official TypeScript SDK from package-lock.json, so the Node.js learner servers cannot be graded: %v: %s", err, npmReason(string(out)))
		}
	}
	if got := installedVersion(sdkPkg); got != want {
		return "", "", fmt.Errorf("installed @modelcontextprotocol/sdk %q, want %q", got, want)
	}
	return node, deps, nil
}

// TestNodeServer grades a server written in JavaScript with the official
// TypeScript SDK through the script, to show --server works for any
// language. Its results are text only, so the text grading is exercised.
func TestNodeServer(t *testing.T) {
	node, deps := nodeDemo(t)
	data, err := filepath.Abs(testPracticeData)
	if err != nil {
		t.Fatal(err)
	}
	out, code := runScript(t, "--server", node+" "+filepath.Join(deps, "server.mjs")+" --root {root}", "--practice-data", data)
	checkTextOutput(t, out)
	if code != 0 || !strings.HasSuffix(strings.TrimSpace(out), " passed, 0 failed") {
		t.Errorf("Node.js server: exit %d, want 0 and 0 failed", code)
	}
	if !strings.Contains(out, "# replies: read for what they present") {
		t.Errorf("the report does not say how replies were read")
	}
}

// npmReason picks the lines of npm's output that say why it failed.
func npmReason(out string) string {
	var why []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "npm error") && !strings.Contains(l, "complete log") && len(why) < 3 {
			why = append(why, strings.TrimSpace(strings.TrimPrefix(l, "npm error")))
		}
	}
	if len(why) == 0 {
		return strings.TrimSpace(out)
	}
	return strings.Join(why, "; ")
}

func installedVersion(pkgJSON string) string {
	b, err := os.ReadFile(pkgJSON)
	if err != nil {
		return ""
	}
	var p struct {
		Version string `json:"version"`
	}
	_ = json.Unmarshal(b, &p)
	return p.Version
}

// TestServerThatNeverStarts grades commands that exit at once, abort, hang or
// flood stdout: each is still graded, every check fails with the reason, and
// only the first check waits for the timeout.
func TestServerThatNeverStarts(t *testing.T) {
	tests := []struct {
		name, server, why string
	}{
		{"exits at once", "echo 'cannot open root' >&2; exit 3", "exited"},
		// A runtime aborting under a limit, as Bun 1.3 did under a data
		// limit: the signal and the limits are named.
		{"aborts at start", "sh -c 'kill -ABRT $$'", "exit status 134) before completing initialize; killed by signal 6 (aborted) at start, under the limits (rlimits, each process): "},
		{"hangs", "sleep 30", "no initialize answer within"},
		{"floods stdout", "yes 'not json'", "no initialize answer within"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			rep, err := harness.Run(context.Background(), harness.Config{
				Server:       tt.server,
				PracticeData: testPracticeData,
				Timeout:      time.Second,
				StartTimeout: time.Second,
				ExitTimeout:  time.Second,
			})
			if err != nil {
				t.Fatal(err)
			}
			if took := time.Since(start); took > 20*time.Second {
				t.Errorf("run took %s; later checks should fail fast", took)
			}
			checkContract(t, rep)
			for _, c := range rep.Checks {
				if c.Status != checks.StatusFail {
					t.Errorf("check %s is %s, want fail", c.ID, c.Status)
				}
			}
			if c := rep.Checks[0]; !strings.Contains(c.Failures[0], tt.why) {
				t.Errorf("check 1 failure %q does not say %q", c.Failures[0], tt.why)
			}
			if c := rep.Checks[1]; !strings.Contains(c.Failures[0], "server did not start; see check 1") {
				t.Errorf("check 2 failure %q does not point at check 1", c.Failures[0])
			}
			if tt.name == "exits at once" && !strings.Contains(rep.Checks[0].Evidence, "stderr: cannot open root") {
				t.Errorf("check 1 evidence does not quote stderr: %q", rep.Checks[0].Evidence)
			}
		})
	}
}
