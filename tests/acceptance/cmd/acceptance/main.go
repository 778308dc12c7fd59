// Command acceptance grades any MCP server that speaks stdio and offers a
// search_notes tool against the practice-notes specification: its eight
// acceptance tests and the rules of its "One tool" and "Access boundary"
// sections.
//
//	acceptance --server 'python3 my_server.py --root {root}' [--record FILE] [--json]
//
// {root} is replaced by a practice root built in a fresh temp dir (also
// exported as PRACTICE_NOTES_ROOT). It prints one line per check (PASS, FAIL,
// WARN or SKIP, with evidence and a hint under each FAIL and WARN) and a
// final "N passed, M failed" line, and exits 1 when any check failed, 2 when
// the run could not be set up. scripts/acceptance.sh is the usual entry point.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"practice-notes/tests/acceptance/harness"
	"practice-notes/tests/acceptance/sandbox"
	"practice-notes/tests/acceptance/visible"
)

func main() {
	// The harness starts itself again as the stage of every server
	// process: there, this runs the stage instead of the grader.
	sandbox.Main()
	os.Exit(run())
}

func run() int {
	o, code := parseFlags(os.Args[1:])
	if o == nil {
		return code
	}
	if !o.asJSON && o.completion == "" {
		// The results come at the end: say that something is happening.
		fmt.Fprintln(os.Stderr, "acceptance: running the checks (about ten seconds for a server that answers; the results follow)")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rep, err := harness.Run(ctx, o.cfg)
	if err != nil {
		// The error may quote the server command or what the server wrote.
		fmt.Fprintln(os.Stderr, "acceptance:", visible.Escape(err.Error(), ""))
		return 2
	}
	consistent, err := o.write(rep)
	if err != nil {
		fmt.Fprintln(os.Stderr, "acceptance:", err)
		return 2
	}
	if rep.Failed > 0 || !consistent {
		return 1
	}
	return 0
}

// options are the command's flags: the run's configuration and what to
// write of its report.
type options struct {
	cfg           harness.Config
	record        string
	learnerRecord string
	evidenceFile  string
	asJSON        bool
	clientRuns    string
	transcripts   string
	completion    string
}

// parseFlags reads the command line; it returns nil and the exit code
// when the command ends there (help, or a usage error).
func parseFlags(args []string) (*options, int) {
	fs := flag.NewFlagSet("acceptance", flag.ContinueOnError)
	server := fs.String("server", "", "server command line; {root} is replaced by the practice root (required)")
	practice := fs.String("practice-data", "practice-data", "directory copied into the practice root")
	record := fs.String("record", "", "write the one-page completion record (Markdown) to this file, and its full evidence beside it (FILE.md -> FILE.evidence.md)")
	learnerRecord := fs.String("learner-record", "", "write a completion record for this run to this file: the specification's six fields with the run's results filled in, ___ where a person must write, and the results check by check (a file an earlier --learner-record wrote keeps what was written in its blanks)")
	evidenceFile := fs.String("evidence", "", "with --record: write the full evidence to this file instead, linked from the record")
	asJSON := fs.Bool("json", false, "print machine-readable results instead of text")
	timeout := fs.Duration("timeout", 10*time.Second, "limit for every request")
	startTimeout := fs.Duration("start-timeout", 30*time.Second, "limit for starting the server and its initialize handshake (go run and npx compile or install first)")
	exitTimeout := fs.Duration("exit-timeout", 5*time.Second, "how long the server may take to exit after stdin closes")
	protocol := fs.String("protocol-version", "", "force an MCP protocol version (default: the SDK's, falling back as needed)")
	source := fs.String("server-source", "", "where the server's source lives, for the record")
	keep := fs.Bool("keep", false, "keep the temp dirs (fixtures, and each server process's HOME and TMPDIR) for inspection")
	clientRuns := fs.String("client-runs", "", "with --record: folder of real-client runs by commit (scripts/interop.sh writes .interop/claude-code-runs); the run for the commit checked out there, if its server sources are unmodified, goes into the record")
	defaults := sandbox.DefaultLimits()
	memory := sizeFlag(fs, "memory", defaults.Memory, "memory all of the run's server processes together may use, where a cgroup can be made (without one, each process's data limit is 128 GiB, or this when larger, since runtimes reserve address space they never use), in bytes or with K, M or G")
	processes := fs.Int("processes", defaults.Processes, "processes and threads the server may run at once: the run's together where a cgroup can be made, else its uid's")
	cpuTime := fs.Duration("cpu-time", defaults.CPUTime, "CPU time one server process may use")
	openFiles := fs.Int("open-files", defaults.OpenFiles, "files one server process may hold open")
	fileSize := sizeFlag(fs, "file-size", defaults.FileSize, "largest file a server process may write, in bytes or with K, M or G")
	slot := fs.Int("slot", 0, "parallel slot of this run: as root, the server runs as a uid of the slot's own")
	transcripts := fs.String("record-transcripts", "", "write each check's recorded exchanges, facts and verdict into this folder as ID.txtar, for checks judged from recorded facts, and each run-wide rule's as rule-NAME.txtar (copy them under tests/acceptance/checks/testdata/transcripts to make them tests)")
	dir := fs.String("dir", "", "run the server command in this folder, your project's, and read or write there the files the other flags name, except --practice-data, which stays relative to where you started (default: the current folder)")
	completion := fs.String("completion", "", "after the checks, grade this completion record (COMPLETION.md) against the run, as a class's grading does, and print the checks and its grade instead of the usual text")
	serverDir := fs.String("server-dir", "", "the folder the server lives in (default: the current folder): it starts there, and under isolation it is the one folder of the grader's, besides the system's and the toolchains', that it sees, read-only")
	seed := fs.Uint64("seed", 0, "seed of the generated cases (the report states the one a run drew): the same seed replays them exactly; 0 draws one")
	isolation := fs.String("isolation", "auto", "auto: run the server in private mount, network and PID namespaces where the kernel allows it, else in its own process group only; off: process group only")
	fs.SetOutput(os.Stdout)
	fs.Usage = func() { usage(fs) }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, 0
		}
		return nil, 2
	}
	if *isolation != "auto" && *isolation != "off" {
		fmt.Fprintf(os.Stderr, "acceptance: --isolation must be auto or off, not %q\n", *isolation)
		return nil, 2
	}
	if *server == "" || fs.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: acceptance --server 'COMMAND {root}' [--practice-data DIR] [--record FILE] [--json]")
		return nil, 2
	}
	if err := enterDir(*dir, practice); err != nil {
		fmt.Fprintln(os.Stderr, "acceptance:", err)
		return nil, 2
	}
	if *learnerRecord != "" {
		// Refused now, not after the whole run.
		if _, err := previousRecord(*learnerRecord); err != nil {
			fmt.Fprintln(os.Stderr, "acceptance: --learner-record:", err, "(no check was run)")
			return nil, 2
		}
	}
	return &options{
		cfg: harness.Config{
			Server:          *server,
			PracticeData:    *practice,
			Timeout:         *timeout,
			StartTimeout:    *startTimeout,
			ExitTimeout:     *exitTimeout,
			ProtocolVersion: *protocol,
			ServerSource:    *source,
			KeepTemp:        *keep,
			Isolation:       *isolation,
			Limits:          sandbox.Limits{Memory: *memory, Processes: *processes, CPUTime: *cpuTime, OpenFiles: *openFiles, FileSize: *fileSize},
			Slot:            *slot,
			ServerDir:       *serverDir,
			Seed:            *seed,
		},
		record: *record, learnerRecord: *learnerRecord, evidenceFile: *evidenceFile, asJSON: *asJSON,
		clientRuns: *clientRuns, transcripts: *transcripts, completion: *completion,
	}, 0
}

