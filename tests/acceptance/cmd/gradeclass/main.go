// Command gradeclass grades a class: every learner folder's server through
// the acceptance harness, and every learner's completion record against
// that run. scripts/grade-class.sh builds it and the harness and is the
// usual entry point.
//
//	gradeclass -harness BIN -practice-data DIR [-o OUT_DIR] [-j N] CLASS_DIR
//	gradeclass -completion FILE -run RUN.json
//
// The second form grades one completion record against one saved
// `acceptance --json` run (scripts/acceptance.sh --completion uses it).
// Before running a learner's server it checks the learner's folder for
// dependencies that are not installed (the server runs without a
// network) and reports that learner as not graded, with the command that
// installs them. Exit status: 0 when every learner was graded (second
// form: nothing failed and the record is consistent), 1 otherwise, 2 for
// a usage error.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"practice-notes/tests/acceptance/class"
	"practice-notes/tests/acceptance/record"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `usage: grade-class.sh [-o OUT_DIR] [-j N] CLASS_DIR
       gradeclass -completion FILE -run RUN.json`

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gradeclass", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, usage)
		fs.PrintDefaults()
	}
	out := fs.String("o", "grades", "output folder")
	jobs := fs.Int("j", runtime.NumCPU(), "learners graded at once")
	harnessBin := fs.String("harness", "", "the built acceptance harness (scripts/grade-class.sh builds it)")
	practice := fs.String("practice-data", "", "notes copied into each learner's practice root")
	timeout := fs.Duration("timeout", 0, "limit for every request, passed to the harness (default: the harness's)")
	startTimeout := fs.Duration("start-timeout", 0, "limit for a server to start and answer initialize, passed to the harness (default: the harness's)")
	learnerTimeout := fs.Duration("learner-timeout", 5*time.Minute, "limit for one learner's whole run")
	noDeps := fs.Bool("no-deps-check", false, "grade every learner even when their folder's dependencies look missing (package.json without node_modules, go.mod modules not in the cache, requirements.txt not installed)")
	var limits []*string
	for _, l := range []struct{ name, usage string }{
		{"memory", "memory one server process may take, and one learner's together where the harness can make a cgroup, passed to the harness (default: the harness's, 1G)"},
		{"processes", "processes and threads one learner's server may run (its uid's, and its run's together where the harness can make a cgroup), passed to the harness (default: the harness's, 256)"},
		{"cpu-time", "CPU time one server process may use, passed to the harness (default: the harness's)"},
		{"open-files", "files one server process may hold open, passed to the harness (default: the harness's)"},
		{"file-size", "largest file a server process may write, passed to the harness (default: the harness's)"},
	} {
		limits = append(limits, fs.String(l.name, "", l.usage))
	}
	seed := fs.Uint64("seed", 0, "seed of the generated cases, passed to the harness: every learner gets the same cases, and a learner's page states the seed that replays theirs (default: each run draws its own)")
	completion := fs.String("completion", "", "grade this completion record against -run instead of grading a class")
	runFile := fs.String("run", "", "a saved `acceptance --json` run, for -completion")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if *completion != "" || *runFile != "" {
		if *completion == "" || *runFile == "" || fs.NArg() > 0 {
			fmt.Fprintln(stderr, "gradeclass: -completion and -run go together, with no class folder")
			return 2
		}
		return checkOne(*completion, *runFile, stdout, stderr)
	}
	if fs.NArg() != 1 || *jobs < 1 || *harnessBin == "" || *practice == "" {
		fs.Usage()
		return 2
	}
	learners, err := class.Discover(fs.Arg(0))
	if err != nil {
		fmt.Fprintln(stderr, "grade-class:", strings.TrimPrefix(err.Error(), class.ErrUsage.Error()+": "))
		if errors.Is(err, class.ErrUsage) {
			return 2
		}
		return 1
	}
	pd, err := filepath.Abs(*practice)
	if err != nil {
		fmt.Fprintln(stderr, "grade-class:", err)
		return 2
	}
	g := &class.Grader{Harness: *harnessBin, PracticeData: pd, LearnerTimeout: *learnerTimeout, Jobs: *jobs, NoDepsCheck: *noDeps}
	if *timeout > 0 {
		g.HarnessArgs = append(g.HarnessArgs, "--timeout", timeout.String())
	}
	if *startTimeout > 0 {
		g.HarnessArgs = append(g.HarnessArgs, "--start-timeout", startTimeout.String())
	}
	if *seed > 0 {
		g.HarnessArgs = append(g.HarnessArgs, "--seed", strconv.FormatUint(*seed, 10))
	}
	// Every learner runs inside limits of its own, so that one cannot
	// starve the others.
	for i, name := range []string{"memory", "processes", "cpu-time", "open-files", "file-size"} {
		if *limits[i] != "" {
			g.HarnessArgs = append(g.HarnessArgs, "--"+name, *limits[i])
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	fmt.Fprintf(stderr, "grading %s, %d at a time\n", class.Learners(len(learners)), min(*jobs, len(learners)))
	results := g.Grade(ctx, learners, func(r *class.Result, left int) {
		fmt.Fprintln(stderr, class.ProgressLine(r, left))
	})
	if err := class.WriteAll(*out, results); err != nil {
		fmt.Fprintln(stderr, "grade-class:", err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %s: summary.csv, summary.md, index.html, and a .md and a .json for each learner\n", *out)
	fmt.Fprintln(stdout, class.SummaryLine(results))
	for _, r := range results {
		if r.RunParsed == nil {
			return 1
		}
	}
	return 0
}

// checkOne prints the run's checks, the record's grade and the run's
// final "N passed, M failed" line.
func checkOne(completion, runFile string, stdout, stderr io.Writer) int {
	raw, err := os.ReadFile(runFile)
	if err != nil {
		fmt.Fprintln(stderr, "gradeclass:", err)
		return 2
	}
	run, err := record.DecodeRun(bytes.NewReader(raw))
	if err != nil {
		fmt.Fprintln(stderr, "gradeclass:", err)
		return 2
	}
	v, err := record.CheckFile(completion, run)
	if err != nil {
		fmt.Fprintln(stderr, "gradeclass:", err)
		return 2
	}
	class.WriteRecordCheck(stdout, &class.Result{RunParsed: run, Run: raw, Record: v})
	if run.Failed > 0 || v.State != record.Consistent {
		return 1
	}
	return 0
}
