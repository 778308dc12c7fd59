//go:build unix

package sandbox

import (
	"os/exec"
	"syscall"
)

// Terminate asks a server process started by Start to end: SIGTERM to its
// whole process group (the stage's, or on Linux without isolation the
// shell's), so that a wrapper shell and what it started get it too.
func Terminate(cmd *exec.Cmd) { signalGroup(cmd, syscall.SIGTERM) }

// Kill ends a server process started by Start and its process group.
func Kill(cmd *exec.Cmd) { signalGroup(cmd, syscall.SIGKILL) }

func signalGroup(cmd *exec.Cmd, sig syscall.Signal) {
	if cmd.Process == nil {
		return
	}
	// Negative pid: the whole process group started for this server only.
	_ = syscall.Kill(-cmd.Process.Pid, sig)
}
