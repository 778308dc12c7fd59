package boundary

import (
	"context"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"practice-notes/boundary/seam"
)

// noteFlags open a note or a directory on the way to one: read-only, never
// blocking (a FIFO cannot stall a read), never following a symbolic link
// (a link gives ELOOP, atomically with the open), never becoming the
// controlling terminal, and closed on exec.
const noteFlags = syscall.O_RDONLY | syscall.O_NONBLOCK | syscall.O_NOFOLLOW |
	syscall.O_NOCTTY | syscall.O_CLOEXEC

// readNote reads the note called name, a checked name, with four system
// calls (openat2, read, fstat, close) when it is the very file seen
// describes, unchanged, and otherwise with a second lookup of its name and
// a fstat before the read: two more calls for a note in the root, four
// more per directory on the way.
//
// Where the kernel has openat2 (Linux 5.6 and later), name is opened in one
// call relative to the root's own handle, which os.Root opened, with
// RESOLVE_BENEATH, RESOLVE_NO_SYMLINKS and RESOLVE_NO_XDEV: the kernel
// refuses to follow a link or cross a mount on any element, or to leave
// the tree below the handle. Elsewhere each element of name is opened with
// O_NOFOLLOW relative to the directory opened before it, starting from the
// same handle, and each element opened must be on the root's own mount
// (see stayOnMount), as RESOLVE_NO_XDEV makes sure. An element is one name inside its directory, never "." or
// ".." and never holding a "/" (checkName), and a link is never followed,
// so every step stays inside the tree below the root handle: this is the
// walk os.Root itself makes, without following links. As with os.Root, a
// directory moved out of the root while this one read is resolving its
// name could be followed; no handle is kept from one read to the next.
//
// What is read is then checked on the opened file itself, with fstat:
// a regular file of at most MaxFileSize bytes with one hard link. The link
// count alone can be fooled: a hard link to a file outside the root, opened
// and then removed, leaves the open file with one link. So the opened file
// must be known to be the one listed in the root:
//
//   - seen, when not zero, is a walk's lstat of name, made through the
//     root's handles, of a regular file with one link. When the opened
//     file has the same device, inode, size, modification time and change
//     time, it is that file, listed inside the root, and nothing has
//     linked, unlinked, renamed or written it since: each of those sets
//     the change time anew. A hard link made from outside after the walk
//     is such a change, and so is one removed right after the open. When
//     seen is older than hotWindow, the note is read before this check,
//     by the fstat that follows the read: what was read is used only once
//     the check has passed, and is otherwise read again after the steps
//     below, or refused. (So a file swapped in for the note between the
//     walk and the open may be read into the buffer, never returned: a
//     FIFO's reader never blocks, and making a device node takes
//     privileges.)
//   - Otherwise the name is looked up again (lstat through os.Root) and
//     must still name this very file, with one link.
//
// When stamp is not nil, it is set to the Stamp of the opened file, taken
// before it is read: a write during the read changes the file's Stamp, and
// the note is then read again (see readChecked).
//
// A note replaced by rename(2) is there all along, but the file opened may
// have been renamed over again before the lookup that checks it: the name
// then names another file than the one opened. The note is then opened
// afresh, without the walk's lstat, up to maxRereads more times, and
// refused with errReplaced after that.
func (r *Root) readNote(ctx context.Context, name string, seen Stamp, buf []byte, stamp *Stamp) ([]byte, error) {
	for try := 0; ; try++ {
		data, err := r.readOpened(ctx, name, seen, buf, stamp)
		if be, ok := err.(*Error); try == maxRereads || !ok || be.Reason != errReplaced {
			return data, err
		}
		seen = Stamp{}
	}
}

