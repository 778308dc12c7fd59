//go:build linux

package sandbox

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"practice-notes/tests/acceptance/visible"
)

func TestUnescapeMount(t *testing.T) {
	for in, want := range map[string]string{
		`/`:                `/`,
		`/mnt/my\040disk`:  `/mnt/my disk`,
		`/a\134b`:          `/a\b`,
		`/trailing\04`:     `/trailing\04`,
		`/not\999octal`:    `/not\999octal`,
		`/tab\011and\012n`: "/tab\tand\nn",
	} {
		if got := unescapeMount(in); got != want {
			t.Errorf("unescapeMount(%q) = %q, want %q", in, got, want)
		}
	}
}

// runInSandbox runs one command line as a server process of sb, and
// returns its exit code and output.
func runInSandbox(t *testing.T, sb *Sandbox, base, line string) (int, string) {
	t.Helper()
	home, tmp, err := sb.ProcessDirs(strings.NewReplacer(" ", "", "/", "").Replace(t.Name()))
	if err != nil {
		t.Fatal(err)
	}
	cmd := sb.Command(line)
	cmd.Env = append(cmd.Env, sb.Env(base, home, tmp)...)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := sb.Start(cmd); err != nil {
		t.Fatalf("starting %q: %v", line, err)
	}
	_ = cmd.Wait()
	return cmd.ProcessState.ExitCode(), out.String()
}

