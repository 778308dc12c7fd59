package main

import (
	"os"
	"runtime/debug"
)

// memoryLimit is the soft limit on the memory the Go runtime holds for a
// server. The heap a server keeps is bounded (the summaries of at most
// 8,192 notes, about 9.3 MiB; see search.Summaries) and a call's own
// memory follows the number of notes listed, at most boundary.MaxEntries;
// with the collector's default pacing the heap may grow to twice what is
// live, so the limit makes it collect sooner instead, and the resident
// size stays flat as the folder grows.
const memoryLimit = 24 << 20

// limitMemory sets memoryLimit, unless the operator chose a limit with
// GOMEMLIMIT.
func limitMemory() {
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(memoryLimit)
	}
}
