//go:build live

package class

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"practice-notes/tests/acceptance/record"
)

// TestClassUnderPrivateFolderContainsLearners grades a class of two in a
// folder under a parent of mode 0700 (as `mktemp -d` makes): ann, a
// correct Python server with a file of her own, and zed, a hostile server
// (testdata/hostile/snoop.sh) that tries to read ann's file, this
// repository's go.mod (the harness's source) and a file of the grader's
// home, and to see what lies beside its folder. Ann passes every check, as
// she would anywhere; zed read nothing and saw nothing beside it. As the
// grader running the test and, when that is root, through setpriv as uid
// 65534 with the built harness.
func TestClassUnderPrivateFolderContainsLearners(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("SKIP: the sandbox exists on Linux only; elsewhere the report says the server ran with the grader's rights")
	}
	needPython(t)
	repo, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	home, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(home, ".pn-snoop-secret")
	if err := os.WriteFile(secret, []byte("the grader's own file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(secret) })

	t.Run("as the grader, through grade-class.sh", func(t *testing.T) {
		private := t.TempDir()
		if err := os.Chmod(private, 0o700); err != nil {
			t.Fatal(err)
		}
		class := snoopClass(t, repo, private, filepath.Join(repo, "go.mod"), secret)
		out := filepath.Join(t.TempDir(), "grades")
		stdout, stderr, code := runCmd(t, repoRoot, 5*time.Minute, "bash", "scripts/grade-class.sh", "-start-timeout", "20s", "-o", out, class)
		if code != 0 {
			t.Fatalf("grade-class.sh: exit %d\n%s\n%s", code, stdout, stderr)
		}
		zed := readFile(t, filepath.Join(out, "zed.json"))
		judgeSnoop(t, zed)
		rows, err := csv.NewReader(strings.NewReader(readFile(t, filepath.Join(out, "summary.csv")))).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		col := map[string]int{}
		for i, name := range rows[0] {
			col[name] = i
		}
		for _, row := range rows[1:] {
			failed, notRun, which := row[col["failed"]], row[col["not_run"]], row[col["failed_checks"]]
			if row[col["learner"]] == "ann" && (failed != "0" || notRun != "0" || which != "") {
				t.Errorf("ann, under a folder of mode 0700, failed %s checks (%s) and %s were not run, want none:\n%s", failed, which, notRun, readFile(t, filepath.Join(out, "ann.md")))
			}
		}
		entries, _ := os.ReadDir(out)
		for _, e := range entries {
			if b, err := os.ReadFile(filepath.Join(out, e.Name())); err == nil && bytes.Contains(b, []byte(annSecret)) {
				t.Errorf("%s quotes ann's file", e.Name())
			}
		}
	})
	if os.Geteuid() == 0 {
		t.Run("as uid 65534", func(t *testing.T) { snoopAsUser(t, repo) })
	}
}

const annSecret = "ann's own answers, for ann alone"

// snoopClass makes the class folder under parent: ann and zed, zed's
// command naming the files it tries to read.
func snoopClass(t *testing.T, repo, parent string, targets ...string) string {
	t.Helper()
	class := filepath.Join(parent, "class")
	server, err := os.ReadFile(filepath.Join(repo, "tests", "acceptance", "testdata", "learners", "python", "server.py"))
	if err != nil {
		t.Fatal(err)
	}
	snoop, err := os.ReadFile(filepath.Join(repo, "tests", "acceptance", "testdata", "hostile", "snoop.sh"))
	if err != nil {
		t.Fatal(err)
	}
	ann, zed := filepath.Join(class, "ann"), filepath.Join(class, "zed")
	files := map[string]string{
		filepath.Join(ann, "server.py"):  string(server),
		filepath.Join(ann, "server.cmd"): "python3 server.py --root {root}\n",
		filepath.Join(ann, "answers.md"): annSecret + "\n",
		filepath.Join(zed, "server.py"):  string(server),
		filepath.Join(zed, "snoop.sh"):   string(snoop),
		filepath.Join(zed, "server.cmd"): "sh snoop.sh {root} " + filepath.Join(ann, "answers.md") + " " + strings.Join(targets, " ") + "\n",
	}
	for p, body := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return class
}

// judgeSnoop reads zed's run: isolated, and its record of what it tried
// says it read nothing and saw nothing beside its folder.
func judgeSnoop(t *testing.T, runJSON string) {
	t.Helper()
	// A learner's result from grade-class.sh holds the run; the harness
	// prints the run itself.
	var res struct {
		Run       *record.Run `json:"run"`
		Isolation string      `json:"isolation"`
	}
	if err := json.Unmarshal([]byte(runJSON), &res); err != nil {
		t.Fatal(err)
	}
	isolation := res.Isolation
	if res.Run != nil {
		isolation = res.Run.Isolation
	}
	if !strings.HasPrefix(isolation, "process group;") {
		t.Skip("SKIP: no user namespaces here, so a server reads what its grader can, as the report's isolation line says: " + isolation)
	}
	if strings.Contains(runJSON, "PWNED") {
		t.Errorf("zed read or saw what it must not:\n%s", runJSON)
	}
	if strings.Contains(runJSON, annSecret) {
		t.Errorf("zed's run quotes ann's file")
	}
	if want := "snoop: tried 3, read none; beside: none"; !strings.Contains(runJSON, want) {
		t.Errorf("zed's run does not quote its record %q (check 16, $TMPDIR/snoop):\n%s", want, runJSON)
	}
}

// snoopAsUser grades zed as grade-class.sh would, with the harness built
// here run as uid 65534 from zed's folder: a class of that user's under a
// parent of mode 0700, and a file of its home.
func snoopAsUser(t *testing.T, repo string) {
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Fatalf("setpriv, to run the harness as uid 65534: %v", err)
	}
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Fatal("no /usr/bin/python3, which an ordinary user can run")
	}
	// Not t.TempDir: its parent is closed to other users.
	dir, err := os.MkdirTemp("", "snoop-as-user-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	bin := filepath.Join(dir, "acceptance")
	build := exec.Command("go", "build", "-o", bin, "./tests/acceptance/cmd/acceptance")
	build.Dir = repo
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the harness: %v\n%s", err, out)
	}
	data := filepath.Join(dir, "practice-data")
	if err := os.CopyFS(data, os.DirFS(filepath.Join(repo, "practice-data"))); err != nil {
		t.Fatal(err)
	}
	home, private := filepath.Join(dir, "home"), filepath.Join(dir, "private")
	for _, d := range []string{home, private} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	secret := filepath.Join(home, ".pn-snoop-secret")
	if err := os.WriteFile(secret, []byte("the user's own file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	goMod := filepath.Join(repo, "go.mod")
	class := snoopClass(t, repo, private, goMod, secret)
	_ = filepath.WalkDir(dir, func(p string, _ os.DirEntry, err error) error {
		if err == nil {
			_ = os.Lchown(p, 65534, 65534)
		}
		return nil
	})
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	// What the server must not read, this user can read outside the
	// sandbox: else the test would prove nothing.
	for _, f := range []string{filepath.Join(class, "ann", "answers.md"), goMod, secret} {
		if out, err := exec.Command(setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--", "cat", f).CombinedOutput(); err != nil {
			t.Fatalf("uid 65534 cannot read %s outside the sandbox, so the test would prove nothing: %v %s", f, err, out)
		}
	}
	zed := filepath.Join(class, "zed")
	command, err := os.ReadFile(filepath.Join(zed, "server.cmd"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--",
		bin, "--json", "--practice-data", data, "--start-timeout", "20s", "--exit-timeout", "2s", "--server", strings.TrimSpace(string(command)))
	cmd.Dir = zed
	cmd.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + home}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	_ = cmd.Run()
	if stdout.Len() == 0 {
		t.Fatalf("the harness as uid 65534 printed no report: %s", stderr.String())
	}
	judgeSnoop(t, stdout.String())
}
