//go:build linux

package sandbox

import (
	"context"
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
	wantLimits := map[string]string{"Max data size": "314572800", "Max processes": "77", "Max cpu time": "33", "Max open files": "99", "Max file size": "5242880"}
	if sb.cg != nil {
		// The run's cgroup holds the processes limit instead (see
		// limitScript).
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
// are over it together, and processes beyond the limit are refused.
func TestRunCgroupBoundsTheRunsProcesses(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("SKIP: python3 is not on PATH")
	}
	base := t.TempDir()
	lim := DefaultLimits()
	lim.Memory, lim.Processes = 128<<20, 40
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
	// 100 MiB each, touched: each under RLIMIT_DATA, not both together.
	take := python + ` -c "import time; b = b'x' * (100 << 20); time.sleep(3)"`
	before := sb.Counts()
	_, out := runInSandbox(t, sb, base, take+" & "+take+" & wait")
	if got := sb.Counts(); got.oomKills <= before.oomKills {
		t.Errorf("two processes of 100 MiB each were not stopped by the cgroup's 128 MiB (oom kills %d -> %d): %s", before.oomKills, got.oomKills, visible.Clip(out, 500))
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
