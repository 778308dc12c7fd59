//go:build !linux

package sandbox

import (
	"fmt"
	"os"
)

// testProgram exists on Linux only, where the sandbox runs servers.
func testProgram(string) int {
	fmt.Fprintln(os.Stderr, "the test program runs on Linux only")
	return 2
}
