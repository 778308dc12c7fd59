//go:build linux

package sandbox

import (
	"os/exec"
	"syscall"
	"testing"
	"time"
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
	var running, ok bool
	sawRunning := false
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		cpu, running, ok = TreeUsage(cmd.Process.Pid)
		sawRunning = sawRunning || running
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
	before, _, ok := TreeUsage(cmd.Process.Pid)
	if !ok {
		t.Fatalf("TreeUsage(%d) could not read the shell", cmd.Process.Pid)
	}
	time.Sleep(500 * time.Millisecond)
	after, running, _ := TreeUsage(cmd.Process.Pid)
	if d := after - before; d > 50*time.Millisecond || running {
		t.Errorf("a sleeping tree used %s of CPU in 500 ms, running %v; want under 50ms, not running", d, running)
	}
	Kill(cmd)
	_ = cmd.Wait()
	if _, _, ok := TreeUsage(cmd.Process.Pid); ok {
		t.Errorf("TreeUsage of the ended process %d: ok", cmd.Process.Pid)
	}
}
