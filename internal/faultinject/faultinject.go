// Package faultinject is a test seam for package boundary. Some file-system
// faults cannot be made for real where the tests run: the tests run as root,
// so a file with mode 000 is still readable, and a file cannot be made to
// vanish at an exact moment between a walk and an open. A test installs a
// [Hook] with [Set]; boundary calls [Check] just before it lists a directory
// and just before it reads a note, and treats an error from the hook as the
// operating system's answer.
//
// With no hook installed, [Check] is one atomic load and returns nil. Only
// tests install hooks; the program never does.
package faultinject

import (
	"context"
	"sync/atomic"
)

// Op says which file-system operation is about to happen.
type Op int

const (
	// ListDir is about to open and list a directory; the name is "." for
	// the root.
	ListDir Op = iota + 1
	// ReadFile is about to open and read a note.
	ReadFile
)

func (op Op) String() string {
	switch op {
	case ListDir:
		return "list"
	case ReadFile:
		return "read"
	}
	return "unknown"
}

// Hook is called with the operation and the slash-separated name relative
// to the root. A non-nil error is used as the operation's failure. A hook
// may also sleep (to make a slow file system), change the tree (to make a
// race happen at an exact moment) or panic. It is called concurrently.
type Hook func(ctx context.Context, op Op, name string) error

var hook atomic.Pointer[Hook]

// Set installs h and returns a function that removes it. Tests that call Set
// must not run in parallel with other tests that read notes.
func Set(h Hook) (restore func()) {
	hook.Store(&h)
	return func() { hook.Store(nil) }
}

// Check runs the installed hook, if any.
func Check(ctx context.Context, op Op, name string) error {
	if h := hook.Load(); h != nil {
		return (*h)(ctx, op, name)
	}
	return nil
}
