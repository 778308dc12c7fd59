//go:build !unix

package record

func mkfifo(string) error { return errNoFIFO }
