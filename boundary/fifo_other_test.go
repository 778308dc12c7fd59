//go:build !unix

package boundary

import "testing"

// mkfifo skips the test: FIFOs in a directory are a unix file type.
func mkfifo(t testing.TB, _ string) {
	t.Helper()
	t.Skip("needs a FIFO in a directory, which this system does not have")
}
