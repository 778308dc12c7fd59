package sandbox

import (
	"os"
	"os/exec"
	"syscall"
)

// shellCommand runs the server command line through cmd.exe. The line is
// handed over as written: Go would quote it as one argument, escaping
// its double quotes with backslashes, which cmd.exe does not undo, so a
// quoted path (a {root} with a space) would reach the server with its
// quotes. /S makes cmd.exe strip only the outer pair.
func shellCommand(line string) *exec.Cmd {
	shell := os.Getenv("COMSPEC")
	if shell == "" {
		shell = "cmd.exe"
	}
	cmd := exec.Command(shell)
	cmd.SysProcAttr = &syscall.SysProcAttr{CmdLine: `"` + shell + `" /S /C "` + line + `"`}
	return cmd
}
