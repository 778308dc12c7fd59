//go:build unix

package harness

import (
	"os/exec"
	"syscall"
)

func signalGroup(cmd *exec.Cmd, kill bool) {
	if cmd.Process == nil {
		return
	}
	sig := syscall.SIGTERM
	if kill {
		sig = syscall.SIGKILL
	}
	// Negative pid: the whole process group started for this server only.
	_ = syscall.Kill(-cmd.Process.Pid, sig)
}

func mkfifo(p string) error { return syscall.Mkfifo(p, 0o644) }

// unreadableFilesPossible reports whether a mode-000 file would stop this
// process from reading it (not so for root).
func unreadableFilesPossible() bool { return syscall.Geteuid() != 0 }
