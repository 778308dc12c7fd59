package sandbox

import "time"

// Usage is what a process tree has used so far (TreeUsage).
type Usage struct {
	// CPU is the user and system time of its processes.
	CPU time.Duration
	// Queued is how long its live threads have waited, runnable, for a
	// CPU since each started: the kernel's run delay. Much of a limit
	// spent queued means the machine, not the server, was the bottleneck.
	// 0 where the kernel does not keep it.
	Queued time.Duration
	// Running is set when one of its threads is running or runnable now.
	Running bool
}
