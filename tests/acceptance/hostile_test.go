//go:build live

package acceptance_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"practice-notes/tests/acceptance/checks"
	"practice-notes/tests/acceptance/harness"
)

// hostile is a "server" that tries one attack and then starts a correct
// server (the Python learner). Whatever the attack achieved, it prints on
// stdout, so a sandbox that let it through fails check 8; the test also
// looks at the grader's folders and processes itself.
type hostile struct {
	name   string
	script string // under testdata/hostile
	// args after {root}; "OUTSIDE", "CACHE", "HOME" and "PID" become the
	// grader's folders and pid.
	args []string
	// wantFail lists the checks the attack must fail (a server stopped by
	// a limit); want names the limit the evidence must show.
	wantFail []string
	want     string
}

var hostiles = []hostile{
	{name: "remount and write outside", script: "remount.sh", args: []string{"OUTSIDE"}},
	{name: "write the grader's build cache and home", script: "caches.sh", args: []string{"CACHE", "HOME"}},
	{name: "read the grader's environment", script: "environ.sh"},
	{name: "chmod and read the mode-000 note", script: "unlock.sh"},
	{name: "take 4 GiB", script: "memory.sh", wantFail: allChecks(), want: "stopped: memory limit of 1 GiB reached"},
	{name: "reserve 70 GB of address space at start, as Bun 1.3 does", script: "reserve.sh"},
	{name: "start 400 processes", script: "processes.sh", want: "the limit of 256 processes and threads was reached"},
	{name: "kill every process it sees and signal the harness", script: "killall.sh", args: []string{"PID"}},
	{name: "terminal escapes and a huge line on stdout", script: "escapes.sh", wantFail: []string{"8"}, want: `non-JSON-RPC stdout line: "\x1b[2J`},
}

func allChecks() []string { return harness.CheckIDs() }