// write prints the report and writes the files the flags ask for. With
// --completion it reports whether the record is consistent with the run.
func (o *options) write(rep *harness.Report) (consistent bool, err error) {
	consistent = true
	if o.transcripts != "" {
		if err := rep.WriteTranscripts(o.transcripts); err != nil {
			return false, fmt.Errorf("writing transcripts: %w", err)
		}
	}
	switch {
	case o.completion != "":
		if consistent, err = checkCompletion(os.Stdout, o.completion, rep); err != nil {
			return false, fmt.Errorf("--completion: %w", err)
		}
	case o.asJSON:
		enc := json.NewEncoder(os.Stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return false, err
		}
	default:
		rep.WriteText(os.Stdout)
	}
	if o.record != "" {
		if err := o.writeRecord(rep); err != nil {
			return false, err
		}
	}
	if o.learnerRecord != "" {
		if err := writeLearnerRecord(o.learnerRecord, rep); err != nil {
			return false, fmt.Errorf("--learner-record: %w", err)
		}
		fmt.Fprintf(os.Stderr, "acceptance: completion record for this run written to %s; fill in each ___\n", o.learnerRecord)
	}
	return consistent, nil
}

// writeRecord writes the completion record and its evidence, each
// linking to the other by a path relative to its own folder.
func (o *options) writeRecord(rep *harness.Report) error {
	evidence := o.evidenceFile
	if evidence == "" {
		evidence = harness.EvidencePath(o.record)
	}
	absRecord, err1 := filepath.Abs(o.record)
	absEvidence, err2 := filepath.Abs(evidence)
	toEvidence, err3 := filepath.Rel(filepath.Dir(absRecord), absEvidence)
	toRecord, err4 := filepath.Rel(filepath.Dir(absEvidence), absRecord)
	if err := errors.Join(err1, err2, err3, err4); err != nil {
		return fmt.Errorf("--record, --evidence: %w", err)
	}
	var cr *harness.ClientRun
	if o.clientRuns != "" {
		var why string
		var err error
		cr, why, err = harness.LoadClientRun(o.clientRuns)
		if err != nil {
			return fmt.Errorf("--client-runs: %w", err)
		}
		if why != "" {
			// Not an error: the record then claims only this run.
			fmt.Fprintln(os.Stderr, "acceptance: --client-runs: not used:", why)
		}
	}
	if err := os.WriteFile(o.record, []byte(rep.Record(filepath.ToSlash(toEvidence), cr)), 0o644); err != nil {
		return fmt.Errorf("writing record: %w", err)
	}
	if err := os.WriteFile(evidence, []byte(rep.Evidence(filepath.ToSlash(toRecord))), 0o644); err != nil {
		return fmt.Errorf("writing evidence: %w", err)
	}
	fmt.Fprintln(os.Stderr, "acceptance: completion record written to", o.record, "and its evidence to", evidence)
	return nil
}

