package sandbox

import "sync/atomic"

// mainCalled is set once by Main and read by New: a program that forgot
// Main would, as its own stage, run itself again instead of the server.
var mainCalled atomic.Bool

// Main must be the first call of main in every program that makes a
// Sandbox (of TestMain in a test binary). The stage and the probe are that
// program started again by the sandbox, chosen by a variable of their
// environment: there Main runs them and exits, and the program's own main
// never runs. In the program itself Main returns at once.
func Main() {
	runIfAsked()
	mainCalled.Store(true)
}
