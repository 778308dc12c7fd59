//go:build !unix

package truth

import "errors"

func mkfifo(string) error { return errors.New("FIFOs are not supported on this system") }
