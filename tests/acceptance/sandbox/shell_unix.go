//go:build unix && !linux

package sandbox

import (
	"os/exec"
	"syscall"
)

// shellCommand runs the server command line through /bin/sh in its own
// process group, so that a wrapper shell and its children can be stopped
// together. (On Linux the stage does this, isolate_linux.go.)
func shellCommand(line string) *exec.Cmd {
	cmd := exec.Command("/bin/sh", "-c", line)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd
}
