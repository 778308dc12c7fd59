//go:build unix

package boundary

import (
	"syscall"
	"testing"
)

// mkfifo makes a FIFO at path, a file that is not regular and whose open
// would block without O_NONBLOCK.
func mkfifo(t testing.TB, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
}
