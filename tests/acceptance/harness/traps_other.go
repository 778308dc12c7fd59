//go:build !unix

package harness

import "errors"

func mkfifo(string) error { return errors.New("FIFOs are not supported on this system") }

func unreadableFilesPossible() bool { return false }
