// Package seam is how this module's tests reach into package boundary: a
// hook called before each file-system operation, to make a fault that
// cannot be made for real where tests run, and a shorter wait before notes
// are given Stamps. Of the program's packages only boundary imports it,
// for the types (TestSeamOnlyInTests in tests/script); the program never
// opens a Root with options.
package seam

import (
	"context"
	"time"
)

// Op says which file-system operation a [Hook] is called before.
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

// A Hook is called with the operation about to happen and the
// slash-separated name relative to the root. A non-nil error is used as the
// operating system's answer to that operation (and, like one, never shown
// to a client: only the reason it maps to is). A hook may also sleep (to
// make a slow file system), change the tree (to make a race happen at an
// exact moment) or panic. It is called concurrently, from every goroutine
// that reads through the Root.
type Hook func(ctx context.Context, op Op, name string) error

// Options is what a test may set on a Root it opens with boundary.Open.
type Options struct {
	// Faults, when not nil, is called just before the Root lists a
	// directory, just before it reads a note, and between opening a note
	// and checking it. Some faults cannot be made for real where tests
	// run: as root, a file with mode 000 is still readable; a file cannot
	// be made to vanish at an exact moment between a walk and a read; a
	// read cannot be made to panic.
	Faults Hook
	// Settle, when not zero, is how old a note's times must be before it
	// is given a Stamp, in place of the kernel's writeback window (a
	// minute or more; see boundary.Stamp): tests cannot wait that long for
	// the notes they write. A shorter one lets a store into a dirty page
	// go unseen.
	Settle time.Duration
	// MaxEntries, when not zero, is how many entries one walk examines,
	// in place of boundary.MaxEntries, so that a test can reach the limit
	// without making 50,000 files.
	MaxEntries int
	// Hot, when not zero, is how recently a note must have been changed
	// for a read to check it before reading it and to wait for a write in
	// progress, in place of two seconds: a test that writes a note cannot
	// otherwise read it as a note changed long ago, without waiting.
	Hot time.Duration
}
