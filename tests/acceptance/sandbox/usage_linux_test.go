//go:build linux

package sandbox

import (
	"os/exec"
	"runtime"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// startTree starts sh running script and ends it with the test.
func startTree(t *testing.T, script string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("sh", "-c", script)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // Kill ends the group
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		Kill(cmd)
		_ = cmd.Wait()
	})
	return cmd
}

// TestTreeUsageCountsDescendants: a busy loop in a child of a shell that
// only waits is counted, and seen running.
func TestTreeUsageCountsDescendants(t *testing.T) {
	cmd := startTree(t, "sh -c 'while :; do :; done' & wait")
	var cpu time.Duration
	sawRunning := false
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		u, ok := TreeUsage(cmd.Process.Pid)
		cpu, sawRunning = u.CPU, sawRunning || u.Running
		if !ok {
			t.Fatalf("TreeUsage(%d) could not read the shell", cmd.Process.Pid)
		}
		if cpu >= 200*time.Millisecond && sawRunning {
			// TreeCPU counts the same tree, a moment later.
			if alone, ok := TreeCPU(cmd.Process.Pid); !ok || alone < cpu {
				t.Fatalf("TreeCPU: %s, %v; want at least TreeUsage's %s", alone, ok, cpu)
			}
			return
		}
	}
	t.Fatalf("after 20 s of a busy child: cpu %s, seen running %v; want at least 200ms and running", cpu, sawRunning)
}

// TestTreeUsageOfASleepingTree: a shell waiting on sleep uses no CPU
// while it waits and is not running; an ended process cannot be read.
func TestTreeUsageOfASleepingTree(t *testing.T) {
	cmd := startTree(t, "sleep 30")
	time.Sleep(200 * time.Millisecond)
	before, ok := TreeUsage(cmd.Process.Pid)
	if !ok {
		t.Fatalf("TreeUsage(%d) could not read the shell", cmd.Process.Pid)
	}
	time.Sleep(500 * time.Millisecond)
	after, _ := TreeUsage(cmd.Process.Pid)
	if d := after.CPU - before.CPU; d > 50*time.Millisecond || after.Running {
		t.Errorf("a sleeping tree used %s of CPU in 500 ms, running %v; want under 50ms, not running", d, after.Running)
	}
	Kill(cmd)
	_ = cmd.Wait()
	if _, ok := TreeUsage(cmd.Process.Pid); ok {
		t.Errorf("TreeUsage of the ended process %d: ok", cmd.Process.Pid)
	}
}

// TestTreeUsageCountsQueuedTime: three busy loops sharing one CPU each
// wait for it about two thirds of the time, and TreeUsage counts that
// wait, where it leaves the time spent on the CPU to CPU.
func TestTreeUsageCountsQueuedTime(t *testing.T) {
	var cmd *exec.Cmd
	func() {
		// A child takes the CPUs of the thread that starts it.
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		var all, one unix.CPUSet
		if err := unix.SchedGetaffinity(0, &all); err != nil {
			t.Fatal(err)
		}
		one.Set(firstCPU(all))
		if err := unix.SchedSetaffinity(0, &one); err != nil {
			t.Fatal(err)
		}
		defer unix.SchedSetaffinity(0, &all)
		loop := "sh -c 'while :; do :; done' & "
		cmd = startTree(t, loop+loop+loop+"wait")
	}()
	start := time.Now()
	for deadline := start.Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		u, ok := TreeUsage(cmd.Process.Pid)
		if !ok {
			t.Fatalf("TreeUsage(%d) could not read the shell", cmd.Process.Pid)
		}
		if u.Queued >= time.Second {
			if wall := time.Since(start); u.CPU > wall+100*time.Millisecond {
				t.Fatalf("three loops on one CPU used %s of CPU in %s", u.CPU, wall)
			}
			return
		}
	}
	u, _ := TreeUsage(cmd.Process.Pid)
	t.Fatalf("after 20 s of three busy loops on one CPU: queued %s (CPU %s); want at least 1s", u.Queued, u.CPU)
}

func firstCPU(s unix.CPUSet) int {
	for i := range 1024 {
		if s.IsSet(i) {
			return i
		}
	}
	return 0
}
