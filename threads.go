package main

import (
	"os"
	"runtime"
	"sync"
)

// fewNotes is the most notes a folder may hold for the server to run Go
// code on one thread.
//
// A search over a few notes is a handful of system calls. On more than one
// P, most of a call's time goes to waking threads: each hand-over between
// goroutines (the stdio reader's, the SDK's handler and writer, the
// search's own) may wake an idle P's thread, a futex call and, on a virtual
// machine, often an interrupt to another CPU. On one P they are goroutine
// switches on one thread, and a call over one small note takes about a
// quarter less time (see docs/bench.md). A search over many notes needs
// every core to read them.
const fewNotes = 64

// A threadFit sets GOMAXPROCS after each search from the number of notes
// the search listed: 1 for at most fewNotes, the runtime's default above.
// It changes the setting only when a search lands on the other side of
// fewNotes than the one before, since a change stops the world for a
// moment. A nil *threadFit leaves GOMAXPROCS alone.
type threadFit struct {
	mu  sync.Mutex
	one bool // GOMAXPROCS was set to 1
}

// newThreadFit returns a threadFit, or nil when the operator chose
// GOMAXPROCS.
func newThreadFit() *threadFit {
	if _, set := os.LookupEnv("GOMAXPROCS"); set {
		return nil
	}
	return &threadFit{}
}

// fit sets GOMAXPROCS for a folder of listed notes.
func (t *threadFit) fit(listed int) {
	if t == nil {
		return
	}
	one := listed <= fewNotes
	t.mu.Lock()
	defer t.mu.Unlock()
	if one == t.one {
		return
	}
	t.one = one
	if one {
		runtime.GOMAXPROCS(1)
	} else {
		runtime.SetDefaultGOMAXPROCS()
	}
}