// readOpened is one attempt of readNote: it opens name and reads it.
func (r *Root) readOpened(ctx context.Context, name string, seen Stamp, buf []byte, stamp *Stamp) ([]byte, error) {
	fd, err := r.openNote(name, noteFlags)
	if err != nil {
		return nil, refuse(name, classify(err), err)
	}
	defer syscall.Close(fd)
	if err := r.fault(ctx, seam.Opened, name); err != nil {
		return nil, refuse(name, classify(err), err)
	}
	var st syscall.Stat_t
	// fstatChecked takes the opened file's version, and refuses it as a
	// read must.
	fstatChecked := func() (Stamp, int64, error) {
		if err := ignoringEINTR(func() error { return syscall.Fstat(fd, &st) }); err != nil {
			return Stamp{}, 0, refuse(name, errUnreadable, err)
		}
		switch {
		case uint64(st.Dev) != r.mount.dev:
			return Stamp{}, 0, refuse(name, errMountPoint, nil)
		case st.Mode&syscall.S_IFMT != syscall.S_IFREG:
			return Stamp{}, 0, refuse(name, errNotRegular, nil)
		case st.Size > MaxFileSize:
			return Stamp{}, 0, refuse(name, errTooLarge, nil)
		case st.Nlink > 1:
			return Stamp{}, 0, refuse(name, errHardLinks, nil)
		}
		return statStamp(&st), st.Size, nil
	}
	// The walk's lstat, seen, can stand for the version before the first
	// read: when the fstat after it gives the very same version, the file
	// read is the one the walk listed, with nothing linked, renamed or
	// written since (each sets the change time), and the read holds one
	// version of it. A note changed too recently for that (a write may
	// still be copying its data) is checked before it is read, as any
	// note without a walk's lstat is.
	optimistic := seen != (Stamp{}) && !r.hotStamp(seen)
	var (
		v    Stamp
		size int64
	)
	if optimistic {
		v, size = seen, seen.size
	} else {
		if v, size, err = fstatChecked(); err != nil {
			return nil, err
		}
		if seen == (Stamp{}) || v != seen {
			if err := r.sameAsName(name, &st); err != nil {
				return nil, err
			}
		}
	}
	// version is fstatChecked, which, after a read made on the walk's
	// lstat alone that finds the file different, first makes the lookup
	// of its name that any other version of it needs.
	version := func() (Stamp, int64, error) {
		after, size, err := fstatChecked()
		if err == nil && optimistic && after != seen {
			optimistic = false
			if err := r.sameAsName(name, &st); err != nil {
				return Stamp{}, 0, err
			}
		}
		return after, size, err
	}
	read := func(p []byte) (n int, err error) {
		err = ignoringEINTR(func() error {
			n, err = syscall.Read(fd, p)
			return err
		})
		return max(n, 0), err
	}
	rewind := func() error {
		_, err := syscall.Seek(fd, 0, io.SeekStart)
		return err
	}
	// A note written while it is read is read again (see readChecked): st
	// is then the fstat taken before the read that is returned.
	wait := func(v Stamp) bool {
		if !r.hotStamp(v) {
			return false
		}
		// ext4 and Btrfs take the inode's lock, which a write holds
		// from before it sets the times until its data is copied in,
		// to find data: this returns once a write in progress has
		// ended. What it finds is of no interest.
		ignoringEINTR(func() error {
			_, err := syscall.Seek(fd, 0, seekData)
			return err
		})
		return true
	}
	data, _, err := readChecked(name, read, rewind, version, v, size, buf, wait)
	if err == nil && stamp != nil {
		*stamp = r.stamp(&st, time.Now())
	}
	return data, err
}

// seekData is lseek's SEEK_DATA.
const seekData = 3

// hotStamp reports whether a note of version v was changed within the
// Root's hot window (hotWindow), or has times in the future.
func (r *Root) hotStamp(v Stamp) bool {
	limit := time.Now().Add(-r.hot).UnixNano()
	return v.mtime > limit || v.ctime > limit
}

// sameAsName looks name up again and refuses the read unless it still
// names the opened file, st, with one link.
func (r *Root) sameAsName(name string, st *syscall.Stat_t) error {
	// os.Root's Lstat of a note in the root is one fstatat on the root
	// handle; a nested one also reopens its directories, any swap of which
	// shows as a different file here.
	info, err := r.root.Lstat(filepath.FromSlash(name))
	if err != nil {
		return refuse(name, classify(err), err)
	}
	at, ok := info.Sys().(*syscall.Stat_t)
	switch {
	case info.Mode()&fs.ModeSymlink != 0:
		return refuse(name, errSymlink, nil)
	case !ok || at.Dev != st.Dev || at.Ino != st.Ino:
		return refuse(name, errReplaced, nil) // renamed over since it was opened
	case at.Nlink > 1:
		return refuse(name, errHardLinks, nil)
	}
	return nil
}

// An opening is what opening one note with openat2 needs: made once and
// kept in a pool, so a read allocates none of it.
type opening struct {
	path  []byte // the name, NUL-terminated
	flags int    // for its last element
	fd    int
	err   error
	open  func(dot uintptr) // openat2 of path relative to dot, into fd and err
}

