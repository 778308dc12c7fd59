//go:build unix

package main

import "syscall"

// makeEntry makes a directory entry at path as cheaply as it can be made:
// a FIFO, one system call.
func makeEntry(path string) error { return syscall.Mkfifo(path, 0o644) }
