//go:build unix

package harness

import "syscall"

// unreadableFilesPossible reports whether a mode-000 file would stop this
// process from reading it (not so for root).
func unreadableFilesPossible() bool { return syscall.Geteuid() != 0 }