// TestHostileServers grades each hostile server and checks that it was
// contained: a correct server after the attack passes, nothing of the
// grader's changed, and a limit reached is named in the evidence. As root
// it runs the servers twice: as the grader (root) and, through setpriv,
// as an ordinary user (uid 65534) grading a copy of the fixtures.
func TestHostileServers(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("SKIP: the sandbox exists on Linux only; elsewhere the report says the server ran with the grader's rights")
	}
	// The system's python3 where there is one: a shim such as pyenv's
	// forks on every start, which the process-limit attack would stop.
	python := "/usr/bin/python3"
	if _, err := os.Stat(python); err != nil {
		python = need(t, "python3")
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	grader := graderFolders(t)
	// A file of the grader's home that no server may read.
	secret := filepath.Join(grader.home, ".pn-hostile-secret")
	if err := os.WriteFile(secret, []byte("the grader's own file\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(secret) })
	t.Setenv("PN_GRADER_TOKEN", "grader-secret-"+strconv.Itoa(os.Getpid()))

	t.Run("as "+userName(), func(t *testing.T) {
		for _, h := range hostiles {
			t.Run(h.name, func(t *testing.T) {
				rep := runHostile(t, h, grader, filepath.Join(wd, "testdata"), python)
				judgeHostile(t, h, rep, grader)
			})
		}
	})
	if os.Geteuid() == 0 {
		t.Run("as an ordinary user", func(t *testing.T) { hostilesAsUser(t, wd) })
	}
}

type graderDirs struct {
	cache, home, outside string
}

func graderFolders(t *testing.T) graderDirs {
	t.Helper()
	out, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatalf("go env GOCACHE: %v", err)
	}
	home, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	if err := os.Chmod(outside, 0o777); err != nil {
		t.Fatal(err)
	}
	return graderDirs{cache: strings.TrimSpace(string(out)), home: home, outside: outside}
}

func userName() string {
	if os.Geteuid() == 0 {
		return "root"
	}
	return "uid " + strconv.Itoa(os.Geteuid())
}

func runHostile(t *testing.T, h hostile, g graderDirs, testdata, python string) *harness.Report {
	t.Helper()
	args := []string{"sh", filepath.Join(testdata, "hostile", h.script), "{root}"}
	for _, a := range h.args {
		switch a {
		case "OUTSIDE":
			a = g.outside
		case "CACHE":
			a = g.cache
		case "HOME":
			a = g.home
		case "PID":
			a = strconv.Itoa(os.Getpid())
		}
		args = append(args, a)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	rep, err := harness.Run(ctx, harness.Config{
		Server:       "PATH=" + filepath.Dir(python) + ":$PATH " + strings.Join(args, " "),
		PracticeData: filepath.Join(testdata, "practice-data"),
		Timeout:      10 * time.Second,
		ExitTimeout:  2 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(rep.Isolation, "process group;") {
		t.Skip("SKIP: no sandbox here, so nothing contains a hostile server: " + rep.Isolation)
	}
	return rep
}

func judgeHostile(t *testing.T, h hostile, rep *harness.Report, g graderDirs) {
	t.Helper()
	var out bytes.Buffer
	rep.WriteText(&out)
	failed := rep.IDs(checks.StatusFail)
	if strings.Join(failed, " ") != strings.Join(h.wantFail, " ") {
		t.Errorf("failed checks %v, want %v\n%s", failed, h.wantFail, out.String())
	}
	if h.want != "" && !strings.Contains(out.String(), h.want) {
		t.Errorf("the report does not say %q\n%s", h.want, out.String())
	}
	// The server is never root-equivalent, so the unreadable file of
	// check 22 stays unreadable, as root too.
	if c := check(rep, "22"); len(h.wantFail) == 0 && (c == nil || c.Status != checks.StatusPass) {
		t.Errorf("check 22 did not pass: %+v", c)
	}
	if strings.Contains(out.String(), "PWNED") {
		t.Errorf("an attack worked:\n%s", out.String())
	}
	// What a server writes reaches the grader's terminal only escaped,
	// and bounded.
	if i := strings.IndexAny(out.String(), "\x1b\a"); i >= 0 {
		t.Errorf("the report carries a raw control character at byte %d: %q", i, out.String()[max(0, i-80):min(out.Len(), i+80)])
	}
	if out.Len() > 1<<20 {
		t.Errorf("the report is %d bytes", out.Len())
	}
	entries, _ := os.ReadDir(g.outside)
	for _, e := range entries {
		t.Errorf("the server wrote %s outside the run", filepath.Join(g.outside, e.Name()))
	}
	for _, p := range []string{filepath.Join(g.cache, "pwned-cache"), filepath.Join(g.cache, "pwned-cache-env"), filepath.Join(g.home, "pwned-home")} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("the server wrote %s", p)
		}
	}
}

// hostilesAsUser runs the same attacks through the built harness as uid
// 65534, grading copies of the fixtures that user can read.
func hostilesAsUser(t *testing.T, wd string) {
	setpriv := need(t, "setpriv")
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Fatal("no /usr/bin/python3, which an ordinary user can run: the live matrix needs it to grade as one")
	}
	// Not t.TempDir: its parent folder is closed to other users.
	dir, err := os.MkdirTemp("", "hostile-as-user-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "acceptance")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/acceptance").CombinedOutput(); err != nil {
		t.Fatalf("building the harness: %v\n%s", err, out)
	}
	for _, sub := range []string{"hostile", "practice-data", "learners/python"} {
		if err := os.CopyFS(filepath.Join(dir, "testdata", sub), os.DirFS(filepath.Join(wd, "testdata", sub))); err != nil {
			t.Fatal(err)
		}
	}
	home, outside := filepath.Join(dir, "home"), filepath.Join(dir, "outside")
	for _, d := range []string{home, outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(home, ".pn-hostile-secret"), []byte("the user's own file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil {
			_ = os.Lchown(p, 65534, 65534)
			if d.IsDir() {
				_ = os.Chmod(p, 0o755)
			}
		}
		return nil
	})
	noCgroup := ""
	for _, h := range hostiles {
		t.Run(h.name, func(t *testing.T) {
			if h.script == "memory.sh" && noCgroup != "" {
				t.Skip("SKIP: uid 65534 gets no cgroup here, so the memory in use is not bounded (the data limit is set above what runtimes reserve), and taking 4 GiB would succeed: " + noCgroup)
			}
			args := []string{"sh", filepath.Join(dir, "testdata", "hostile", h.script), "{root}"}
			for _, a := range h.args {
				switch a {
				case "OUTSIDE":
					a = outside
				case "CACHE":
					a = filepath.Join(home, ".cache")
				case "HOME":
					a = home
				case "PID":
					a = strconv.Itoa(os.Getpid())
				}
				args = append(args, a)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--",
				bin, "--json", "--practice-data", filepath.Join(dir, "testdata", "practice-data"), "--exit-timeout", "2s",
				"--server", strings.Join(args, " "))
			// The server's folder, the one it sees, holds the scripts and
			// not the grader's home beside them.
			cmd.Dir = filepath.Join(dir, "testdata")
			cmd.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + home, "PN_GRADER_TOKEN=grader-secret"}
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			_ = cmd.Run()
			var rep harness.Report
			if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
				t.Fatalf("the harness as uid 65534 printed no report: %v\n%s", err, stderr.String())
			}
			if !strings.HasPrefix(rep.Isolation, "process group;") {
				t.Skip("SKIP: no sandbox for an ordinary user here: " + rep.Isolation)
			}
			if _, why, ok := strings.Cut(rep.Isolation, "; no cgroup ("); ok {
				noCgroup = why
			}
			judgeHostile(t, h, &rep, graderDirs{cache: filepath.Join(home, ".cache"), home: home, outside: outside})
		})
	}
}

func check(rep *harness.Report, id string) *harness.CheckResult {
	for _, c := range rep.Checks {
		if c.ID == id {
			return c
		}
	}
	return nil
}
