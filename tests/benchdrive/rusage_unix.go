//go:build unix && !darwin

package main

import (
	"os"
	"syscall"
)

// maxRSSKiB returns the exited process's ru_maxrss, which these systems
// count in KiB.
func maxRSSKiB(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return int64(ru.Maxrss)
	}
	return 0
}
