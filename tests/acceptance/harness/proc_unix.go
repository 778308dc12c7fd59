//go:build unix

package harness

import (
	"os/exec"
	"syscall"
)

// shellCommand runs the server command line through /bin/sh in its own
// process group, so that a wrapper shell and its children can be stopped
// together.
func shellCommand(line string) *exec.Cmd {
	cmd := exec.Command("/bin/sh", "-c", line)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd
}

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
