// Tests that the acceptance harness passes correct servers and fails each
// deliberately broken one on the check the defect belongs to. The servers
// under testdata/servers are built here only; they are not part of the
// product. The repository's own server is checked through
// scripts/acceptance.sh exactly as a person would run it.
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
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"practice-notes/tests/acceptance/harness"
	"practice-notes/tests/acceptance/sandbox"
)

const testPracticeData = "testdata/practice-data"

var (
	buildOnce sync.Once
	binDir    string
	buildErr  error
)

// fixtureBin builds every server under testdata/servers once per test run.
func fixtureBin(t *testing.T, name string) string {
	t.Helper()
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "acceptance-fixture-servers-")
		if buildErr != nil {
			return
		}
		// As root the sandbox runs servers as a uid of their own.
		if buildErr = os.Chmod(binDir, 0o755); buildErr != nil {
			return
		}
		cmd := exec.Command("go", "build", "-o", binDir+string(filepath.Separator), "./testdata/servers/...")
		out, err := cmd.CombinedOutput()
		if err != nil {
			buildErr = errors.New(err.Error() + ": " + string(out))
		}
	})
	if buildErr != nil {
		t.Fatalf("building fixture servers: %v", buildErr)
	}
	return filepath.Join(binDir, name)
}

func TestMain(m *testing.M) {
	// The harness starts this binary again as the stage of every server.
	sandbox.Main()
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// fixtureServers are the Go servers under testdata/servers: a correct one
// and one per defect, with the checks each must fail.
var fixtureServers = []struct {
	server     string
	wantFailed []string
	// a substring of the first failure of each failed check
	wantWhy map[string]string
}{
	{server: "reference"},
	{server: "reference-resources"},
	{server: "follows-symlinks", wantFailed: []string{"5", "17", "18"}, wantWhy: map[string]string{
		"5":  "text of escape-target.md, the target of symlink escape-link.md",
		"17": "text of root-old/private-notes.md",
		"18": "text of a file in the outside folder behind symlinked directory linked-dir",
	}},
	{server: "banner-on-stdout", wantFailed: []string{"8"}, wantWhy: map[string]string{
		"8": "non-JSON-RPC stdout line",
	}},
	{server: "no-size-limit", wantFailed: []string{"6"}, wantWhy: map[string]string{
		"6": "oversized-notes.md (over 102400 bytes) was searched",
	}},
	{server: "writes-into-root", wantFailed: []string{"7"}, wantWhy: map[string]string{
		"7": "created root/search-cache.json",
	}},
	{server: "invents-passage", wantFailed: []string{"2"}, wantWhy: map[string]string{
		"2": "1 result(s) for a phrase in no file",
	}},
	{server: "resource-traversal", wantFailed: []string{"4", "5", "17", "18"}, wantWhy: map[string]string{
		"4":  "was not refused",
		"5":  "was not refused",
		"17": "was not refused",
		"18": "was not refused",
	}},
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
				PracticeData: testPracticeData,
			})
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			rep.WriteText(&out)
			if diff := cmp.Diff(tt.wantFailed, rep.IDs(harness.StatusFail)); diff != "" {
				t.Errorf("failed checks (-want +got):\n%s\nharness output:\n%s", diff, out.String())
			}
			for id, why := range tt.wantWhy {
				for _, c := range rep.Checks {
					if c.ID == id && c.Status == harness.StatusFail && !strings.Contains(c.Failures[0], why) {
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

var (
	checkLineRe = regexp.MustCompile(`^(PASS|FAIL|WARN|SKIP) (\d+(?:\.\d+)?) \S`)
	finalLineRe = regexp.MustCompile(`^\d+ passed, \d+ failed$`)
)

// checkContract asserts the rules every report keeps: counts add up, every
// check has a known section and status, and every fail or warn carries
// evidence and a hint.
func checkContract(t *testing.T, rep *harness.Report) {
	t.Helper()
	counts := map[string]int{}
	for _, c := range rep.Checks {
		counts[c.Status]++
		switch c.Section {
		case harness.SectionAcceptance, harness.SectionTool, harness.SectionBoundary, harness.SectionProtocol:
		default:
			t.Errorf("check %s has section %q", c.ID, c.Section)
		}
		switch c.Status {
		case harness.StatusFail, harness.StatusWarn:
			if strings.TrimSpace(c.Evidence) == "" || strings.TrimSpace(c.Hint) == "" {
				t.Errorf("check %s is %s without evidence or hint: evidence %q, hint %q", c.ID, c.Status, c.Evidence, c.Hint)
			}
		case harness.StatusSkip:
			if strings.TrimSpace(c.Evidence) == "" {
				t.Errorf("check %s skipped without a reason", c.ID)
			}
		case harness.StatusPass:
			if c.Hint != "" {
				t.Errorf("check %s passed with a hint %q", c.ID, c.Hint)
			}
		default:
			t.Errorf("check %s has status %q", c.ID, c.Status)
		}
	}
	got := []int{rep.Passed, rep.Failed, rep.Warnings, rep.Skipped}
	want := []int{counts[harness.StatusPass], counts[harness.StatusFail], counts[harness.StatusWarn], counts[harness.StatusSkip]}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("passed, failed, warnings, skipped (-want +got):\n%s", diff)
	}
	if rep.Isolation == "" {
		t.Errorf("report does not say which isolation was in force")
	}
}

// runScript runs scripts/acceptance.sh from the repository root.
func runScript(t *testing.T, args ...string) (stdout string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", append([]string{"scripts/acceptance.sh"}, args...)...)
	cmd.Dir = filepath.Join("..", "..")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		code = ee.ExitCode()
	default:
		t.Fatalf("running script: %v\n%s", err, errb.String())
	}
	t.Logf("scripts/acceptance.sh %s → exit %d\n%s%s", strings.Join(args, " "), code, out.String(), errb.String())
	return out.String(), code
}

// checkTextOutput asserts the output format: one line per check in the
// catalog's order, then exactly "N passed, M failed".
func checkTextOutput(t *testing.T, out string) map[string]string {
	t.Helper()
	status := map[string]string{}
	var got []string
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	for _, l := range lines {
		if m := checkLineRe.FindStringSubmatch(l); m != nil {
			got = append(got, m[2])
			status[m[2]] = m[1]
		}
	}
	if diff := cmp.Diff(harness.CheckIDs(), got); diff != "" {
		t.Errorf("check lines (-want +got):\n%s", diff)
	}
	if last := lines[len(lines)-1]; !finalLineRe.MatchString(last) {
		t.Errorf("last line %q is not \"N passed, M failed\"", last)
	}
	return status
}

// TestRepositoryServer runs scripts/acceptance.sh with no server argument:
// it builds this repository's server and must pass all eight checks, and
// --record must fill every completion-record field, with --evidence
// putting the evidence in another folder, each file linking to the other
// as this repository's COMPLETION.md does.
func TestRepositoryServer(t *testing.T) {
	touchServerSources(t)
	dir := t.TempDir()
	record := filepath.Join(dir, "record.md")
	evidence := filepath.Join(dir, "docs", "evidence.md")
	if err := os.Mkdir(filepath.Dir(evidence), 0o755); err != nil {
		t.Fatal(err)
	}
	out, code := runScript(t, "--record", record, "--evidence", evidence)
	status := checkTextOutput(t, out)
	if code != 0 || !strings.HasSuffix(strings.TrimSpace(out), " passed, 0 failed") {
		t.Fatalf("repository server: exit %d, want 0 and 0 failed", code)
	}
	for _, id := range []string{"1", "2", "3", "4", "5", "6", "7", "8"} {
		if status[id] != "PASS" {
			t.Errorf("repository server: check %s is %s, want PASS", id, status[id])
		}
	}
	if !strings.Contains(out, "# N2 passage in sample-notes.md") || !strings.Contains(out, "# as returned by the server") {
		t.Errorf("output does not show the N2 passage beside the file's lines")
	}
	b, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	md := string(b)
	for _, field := range []string{
		"**Server source created:** this repository's Go server",
		"**Boundary tests run:** the specification's eight acceptance tests",
		"**Exact passage manually checked:** Pending",
		"**Client and transport:** the acceptance harness's own MCP client, github.com/modelcontextprotocol/go-sdk v",
		"stdio transport",
		"**Integration demonstrated:** check 8 PASS",
		"**Unverified behavior:**",
		" passed, 0 failed",
		"[docs/evidence.md](docs/evidence.md)",
	} {
		if !strings.Contains(md, field) {
			t.Errorf("record lacks %q", field)
		}
	}
	if strings.Contains(md, "___") {
		t.Errorf("record still has blank fields")
	}
	if n := strings.Count(md, "\n"); n > 120 {
		t.Errorf("the record is %d lines, more than one page (120)", n)
	}
	if tmp := filepath.Clean(os.TempDir()) + "/"; strings.Contains(md, tmp) {
		t.Errorf("the one-page record names temp paths (%s...)", tmp)
	}
	for _, id := range harness.CheckIDs() {
		if !strings.Contains(md, "\n| "+id+" | ") {
			t.Errorf("the record has no line for check %s", id)
		}
	}
	ev, err := os.ReadFile(evidence)
	if err != nil {
		t.Fatalf("the evidence file the record links to: %v", err)
	}
	for _, want := range []string{"[../record.md](../record.md)", "## PASS 1: ", "## PASS 8: ", `"method":"tools/call"`, "## N2 passage"} {
		if !strings.Contains(string(ev), want) {
			t.Errorf("evidence file lacks %q", want)
		}
	}
	seen := map[string]bool{}
	for _, list := range regexp.MustCompile(`"skipped":\[[^\[\]]+\]`).FindAllString(string(ev), -1) {
		if seen[list] && !strings.Contains(list, "the same list as above") {
			t.Errorf("the evidence file repeats a skipped-file list: %.200s", list)
		}
		seen[list] = true
	}
}

// touchServerSources stats every file the script builds from, so that
// go test's result cache is invalidated when the server (which this test
// builds in a subprocess) changes.
func touchServerSources(t *testing.T) {
	t.Helper()
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, ".go") || name == "go.mod" || name == "go.sum" || name == "acceptance.sh" ||
			strings.HasPrefix(filepath.ToSlash(p), "../../practice-data/") {
			_, err = os.Stat(p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
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
	out, code := runScript(t, "--server", bin+" serve -root {root}", "--practice-data", data)
	status := checkTextOutput(t, out)
	if code != 1 || status["8"] != "FAIL" || !strings.HasSuffix(strings.TrimSpace(out), " passed, 1 failed") {
		t.Errorf("banner server: exit %d, want 1 with FAIL 8 and 1 failed", code)
	}
	if !strings.Contains(out, `stdout carried`) || !strings.Contains(out, "    fix: ") {
		t.Errorf("text output lacks the evidence or the hint of FAIL 8")
	}

	out, code = runScript(t, "--server", bin+" serve -root {root}", "--practice-data", data, "--json")
	var rep harness.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("--json output does not parse: %v", err)
	}
	if code != 1 || rep.Failed != 1 {
		t.Errorf("--json: exit %d, %d failed; want 1, 1", code, rep.Failed)
	}
	if diff := cmp.Diff([]string{"8"}, rep.IDs(harness.StatusFail)); diff != "" {
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
// per test run. Without npm, node or npm's registry it skips with the reason;
// under CI=true a failed install fails instead, so CI still proves it.
func nodeDemo(t *testing.T) (node, dir string) {
	t.Helper()
	nodeOnce.Do(func() { nodeBin, nodeDir, nodeSkip, nodeErr = installNodeDemo() })
	if nodeErr != nil {
		t.Fatal(nodeErr)
	}
	if nodeSkip != "" {
		t.Skip(nodeSkip)
	}
	return nodeBin, nodeDir
}

var (
	nodeOnce                   sync.Once
	nodeBin, nodeDir, nodeSkip string
	nodeErr                    error
)

func installNodeDemo() (node, deps, skip string, err error) {
	npm, err := exec.LookPath("npm")
	if err != nil {
		return "", "", "SKIP: npm is not on PATH, so the Node.js learner servers (testdata/node-server) were not graded; install Node.js and npm to run them", nil
	}
	node, err = exec.LookPath("node")
	if err != nil {
		return "", "", "SKIP: npm is present but node is not on PATH; the Node.js learner servers were not graded", nil
	}
	deps, err = filepath.Abs(".node-demo") // git-ignored
	if err != nil {
		return "", "", "", err
	}
	if err := os.MkdirAll(deps, 0o755); err != nil {
		return "", "", "", err
	}
	for _, f := range []string{"package.json", "package-lock.json", "server.mjs", "text-server.mjs", "structured-server.mjs"} {
		b, err := os.ReadFile(filepath.Join("testdata", "node-server", f))
		if err != nil {
			return "", "", "", err
		}
		if err := os.WriteFile(filepath.Join(deps, f), b, 0o644); err != nil {
			return "", "", "", err
		}
	}
	var pkg struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	b, _ := os.ReadFile(filepath.Join(deps, "package.json"))
	if err := json.Unmarshal(b, &pkg); err != nil {
		return "", "", "", err
	}
	want := pkg.Dependencies["@modelcontextprotocol/sdk"]
	sdkPkg := filepath.Join(deps, "node_modules", "@modelcontextprotocol", "sdk", "package.json")
	if installedVersion(sdkPkg) != want {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, npm, "ci", "--prefix", deps, "--no-audit", "--no-fund", "--loglevel=error")
		if out, err := cmd.CombinedOutput(); err != nil {
			if os.Getenv("CI") == "true" {
				return "", "", "", fmt.Errorf("npm ci: %v\n%s", err, out)
			}
			return "", "", fmt.Sprintf("SKIP: npm ci could not install the official TypeScript SDK from package-lock.json (%v: %s), so the Node.js learner servers were not graded; under CI=true this fails", err, npmReason(string(out))), nil
		}
	}
	if got := installedVersion(sdkPkg); got != want {
		return "", "", "", fmt.Errorf("installed @modelcontextprotocol/sdk %q, want %q", got, want)
	}
	return node, deps, "", nil
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

// TestServerThatNeverStarts grades commands that exit at once, hang or
// flood stdout: each is still graded, every check fails with the reason, and
// only the first check waits for the timeout.
func TestServerThatNeverStarts(t *testing.T) {
	tests := []struct {
		name, server, why string
	}{
		{"exits at once", "echo 'cannot open root' >&2; exit 3", "exited"},
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
				if c.Status != harness.StatusFail {
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