// usage prints the flags from the flag set itself, so the help that
// scripts/acceptance.sh --help shows cannot drift from what is accepted.
func usage(fs *flag.FlagSet) {
	out := fs.Output()
	fmt.Fprint(out, `Grade a practice-notes MCP server over stdio: the specification's eight
acceptance tests and the rules of its "One tool" and "Access boundary"
sections, each PASS, FAIL, WARN or SKIP with evidence and a hint.

usage: acceptance --server 'COMMAND {root}' [flags]

Flags:
`)
	fs.PrintDefaults()
	fmt.Fprint(out, `
Output: one line per check, evidence and a "fix:" line under each FAIL and
WARN, then exactly "N passed, M failed" (WARN and SKIP count as neither).
Exit status: 0 when nothing failed, 1 when any check failed (or, with
--completion, the record is not consistent with the run), 2 when the run
could not be set up (bad flags, practice data missing, a --learner-record
file this command did not write).

From your own project's folder, with the kit cloned at KIT:

  go -C KIT run ./tests/acceptance/cmd/acceptance --dir "$PWD" --server 'python3 server.py {root}'

("$PWD" is the current folder in bash, zsh and PowerShell alike.)
`)
}

// sizeFlag defines a flag holding a size: bytes, or a number with K, M or
// G (binary units).
func sizeFlag(fs *flag.FlagSet, name string, value int64, usage string) *int64 {
	p := &value
	fs.Func(name, usage+" (default "+strconv.FormatInt(value, 10)+")", func(s string) error {
		mult := int64(1)
		switch t := strings.TrimSuffix(strings.TrimSuffix(strings.ToUpper(s), "IB"), "B"); {
		case strings.HasSuffix(t, "K"):
			mult, s = 1<<10, t[:len(t)-1]
		case strings.HasSuffix(t, "M"):
			mult, s = 1<<20, t[:len(t)-1]
		case strings.HasSuffix(t, "G"):
			mult, s = 1<<30, t[:len(t)-1]
		default:
			s = t
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n <= 0 {
			return fmt.Errorf("%q is not a size", s)
		}
		*p = n * mult
		return nil
	})
	return p
}
