//go:build !unix

package sandbox

import "os/exec"

// Terminate ends a server process started by Start: there are no process
// groups to signal here.
func Terminate(cmd *exec.Cmd) { Kill(cmd) }

// Kill ends a server process started by Start.
func Kill(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
