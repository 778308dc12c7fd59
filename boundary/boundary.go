// Package boundary is the only code in practice-notes that touches the file
// system. A [Root] lists and reads the notes under one directory, read-only,
// and never a file outside it; its doc says what it guarantees and what it
// does not.
//
// Errors never carry an absolute path or an operating-system message: a
// refusal is an [*Error] naming the file relative to the root and giving
// one reason, whose text is what a client is shown. Callers match
// [ErrNotFound] and [ErrNotInTime] with [errors.Is]; the other reasons are
// only shown.
package boundary

import (
	"errors"
	"fmt"
)

// Limits of one walk and one read.
const (
	// MaxFileSize is the largest note, in bytes, that is ever read.
	MaxFileSize = 102400
	// MaxDepth is how many directories below the root a walk descends.
	MaxDepth = 16
	// MaxEntries is how many directory entries one walk examines before it
	// stops; it bounds the cost of one call however large the tree is.
	MaxEntries = 50000
)

// ErrNotFound is the reason given for a name that names nothing.
var ErrNotFound = errors.New("no such note")

// Reasons a file is refused. Each is the text shown to a client.
var (
	errInvalidName = errors.New("not a relative path inside the root")
	errSymlink     = errors.New("symbolic link (not followed)")
	errHardLinks   = errors.New("has other hard links")
	errTooLarge    = errors.New("larger than the 100 KiB file limit")
	errNotRegular  = errors.New("not a regular file")
	errNotText     = errors.New("not text (invalid UTF-8 or NUL bytes)")
	errChanging    = fmt.Errorf("changed while it was read, %d times in a row", maxRereads+1)
	errNotNote     = errors.New("not a note (only .md, .markdown and .txt files are read)")
	errHidden      = errors.New("hidden (a name on its path starts with a dot)")
	errMountPoint  = errors.New("on another file system (mount points inside the root are not crossed)")
	errTooDeep     = fmt.Errorf("deeper than the walk limit of %d directories", MaxDepth)
	errUnreadable  = errors.New("could not be read")
	errNameNotUTF8 = errors.New("name is not valid UTF-8")
	errReplaced    = fmt.Errorf("replaced by another file (renamed over it) each time it was opened, %d times in a row", maxRereads+1)
	errDirReplaced = errors.New("replaced by another directory or a link while it was listed")
	errNameTooLong = fmt.Errorf("name longer than the system opens (%d bytes, %d an element)", maxNameBytes, maxElemBytes)
)

// Error reports why one file was refused. Its message holds only the name
// relative to the root and the reason; the underlying operating-system error
// is kept for [errors.Is] and [errors.As] but never printed, because it may
// carry an absolute path.
type Error struct {
	Name   string // slash-separated, relative to the root; may be invalid input
	Reason error  // one of the reasons of this package, such as ErrNotFound
	cause  error
}

func (e *Error) Error() string {
	return fmt.Sprintf("%q: %v", e.Name, e.Reason)
}

func (e *Error) Unwrap() []error {
	if e.cause == nil {
		return []error{e.Reason}
	}
	return []error{e.Reason, e.cause}
}

func refuse(name string, reason, cause error) error {
	return &Error{Name: name, Reason: reason, cause: cause}
}
