package main

import (
	"os"
	"runtime/debug"
)

// The collector is paced by a soft memory limit more than by the growth of
// the heap. The heap a server keeps is bounded (the summaries of at most
// 8,192 notes, about 9.3 MiB; see search.Summaries) and a call's own
// memory follows the number of notes listed, at most boundary.MaxEntries.
// With the default pacing (GOGC=100) a call over thousands of notes
// collects several times while it runs, and the heap may still grow to
// twice what is live. Collecting only when the heap has grown fivefold, or
// reached memoryLimit, spares a call most collections, and the limit keeps
// the resident size flat as the folder grows.
const (
	memoryLimit = 24 << 20
	gcPercent   = 400
)

// tuneGC sets memoryLimit and gcPercent, each unless the operator chose it
// with GOMEMLIMIT or GOGC.
func tuneGC() {
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(memoryLimit)
	}
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(gcPercent)
	}
}
