//go:build !linux

package sandbox

import "time"

// TreeUsage reads nothing here: without /proc the CPU time of a process
// tree is not known (ok is false).
func TreeUsage(pid int) (u Usage, ok bool) { return Usage{}, false }

// TreeCPU reads nothing here either (ok is false).
func TreeCPU(pid int) (cpu time.Duration, ok bool) { return 0, false }
