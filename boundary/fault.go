package boundary

import (
	"context"
	"time"
)

// Op says which file-system operation a [FaultHook] is called before.
type Op int

const (
	// ListDir is about to list a directory, already opened; the name is
	// "." for the root.
	ListDir Op = iota + 1
	// ReadFile is about to open and read a note.
	ReadFile
	// Opened has opened a note and is about to check what it opened.
	Opened
)

// A FaultHook is called with the operation about to happen and the
// slash-separated name relative to the root. A non-nil error is used as the
// operating system's answer to that operation (and, like one, never shown
// to a client: only the reason it maps to is). A hook may also sleep (to
// make a slow file system), change the tree (to make a race happen at an
// exact moment) or panic. It is called concurrently, from every goroutine
// that reads through the Root.
type FaultHook func(ctx context.Context, op Op, name string) error

// Options holds what [OpenOptions] can set beyond [Open]'s defaults.
type Options struct {
	// Faults, when not nil, is called just before the Root lists a
	// directory, just before it reads a note, and between opening a note
	// and checking it. It is for tests: some faults cannot be made for real
	// where tests run (as root, a file with mode 000 is still readable, and
	// a file cannot be made to vanish at an exact moment between a walk and
	// a read). The program itself never sets it, and a Root without one
	// makes no call.
	Faults FaultHook
	// Settle, when not zero, is how old a note's times must be before it
	// is given a Stamp, in place of the kernel's writeback window (a
	// minute or more; see Stamp). It is for tests, which cannot wait that
	// long for the notes they write; a shorter one lets a store into a
	// dirty page go unseen. The program itself never sets it.
	Settle time.Duration
}

// fault runs the installed hook, if any.
func (r *Root) fault(ctx context.Context, op Op, name string) error {
	if r.faults == nil {
		return nil
	}
	return r.faults(ctx, op, name)
}
