package main

import (
	"os"
	"syscall"
)

// maxRSSKiB returns the exited process's ru_maxrss, which macOS counts in
// bytes, in KiB.
func maxRSSKiB(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss / 1024
	}
	return 0
}