// TestStageSetsTheLimits checks the rlimits inside the sandbox (the
// processes limit in the run's cgroup where there is one), and the
// identity the server has there.
func TestStageSetsTheLimits(t *testing.T) {
	base := t.TempDir()
	lim := Limits{Memory: 300 << 20, Processes: 77, CPUTime: 33e9, OpenFiles: 99, FileSize: 5 << 20}
	sb, err := New(context.Background(), Config{Base: base, Isolation: "auto", Limits: lim, Slot: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Remove()
	t.Logf("isolation: %s", sb.isolation)
	_, out := runInSandbox(t, sb, base, `cat /proc/self/limits; id -u; grep -E '^(CapEff|CapBnd|NoNewPrivs)' /proc/self/status`)
	for _, l := range []string{"Max data size", "Max processes", "Max cpu time", "Max open files", "Max file size"} {
		if !strings.Contains(out, l) {
			t.Fatalf("no %q in the sandbox's /proc/self/limits:\n%s", l, out)
		}
	}
	wantLimits := map[string]string{"Max data size": strconv.FormatInt(noCgroupData, 10), "Max processes": "77", "Max cpu time": "33", "Max open files": "99", "Max file size": "5242880"}
	if sb.cg != nil {
		// The run's cgroup holds the processes and memory limits instead
		// (see limitScript): the data limit is the grader's own.
		var own syscall.Rlimit
		if err := syscall.Getrlimit(syscall.RLIMIT_DATA, &own); err != nil {
			t.Fatal(err)
		}
		wantLimits["Max data size"] = "unlimited"
		if own.Cur != ^uint64(0) {
			wantLimits["Max data size"] = strconv.FormatUint(own.Cur, 10)
		}
		delete(wantLimits, "Max processes")
		b, err := os.ReadFile(filepath.Join(filepath.Dir(sb.cg.pidFile), "pids.max"))
		if err != nil || strings.TrimSpace(string(b)) != "77" {
			t.Errorf("the run's cgroup pids.max: %q, %v; want 77", b, err)
		}
		if strings.Contains(out, "Max processes             77 ") {
			t.Errorf("the processes rlimit is set although the run has a cgroup:\n%s", out)
		}
	}
	for name, want := range wantLimits {
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, name) {
				if f := strings.Fields(strings.TrimPrefix(l, name)); len(f) < 2 || f[0] != want || f[1] != want {
					t.Errorf("%s inside the sandbox: %q, want %s (soft and hard)", name, l, want)
				}
			}
		}
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	uid := ""
	for _, l := range lines {
		if _, err := strconv.Atoi(l); err == nil {
			uid = l
		}
	}
	if !sb.isolated {
		return // the rest needs the sandbox; its absence is in the report
	}
	wantUID := "1000"
	if sb.uid >= 0 {
		wantUID = "2000000003"
	}
	if uid != wantUID {
		t.Errorf("uid inside the sandbox %q, want %s", uid, wantUID)
	}
	for _, l := range []string{"CapEff:\t0000000000000000", "CapBnd:\t0000000000000000", "NoNewPrivs:\t1"} {
		if !strings.Contains(out, l) {
			t.Errorf("no %q inside the sandbox:\n%s", l, out)
		}
	}
}

// TestRunCgroupBoundsTheRunsProcesses shows the run's cgroup at work where
// one can be made: two processes each within the per-process memory limit
// are over it together, and processes beyond the limit are refused. The
// processes are this test binary (testProgram): the test needs nothing but
// Go.
func TestRunCgroupBoundsTheRunsProcesses(t *testing.T) {
	base := t.TempDir()
	lim := DefaultLimits()
	lim.Memory, lim.Processes = 192<<20, 40
	sb, err := New(context.Background(), Config{Base: base, Isolation: "auto", Limits: lim})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Remove()
	if sb.cg == nil {
		t.Skipf("SKIP: no cgroup could be made here, the limits are rlimits only: %s", sb.cgWhy)
	}
	if !strings.Contains(sb.isolation, "cgroup (v") {
		t.Errorf("the isolation sentence does not name the cgroup: %s", sb.isolation)
	}
	// 128 MiB alone, with the test binary's own (larger under -race), stays
	// well under 192 MiB; two of them are well over.
	take := testProgramLine(t, base, "take 128")
	// One alone runs: anything else that stops the pair below is then not
	// the cgroup's doing, and is named as it is.
	if code, out := runInSandbox(t, sb, base, take); code != 0 || !strings.Contains(out, "took 128 MiB") {
		t.Fatalf("one process taking 128 MiB, under the cgroup's 192 MiB, did not run (exit %d): %s", code, visible.Clip(out, 500))
	}
	before := sb.Counts()
	_, out := runInSandbox(t, sb, base, take+" & "+take+" & wait")
	if got := sb.Counts(); got.oomKills <= before.oomKills {
		t.Errorf("two processes of 128 MiB each were not stopped by the cgroup's 192 MiB (oom kills %d -> %d): %s", before.oomKills, got.oomKills, visible.Clip(out, 500))
	}
	before = sb.Counts()
	// The rlimit looser than the cgroup's limit, which must be what
	// refuses (the rlimit is checked first).
	sb.limits.Processes = 4 * lim.Processes
	_, out = runInSandbox(t, sb, base, `for i in $(seq 60); do sleep 2 & done 2>/dev/null; wait; echo started`)
	if got := sb.Counts(); got.forkRefusals <= before.forkRefusals {
		t.Errorf("60 processes under a limit of 40 were not refused by the cgroup (refusals %d -> %d): %s", before.forkRefusals, got.forkRefusals, out)
	}
	dirs := append([]string(nil), sb.cg.dirs...)
	sb.Remove()
	for _, d := range dirs {
		if exists(d) {
			t.Errorf("cgroup %s left behind", d)
		}
	}
}

// TestReservationIsNotUse starts a server that maps 70 GB of address
// space at start, writable and never touched, as Bun 1.3 does: it runs
// under the default limits, with and without isolation, since a data
// limit that counts reservations is set only where no cgroup measures use
// (and then above 70 GB).
func TestReservationIsNotUse(t *testing.T) {
	for _, mode := range []string{"auto", "off"} {
		t.Run(mode, func(t *testing.T) {
			base := t.TempDir()
			sb, err := New(context.Background(), Config{Base: base, Isolation: mode, Limits: DefaultLimits()})
			if err != nil {
				t.Fatal(err)
			}
			defer sb.Remove()
			code, out := runInSandbox(t, sb, base, testProgramLine(t, base, "reserve 70"))
			if code != 0 || !strings.Contains(out, "reserved 70 GB") {
				t.Errorf("a server reserving 70 GB at start did not start (exit %d): %s\n%s", code, visible.Clip(out, 500), sb.limitsSentence())
			}
		})
	}
}

// TestStartSignalNamesTheLimits: a server killed by a signal before it
// answered is told which signal and under which limits.
func TestStartSignalNamesTheLimits(t *testing.T) {
	base := t.TempDir()
	sb, err := New(context.Background(), Config{Base: base, Isolation: "auto", Limits: DefaultLimits()})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Remove()
	code, _ := runInSandbox(t, sb, base, "/bin/sh -c 'kill -ABRT $$'")
	got := sb.StartSignal(code)
	for _, want := range []string{"killed by signal 6 (aborted) at start", "limits (rlimits, each process): ", "5m0s of CPU time"} {
		if !strings.Contains(got, want) {
			t.Errorf("StartSignal(%d) = %q, want it to say %q", code, got, want)
		}
	}
	if got := sb.StartSignal(1); got != "" {
		t.Errorf("StartSignal(1) = %q, want none: exit 1 is no signal", got)
	}
}

// testProgramLine copies this test binary into dir (the run's fixtures,
// which the server sees) and returns the command line that runs it as
// testProgram with what.
func testProgramLine(t *testing.T, dir, what string) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	prog := filepath.Join(dir, "test-program")
	if _, err := os.Stat(prog); err != nil {
		b, err := os.ReadFile(self)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(prog, b, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(prog, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return testProgramKey + "='" + what + "' " + prog
}

// testProgram is what the test binary does when run as a server (see
// testProgramKey).
func testProgram(what string) int {
	verb, arg, _ := strings.Cut(what, " ")
	n, err := strconv.ParseInt(arg, 10, 64)
	if err != nil {
		fmt.Fprintln(os.Stderr, "test program:", err)
		return 2
	}
	switch verb {
	case "take":
		// Filled by the kernel (MAP_POPULATE faults every page in for
		// writing), not by a loop: under the race detector a loop's
		// writes would use several times n in shadow memory as well.
		m, err := syscall.Mmap(-1, 0, int(n<<20), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_POPULATE)
		if err != nil {
			fmt.Fprintf(os.Stderr, "test program: taking %d MiB: %v\n", n, err)
			return 1
		}
		fmt.Printf("took %d MiB\n", n)
		time.Sleep(3 * time.Second)
		_ = syscall.Munmap(m)
	case "reserve":
		m, err := syscall.Mmap(-1, 0, int(n*1e9), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
		if err != nil {
			fmt.Fprintf(os.Stderr, "test program: reserving %d GB: %v\n", n, err)
			return 1
		}
		fmt.Printf("reserved %d GB\n", n)
		_ = syscall.Munmap(m)
	default:
		fmt.Fprintln(os.Stderr, "test program: no such verb", verb)
		return 2
	}
	return 0
}

// BenchmarkServerProcess measures what the sandbox adds to starting one
// server process: CPU time of the children (stage and server) per
// process, beside a plain /bin/sh.
func BenchmarkServerProcess(b *testing.B) {
	for _, mode := range []string{"plain", "off", "auto"} {
		b.Run(mode, func(b *testing.B) {
			base := b.TempDir()
			sb, err := New(context.Background(), Config{Base: base, Isolation: mode, Limits: DefaultLimits()})
			if err != nil {
				b.Fatal(err)
			}
			defer sb.Remove()
			home, tmp, err := sb.ProcessDirs("bench")
			if err != nil {
				b.Fatal(err)
			}
			var before, after syscall.Rusage
			_ = syscall.Getrusage(syscall.RUSAGE_CHILDREN, &before)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				cmd := exec.Command("/bin/sh", "-c", "true")
				if mode != "plain" {
					cmd = sb.Command("true")
					cmd.Env = append(cmd.Env, sb.Env(base, home, tmp)...)
				}
				if err := sb.Start(cmd); err != nil {
					b.Fatal(err)
				}
				if err := cmd.Wait(); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			_ = syscall.Getrusage(syscall.RUSAGE_CHILDREN, &after)
			cpu := time.Duration(after.Utime.Nano() + after.Stime.Nano() - before.Utime.Nano() - before.Stime.Nano())
			b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
		})
	}
}

// TestServerSeesOnlyItsFolder makes a class folder under a parent of mode
// 0700 (as `mktemp -d` makes, or a home folder): the server of one
// learner, started in that learner's folder, reads its own files by
// relative and absolute path, though as root its uid may not traverse the
// parent; and it sees nothing of the classmate beside it, of this
// repository (the harness's source), of the grader's home but for the
// toolchains, nor of the folder the tests' temp folders live in.
func TestServerSeesOnlyItsFolder(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	module := projectDir(wd, "")
	private := t.TempDir()
	if err := os.Chmod(private, 0o700); err != nil {
		t.Fatal(err)
	}
	mine, beside := filepath.Join(private, "class", "ann"), filepath.Join(private, "class", "bob")
	for dir, body := range map[string]string{mine: "ann's own notes\n", beside: "bob's code\n"} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "server.py"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{filepath.Dir(mine), mine, beside} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(mine)
	base := t.TempDir()
	sb, err := New(context.Background(), Config{Base: base, Isolation: "auto", Limits: DefaultLimits()})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Remove()
	if !sb.isolated {
		t.Skipf("SKIP: no isolation here, so the server sees the grader's files, as the report's first line says: %s", sb.isolation)
	}
	if sb.project != mine {
		t.Fatalf("the server's folder is %s, want %s", sb.project, mine)
	}
	// Its parents are there, as empty folders holding only the way to it
	// (ls shows no bob).
	forbidden := []string{
		filepath.Join(beside, "server.py"),
		beside,
		filepath.Join(module, "go.mod"),
		filepath.Join(module, "tests", "acceptance", "sandbox", "doc.go"),
	}
	if s := homeSecret(sb.home, sb.visible); s != "" {
		forbidden = append(forbidden, s)
	}
	line := "pwd; cat server.py && cat " + filepath.Join(mine, "server.py") + "; ls " + filepath.Dir(mine)
	for _, f := range forbidden {
		line += fmt.Sprintf("; [ -e '%[1]s' ] && echo 'SEEN %[1]s'; cat '%[1]s' 2>/dev/null && echo 'READ %[1]s'", f)
	}
	code, out := runInSandbox(t, sb, base, line+"; true")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	if got := strings.Count(out, "ann's own notes"); got != 2 || !strings.HasPrefix(out, mine+"\n") {
		t.Errorf("the server did not start in its folder %s and read its own file twice (relative and absolute):\n%s", mine, out)
	}
	for _, f := range forbidden {
		for _, what := range []string{"SEEN", "READ"} {
			if strings.Contains(out, what+" "+f+"\n") {
				t.Errorf("the server could %s %s", map[string]string{"SEEN": "see", "READ": "read"}[what], f)
			}
		}
	}
	if strings.Contains(out, "bob") {
		t.Errorf("the server saw its classmate:\n%s", out)
	}
}
