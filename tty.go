package main

import (
	"os"

	"golang.org/x/term"
)

// isTerminal reports whether f is a terminal. A character device is not
// necessarily one (NUL on Windows, /dev/null everywhere), so the terminal
// itself is asked: term.IsTerminal makes the terminal ioctl on unix and
// calls GetConsoleMode on Windows.
func isTerminal(f *os.File) bool {
	// Control reaches the descriptor without Fd's switch to blocking mode.
	conn, err := f.SyscallConn()
	if err != nil {
		return false
	}
	var tty bool
	if err := conn.Control(func(fd uintptr) { tty = term.IsTerminal(int(fd)) }); err != nil {
		return false
	}
	return tty
}

// waitingHint is the line serve prints when a person rather than a client
// started it, at a terminal on the system goos: end of input stops the
// server, and a Windows console ends input with Ctrl-Z then Enter.
func waitingHint(goos string) string {
	key := "Ctrl-D"
	if goos == "windows" {
		key = "Ctrl-Z then Enter"
	}
	return "practice-notes: waiting for an MCP client on stdin (press " + key + " to stop); to try a search, run: practice-notes search sign-in"
}
