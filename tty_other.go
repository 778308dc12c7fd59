//go:build !linux

package main

import "os"

// isTerminal reports whether f is a character device, which a terminal is;
// elsewhere than on Linux /dev/null counts too, and only costs a hint on
// stderr.
func isTerminal(f *os.File) bool {
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
