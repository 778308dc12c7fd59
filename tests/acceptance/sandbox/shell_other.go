//go:build !unix && !windows

package sandbox

import "os/exec"

// shellCommand runs the server command line through the system's shell.
func shellCommand(line string) *exec.Cmd { return exec.Command("sh", "-c", line) }
