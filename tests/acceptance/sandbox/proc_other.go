//go:build !unix

package sandbox

import (
	"os"
	"os/exec"
)

func shellCommand(line string) *exec.Cmd {
	shell := os.Getenv("COMSPEC")
	if shell == "" {
		shell = "cmd.exe"
	}
	return exec.Command(shell, "/C", line)
}

// Terminate ends a server process started by Start: there are no process
// groups to signal here.
func Terminate(cmd *exec.Cmd) { Kill(cmd) }

// Kill ends a server process started by Start.
func Kill(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
