// Package boundary is the only code in practice-notes that touches the file
// system. It hands out the text of notes stored under one root directory and
// guarantees that:
//
//   - every open is confined to the root by [os.Root], so no name, symbolic
//     link or concurrent rename can make it read a file outside the root;
//   - a name is refused before any system call when it is empty, absolute,
//     has a drive letter, or contains "..", a backslash or a NUL byte;
//   - a symbolic link is never followed, even one pointing inside the root;
//   - walks and reads stay on the root's own file system: on Linux a mount
//     point inside the root (a bind mount of a directory or of one file
//     included) is skipped by a walk and refused by a read, the kernel
//     refusing to cross it (openat2 with RESOLVE_NO_XDEV) where it can;
//   - one rule says what a note is, for a walk and a read alike: a name
//     ending in .md, .markdown or .txt, with no element starting with a dot,
//     at most [MaxDepth] directories below the root, naming a regular file
//     (see [checkName] and the next point);
//   - only regular files with exactly one hard link and at most [MaxFileSize]
//     bytes of valid UTF-8 without NUL bytes are returned, and this is
//     checked on the opened file, so a file swapped for a link, a FIFO or a
//     larger file between listing and opening is caught;
//   - opens never block (a FIFO cannot stall a read) and a read never takes
//     more than [MaxFileSize] bytes, even from a file that is growing;
//   - a read or a walk returns by its context's deadline even when the file
//     system never answers (a stalled network or FUSE mount): the system
//     call is abandoned, not waited for, and refused with [ErrNotInTime];
//     at most 64 abandoned calls per root wait on the kernel at a time;
//   - a walk and a read give each note a [Stamp] (on Linux, on local file
//     systems of an allow-list, once its times are older than the kernel's
//     writeback window, a minute or more) that changes whenever its
//     contents may have changed, except for the few changes that move no
//     time (see Stamp), so a caller may keep what it learned from a note
//     while its Stamp stays the same, for a bounded time;
//   - nothing is ever written, created, renamed or removed: every open is
//     read-only.
//
// Errors never carry an absolute path or an operating-system message: they
// name the file relative to the root and give one of the reasons below, which
// callers match with [errors.Is].
//
// How a note is opened: on Linux, its whole name is opened in one openat2
// call relative to a handle on the root that [os.Root] opened, the kernel
// refusing to follow a link, cross a mount or leave the root on any
// element (RESOLVE_NO_SYMLINKS, RESOLVE_NO_XDEV, RESOLVE_BENEATH); without
// openat2, each element is opened with O_NOFOLLOW relative to the directory
// before it, from the same handle, and must be on the root's own mount (by
// mount ID, or else by the mount table). Either way no link on the way is ever
// followed, atomically with the open, and the note is checked with fstat on
// the opened file.
// Elsewhere a note is read through [os.Root] after an Lstat of each
// directory on the way and of the note, and the opened file must be the one
// that Lstat saw.
//
// What it does not guarantee: on Linux, a directory moved out of the root
// while one read is resolving its name could be followed, as it
// could by [os.Root] itself; no directory handle is kept from one read to
// the next. Elsewhere, [os.Root] follows a symbolic link that stays inside
// the root if one is swapped in for a directory while a read is in
// progress; such a race can at worst return another note from inside the
// root, never leave it.
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

// Reasons a file is refused. Each is the text shown to a client.
var (
	errInvalidName = errors.New("not a relative path inside the root")
	ErrNotFound    = errors.New("no such note")
	errSymlink     = errors.New("symbolic link (not followed)")
	errHardLinks   = errors.New("has other hard links")
	errTooLarge    = errors.New("larger than the 100 KiB file limit")
	errNotRegular  = errors.New("not a regular file")
	errNotText     = errors.New("not text (invalid UTF-8 or NUL bytes)")
	errNotNote     = errors.New("not a note (only .md, .markdown and .txt files are read)")
	errHidden      = errors.New("hidden (a name on its path starts with a dot)")
	errMountPoint  = errors.New("on another file system (mount points inside the root are not crossed)")
	errTooDeep     = fmt.Errorf("deeper than the walk limit of %d directories", MaxDepth)
	errUnreadable  = errors.New("could not be read")
	errNameNotUTF8 = errors.New("name is not valid UTF-8")
	errNameTooLong = fmt.Errorf("name longer than the system opens (%d bytes, %d an element)", maxNameBytes, maxElemBytes)
)

// Error reports why one file was refused. Its message holds only the name
// relative to the root and the reason; the underlying operating-system error
// is kept for [errors.Is] and [errors.As] but never printed, because it may
// carry an absolute path.
type Error struct {
	Name   string // slash-separated, relative to the root; may be invalid input
	Reason error  // one of the Err* values of this package
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
