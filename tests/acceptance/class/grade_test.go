package class

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// makeClass writes one folder per learner: name -> server.cmd line
// ("" for no server.cmd), with records from recs.
func makeClass(t *testing.T, learners map[string]string, recs map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, cmd := range learners {
		d := filepath.Join(dir, name)
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if cmd != "" {
			if err := os.WriteFile(filepath.Join(d, CommandFile), []byte("# the learner's command\n"+cmd+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if rec, ok := recs[name]; ok {
			if err := os.WriteFile(filepath.Join(d, RecordFile), []byte(rec), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir
}

func fakeGrader(t *testing.T) *Grader {
	t.Helper()
	t.Setenv(fakeEnv, "1")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return &Grader{Harness: exe, PracticeData: t.TempDir(), LearnerTimeout: 2 * time.Second, KillGrace: time.Second, Jobs: 3}
}

const honest = `Server source created: server.py
Boundary tests run: 9 passed, 0 failed
Exact passage manually checked: Ada Byron, 2026-12-01
Client and transport: Inspector over stdio
Integration demonstrated: yes, tools/list and tools/call
Unverified behavior: HTTP
`

// Every learner is graded or reported with the reason, whatever its
// harness run does; a hung run is stopped at the learner's limit, one that
// ignores the interrupt is killed after the grace, and neither holds up
// the others.
func TestGradeEveryLearner(t *testing.T) {
	g := fakeGrader(t)
	dir := makeClass(t, map[string]string{
		"ada":     "pass",
		"bob":     "fail 4 9",
		"cy":      "hang",
		"dee":     "stubborn",
		"eli":     "setup",
		"fox":     "garbage",
		"gil":     "",
		".hidden": "pass",
		"notadir": "",
	}, map[string]string{
		"ada": honest,
		"bob": strings.Replace(honest, "9 passed, 0 failed", "all 8 passed", 1),
		"cy":  honest,
	})
	os.RemoveAll(filepath.Join(dir, "notadir"))
	os.WriteFile(filepath.Join(dir, "notadir"), []byte("a file, not a learner"), 0o644)

	learners, err := Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	var lefts []int
	start := time.Now()
	results := g.Grade(context.Background(), learners, func(r *Result, left int) { lefts = append(lefts, left) })
	elapsed := time.Since(start)

	type row struct {
		Learner, Error, Record string
		Graded                 bool
		Failed                 []string
	}
	var got []row
	for _, r := range results {
		rw := row{Learner: r.Learner, Graded: r.Graded, Record: string(r.Record.State)}
		if r.Error != "" {
			rw.Error = strings.SplitN(r.Error, ":", 2)[0]
		}
		if r.RunParsed != nil {
			rw.Failed = r.RunParsed.FailedIDs()
		}
		got = append(got, rw)
	}
	want := []row{
		{Learner: "ada", Graded: true, Record: "consistent"},
		{Learner: "bob", Graded: true, Record: "contradicted", Failed: []string{"4", "9"}},
		{Learner: "cy", Error: "stopped after the per-learner limit of 2s", Record: "consistent"},
		{Learner: "dee", Error: "stopped after the per-learner limit of 2s", Record: "missing"},
		{Learner: "eli", Error: "the harness could not run the checks (exit 2)", Record: "missing"},
		{Learner: "fox", Error: "acceptance output not in the --json shape", Record: "missing"},
		{Learner: "gil", Error: "no server.cmd in the learner's folder", Record: "missing"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{6, 5, 4, 3, 2, 1, 0}, lefts); diff != "" {
		t.Errorf("progress counts left (-want +got):\n%s", diff)
	}
	// cy and dee each take at most their 2 s limit plus the 1 s grace.
	if elapsed > 15*time.Second {
		t.Errorf("grading took %s; the hung runs were not bounded", elapsed)
	}
	if iso := results[0].RunParsed.Isolation; iso != "cwd "+learners[0].Dir {
		t.Errorf("harness ran in %q, want the learner's folder %s", iso, learners[0].Dir)
	}
	if !strings.Contains(results[4].HarnessStderr, "practice data missing") {
		t.Errorf("setup error's stderr not kept: %q", results[4].HarnessStderr)
	}
}

// With -j 3, three learners are graded at the same time: each fake
// harness waits until all three are running.
func TestGradeInParallel(t *testing.T) {
	g := fakeGrader(t)
	g.LearnerTimeout = time.Minute
	meet := t.TempDir()
	cmd := "rendezvous " + meet + " 3"
	dir := makeClass(t, map[string]string{"a": cmd, "b": cmd, "c": cmd}, nil)
	learners, err := Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range g.Grade(context.Background(), learners, nil) {
		if r.RunParsed == nil || r.RunParsed.Isolation != "together" {
			t.Errorf("%s: not graded together with the others: %+v", r.Learner, r)
		}
	}
}

func TestDiscoverUsageErrors(t *testing.T) {
	empty := t.TempDir()
	clash := makeClass(t, map[string]string{"summary": "pass"}, nil)
	// An ESC in a name is written as the four characters \x1b, so these two
	// names (the second also differs in case) give the same file names.
	same := makeClass(t, map[string]string{"a\x1b": "pass", "A\\x1b": "pass"}, nil)
	for name, dir := range map[string]string{
		"no such folder":    filepath.Join(empty, "nope"),
		"no learners":       empty,
		"reserved name":     clash,
		"same output files": same,
	} {
		if _, err := Discover(dir); err == nil || !strings.Contains(err.Error(), "usage") {
			t.Errorf("%s: err = %v, want a usage error", name, err)
		}
	}
}

// A command file with only comments is a problem of that learner, not of
// the class.
func TestReadCommand(t *testing.T) {
	dir := makeClass(t, map[string]string{"a": "  python3 s.py {root}  ", "b": "   "}, nil)
	learners, err := Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := [][2]string{{learners[0].Command, learners[0].Problem}, {learners[1].Command, learners[1].Problem}}
	want := [][2]string{{"python3 s.py {root}", ""}, {"", "server.cmd holds no command line"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("commands (-want +got):\n%s", diff)
	}
}