// openNote opens name, as readNote describes, with the flags last
// (noteFlags, and perhaps O_DIRECTORY) for its last element, and returns
// its descriptor.
func (r *Root) openNote(name string, last int) (int, error) {
	if r.mount.xdev {
		// One call resolves every element, with the same rules as the
		// loop below: no link followed, no mount crossed, nothing above
		// the root.
		o, _ := r.mount.openings.Get().(*opening)
		if o == nil {
			o = &opening{}
			o.open = func(dot uintptr) { o.fd, o.err = openat2Ptr(int(dot), &o.path[0], o.flags) }
		}
		defer r.mount.openings.Put(o)
		if strings.IndexByte(name, 0) >= 0 {
			return -1, syscall.EINVAL
		}
		o.path = append(append(o.path[:0], name...), 0)
		o.flags = last
		if cerr := r.dotConn.Control(o.open); cerr != nil {
			return -1, cerr
		}
		fd, err := o.fd, o.err
		if err == syscall.EXDEV && r.movedOut(name) {
			err = syscall.ENOENT
		}
		return fd, err
	}
	flags := last
	elem, rest, more := strings.Cut(name, "/")
	if more {
		flags = noteFlags | syscall.O_DIRECTORY
	}
	var fd int
	var err error
	// Control holds the root handle open while the first element is
	// opened relative to it, and leaves it in non-blocking mode.
	if cerr := r.dotConn.Control(func(dot uintptr) { fd, err = r.openat(int(dot), elem, flags) }); cerr != nil {
		return -1, cerr
	}
	// Every element opened must be on the root's own mount, as openat2
	// makes sure of with RESOLVE_NO_XDEV: a bind mount of the root's file
	// system keeps its device number, so only its mount ID tells it.
	fd, err = r.stayOnMount(fd, err)
	for err == nil && more {
		dir := fd
		elem, rest, more = strings.Cut(rest, "/")
		flags = last
		if more {
			flags = noteFlags | syscall.O_DIRECTORY
		}
		fd, err = r.openat(dir, elem, flags)
		syscall.Close(dir)
		fd, err = r.stayOnMount(fd, err)
	}
	if err == nil {
		if err = r.checkMountFallback(name); err != nil {
			syscall.Close(fd)
		}
	}
	if err == syscall.ENOTDIR {
		// Linux gives ENOTDIR, not ELOOP, for a link opened with
		// O_DIRECTORY|O_NOFOLLOW. Only the reason given is at stake here:
		// the open has already failed.
		done := name[:len(name)-len(rest)]
		if more {
			done = done[:len(done)-1] // without the "/" before rest
		}
		if info, lerr := r.root.Lstat(filepath.FromSlash(done)); lerr == nil && info.Mode()&fs.ModeSymlink != 0 {
			err = syscall.ELOOP
		}
	}
	if err != nil {
		return -1, err
	}
	return fd, nil
}

// stayOnMount passes on the result of opening one element on the fallback
// path, fd and err, unless fd is on another mount than the root: fd is
// then closed and the open fails with EXDEV, as openat2 fails.
func (r *Root) stayOnMount(fd int, err error) (int, error) {
	if err != nil {
		return fd, err
	}
	on, err := r.onRootMount(fd)
	if err == nil && !on {
		err = syscall.EXDEV
	}
	if err != nil {
		syscall.Close(fd)
		return -1, err
	}
	return fd, nil
}

// movedOut tells the two causes of an EXDEV from openat2 apart. Besides a
// mount point, RESOLVE_BENEATH answers EXDEV when a directory on the way
// was moved out of the tree while name was being resolved: the kernel
// checks that what it found is still below the root. It is a mount only
// when the mount table shows one on name's path, or name, looked up again,
// is on another device; otherwise the note was moved away, and is not
// there. Without the mount table it cannot tell, and reports false.
func (r *Root) movedOut(name string) bool {
	if r.mount.real == "" {
		return false
	}
	mounts := r.mountPoints()
	for i := range len(name) + 1 {
		if (i == len(name) || name[i] == '/') && mounts[name[:i]] {
			return false
		}
	}
	info, err := r.root.Lstat(filepath.FromSlash(name))
	return err != nil || r.onRootDevice(info)
}

// openat opens one element of a name, never crossing a mount point where
// the kernel has openat2.
func (r *Root) openat(dir int, name string, flags int) (fd int, err error) {
	if r.mount.xdev {
		return openat2(dir, name, flags)
	}
	err = ignoringEINTR(func() error {
		fd, err = syscall.Openat(dir, name, flags, 0)
		return err
	})
	return fd, err
}

func ignoringEINTR(call func() error) error {
	for {
		if err := call(); err != syscall.EINTR {
			return err
		}
	}
}
