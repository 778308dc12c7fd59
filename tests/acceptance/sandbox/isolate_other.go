//go:build !linux

package sandbox

import (
	"context"
	"os/exec"
	"runtime"
)

func (sb *Sandbox) Command(line string) *exec.Cmd {
	cmd := shellCommand(line)
	cmd.Dir = sb.dir // "": the current folder
	return cmd
}

func probeIsolation(context.Context, *Sandbox) (bool, string) {
	return false, "process group only: private namespaces exist only on Linux, not " + runtime.GOOS + "; the server ran with the grader's rights and network, HOME and TMPDIR pointed at fresh folders; no limits (the harness sets them on Linux only)"
}
