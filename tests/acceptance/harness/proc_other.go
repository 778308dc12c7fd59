//go:build !unix

package harness

import (
	"errors"
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

func signalGroup(cmd *exec.Cmd, kill bool) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}

func mkfifo(p string) error { return errors.New("FIFOs are not supported on this system") }

func unreadableFilesPossible() bool { return false }
