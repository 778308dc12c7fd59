package boundary

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"time"

	"practice-notes/boundary/seam"
)

// Root is an open notes directory: [Root.Walk] lists its notes, and
// [Root.ReadNote] and a [Reader] read them. Its methods are safe for
// concurrent use.
//
// A Root guarantees that:
//
//   - every open is confined to the directory by [os.Root], so no name,
//     symbolic link or concurrent rename can make it read a file outside;
//   - a symbolic link is never followed, even one pointing inside; on
//     Linux a walk opens a directory to list it without following a link
//     on any element of its name, and lists it only when it is the
//     directory its lstat saw (device and inode), so a directory swapped
//     for a link, or renamed over, in between is skipped, not entered;
//   - on Linux, walks and reads stay on the directory's own file system: a
//     mount point inside it (a bind mount of a directory or of one file
//     included) is skipped by a walk and refused by a read;
//   - one rule says what a note is, for a walk and a read alike: a
//     relative name that is valid UTF-8, ends in .md, .markdown or .txt,
//     holds no element starting with a dot, no "..", backslash, NUL byte
//     or drive letter, and is at most [MaxDepth] directories deep, naming a
//     regular file with exactly one hard link and at most [MaxFileSize]
//     bytes of valid UTF-8 without NUL bytes. A name is refused before any
//     system call; the file is checked on the opened file, so one swapped
//     for a link, a FIFO or a larger file between listing and opening is
//     caught;
//   - an open never blocks (a FIFO cannot stall a read) and a read never
//     takes more than MaxFileSize bytes, even from a file that is growing;
//   - a walk examines at most [MaxEntries] entries, and when a folder
//     holds more, which ones does not depend on the order the file system
//     lists them in (see [Root.Walk]);
//   - a walk or a read returns by its context's deadline even when the
//     file system never answers (a stalled network or FUSE mount), refused
//     with [ErrNotInTime]: the system call is abandoned, not waited for,
//     and while 64 abandoned calls wait on the kernel, further reads are
//     refused at once;
//   - a note's [Stamp] changes whenever its contents may have changed,
//     except for the few changes that move no time (see Stamp);
//   - a read returns what one write(2) left in the note, never part of
//     one write and part of another: a note whose size or times differ
//     after the read from before it, or whose read returned another number
//     of bytes than its size, is read again, up to three more times, and
//     then refused as changing. The times alone miss writes: a write sets
//     them before it copies its data, and on Linux 6.13 and later one that
//     follows a truncate within a clock tick may leave them as the
//     truncate set them. So on Linux a note changed in the last two
//     seconds is read only once a write in progress has ended (ext4, Btrfs
//     and tmpfs make a SEEK_DATA wait for it), then read a second time,
//     after another such wait, and the two reads must be the same bytes;
//   - on Linux, a note replaced by rename(2) while it is read is opened
//     again, up to three more times, rather than refused as missing, and
//     is refused as replaced after that;
//   - nothing is ever written, created, renamed or removed: every open is
//     read-only.
//
// It does not guarantee that:
//
//   - a note written with several writes is never read between them: it
//     then holds part of each, and that is what a read returns;
//   - a read never meets half done a store through a shared writable
//     mapping (mmap: it takes no lock, and moves no time while its page
//     stays dirty, so the note need not even be hot) or a write with
//     O_DIRECT (ext4 holds the inode lock shared for it, so SEEK_DATA does
//     not wait for it; the second read catches it only when it moved on
//     between the two reads); nor, on XFS (whose SEEK_DATA takes no lock)
//     or outside Linux, a write(2)'s copy;
//   - a directory moved out of the root while a read is resolving a name
//     below it is not followed, as it could be by os.Root itself: no
//     directory handle is kept from one read to the next;
//   - outside Linux, a symbolic link swapped in for a directory while a
//     read, or a walk's open of the directory, is in progress is not
//     followed: os.Root follows one that stays inside the root, so such a
//     race can at worst return or list another note from inside the root,
//     never leave it;
//   - outside Linux, a walk or a read stays on one file system: mounts are
//     not looked for (on Windows a mount point is a reparse point, refused
//     as every one is);
//   - an abandoned call ever returns: it holds a goroutine and a
//     descriptor until the kernel answers.
type Root struct {
	dir  string
	root *os.Root
	// dot is the root directory opened through root, kept open so that
	// notes can be opened relative to it (see openNote); dotConn reaches
	// its descriptor without switching it to blocking mode.
	dot     *os.File
	dotConn syscall.RawConn
	faults  seam.Hook // nil outside tests
	mount   rootMount
	// settle is how old a note's times must be before it is given a
	// Stamp; zero gives none (see Stamp).
	settle time.Duration
	// maxEntries is how many entries one walk examines: MaxEntries, or
	// less in tests.
	maxEntries int
	// hot is how recently a note must have been changed for a read to
	// check it before reading it: hotWindow, or shorter in tests.
	hot time.Duration
	// abandoned counts operations still running whose caller gave up at
	// its deadline (see await).
	abandoned atomic.Int64
}

// Open opens dir, made absolute once here, as a notes root. It fails when dir
// is missing, is not a directory or cannot be read. Test options are for
// this module's tests only (see package seam), and the last given applies;
// the program never passes any.
func Open(dir string, test ...seam.Options) (*Root, error) {
	var opts seam.Options
	if len(test) > 0 {
		opts = test[len(test)-1]
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	info, err := os.Stat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s does not exist", abs)
	}
	if err != nil {
		return nil, fmt.Errorf("%s cannot be read: %w", abs, bare(err))
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", abs)
	}
	r, err := os.OpenRoot(abs)
	if err != nil {
		return nil, fmt.Errorf("%s cannot be opened: %w", abs, bare(err))
	}
	// Listing the root proves it is readable now, not at the first call.
	dot, err := r.OpenFile(".", openFlags, 0)
	if err != nil {
		r.Close()
		return nil, fmt.Errorf("%s cannot be read: %w", abs, bare(err))
	}
	if _, err = dot.ReadDir(1); err != nil && !errors.Is(err, io.EOF) {
		dot.Close()
		r.Close()
		return nil, fmt.Errorf("%s cannot be read: %w", abs, bare(err))
	}
	conn, err := dot.SyscallConn()
	if err != nil {
		dot.Close()
		r.Close()
		return nil, fmt.Errorf("%s cannot be opened: %w", abs, bare(err))
	}
	root := &Root{dir: abs, root: r, dot: dot, dotConn: conn, faults: opts.Faults, maxEntries: MaxEntries, hot: hotWindow}
	if err := root.initMount(); err != nil {
		root.Close()
		return nil, fmt.Errorf("%s cannot be read: %w", abs, bare(err))
	}
	if opts.Settle > 0 {
		root.settle = opts.Settle
	}
	if opts.MaxEntries > 0 {
		root.maxEntries = opts.MaxEntries
	}
	if opts.Hot > 0 {
		root.hot = opts.Hot
	}
	return root, nil
}

// bare strips the path from a *fs.PathError, which the caller already names.
func bare(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Dir returns the absolute path of the root. It is for the operator's own
// messages; nothing sent to a client should contain it.
func (r *Root) Dir() string { return r.dir }

// Close releases the root's directory handles. No read may be in progress.
func (r *Root) Close() error {
	return errors.Join(r.closeMount(), r.dot.Close(), r.root.Close())
}
