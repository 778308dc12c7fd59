//go:build !unix

package checks

import "errors"

func mkfifo(string) error { return errors.New("FIFOs are not supported on this system") }
