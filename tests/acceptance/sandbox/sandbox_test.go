package sandbox

import (
	"os"
	"testing"
)

// TestMain enters the sandbox's stage when the test binary was started as
// one (by the tests below, through New), and runs the test program when
// a test started it as a server (testProgram).
func TestMain(m *testing.M) {
	Main()
	if v, ok := os.LookupEnv(testProgramKey); ok {
		os.Exit(testProgram(v))
	}
	os.Exit(m.Run())
}

// testProgramKey chooses what the test binary does when a test runs it as
// a server: "take N" allocates and touches N MiB, then waits 3 s;
// "reserve N" maps N GB of address space, writable and never touched, as
// runtimes do at start (Bun 1.3 about 70 GB), and exits.
const testProgramKey = "SANDBOX_TEST_PROGRAM"
