//go:build unix

// Package pageend gives tests memory that ends at an unreadable page, so
// that code reading past the end of a slice faults instead of reading on
// unnoticed. It is test support only.
package pageend

import (
	"os"
	"syscall"
	"testing"
)

// Page returns one writable page of memory followed by a page that cannot
// be read: page[len(page)-n:] is n bytes that end where reading must stop.
// The memory is unmapped when the test ends.
func Page(tb testing.TB) []byte {
	tb.Helper()
	size := os.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 2*size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { syscall.Munmap(mem) })
	if err := syscall.Mprotect(mem[size:], syscall.PROT_NONE); err != nil {
		tb.Fatal(err)
	}
	return mem[:size:size]
}
