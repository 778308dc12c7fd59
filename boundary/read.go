package boundary

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"practice-notes/boundary/seam"
)

// ReadNote returns the contents of the note called name, a slash-separated
// path relative to the root. A refusal is an [*Error]. It returns by ctx's
// deadline even when the file system never answers: the read is then
// abandoned (see [ErrNotInTime]) and refused with that reason. To read many
// notes into a reused buffer, use a [Reader].
func (r *Root) ReadNote(ctx context.Context, name string) ([]byte, error) {
	if err := r.startRead(ctx, name); err != nil {
		return nil, err
	}
	var (
		data []byte
		err  error
	)
	aerr := r.await(ctx, func() { data, err = r.readNote(ctx, name, Stamp{}, nil, nil) })
	if aerr != nil {
		return nil, notInTime(name, aerr)
	}
	return data, err
}

// startRead makes the checks of a read that come before the file system is
// touched.
func (r *Root) startRead(ctx context.Context, name string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := checkName(name); err != nil {
		return err
	}
	// The fault hook runs on the caller's goroutine, as code of the caller
	// would: a hook that ignores ctx holds the call (tests rely on it).
	if err := r.fault(ctx, seam.ReadFile, name); err != nil {
		return refuse(name, classify(err), err)
	}
	return nil
}

// notInTime turns the error of an operation that did not complete (see
// await) into the read's error: a refusal with ErrNotInTime that also
// matches ctx's error, or ctx's error alone when the read never started.
func notInTime(name string, aerr error) error {
	if errors.Is(aerr, ErrNotInTime) {
		return refuse(name, ErrNotInTime, aerr)
	}
	return aerr
}

// hotWindow is how recently a note must have been changed for a read of
// it to wait first for a write in progress, and to check it before the
// read rather than after (see readChecked and readNote): a write sets
// the times when it begins, so a note being written has times this recent
// unless its write has taken longer than this to copy its data.
const hotWindow = 2 * time.Second

// maxRereads is how many more times a note found changed after a read is
// read again before it is refused with errChanging.
const maxRereads = 3

// readChecked reads the note called name, already opened and checked to be
// a regular file, through read, into buf's storage when it can hold one
// byte more than the file's size and into new memory otherwise (growing
// either, up to MaxFileSize+1 bytes, should the file have grown), and
// checks what was read.
//
// v is the opened file's version before the read (its size, and its times
// where the system gives them), and version gives it again. When it is
// not the same after the read, or the read returned another number of
// bytes than the size it gives, the note was written while it was read,
// and what was read may be part of one write and part of another: the
// note is read again from its start (rewind), at most maxRereads more
// times, and refused with errChanging after that. version may refuse the
// note, as the checks made on the opened file would, and the version of
// what is returned is returned with it.
//
// The times alone do not show every write: a write(2) sets them before it
// copies its data in, and on Linux 6.13 and later a write that follows a
// truncate within one clock tick may not move them at all. So wait, when
// not nil, is called with the version before each read: when the note is
// hot (changed within the hot window) it waits for a write in progress on
// the file to end and reports true. A hot note's read is then checked by
// reading it a second time, after another wait, and comparing the two
// byte for byte (sameAgain): a read that met a write half done differs
// from one made after that write ended. A note whose two reads differ is
// read again, as one whose version changed.
func readChecked[V comparable](name string, read func([]byte) (int, error), rewind func() error,
	version func() (V, int64, error), v V, size int64, buf []byte, wait func(V) bool) ([]byte, V, error) {
	for try := 0; ; try++ {
		into := buf
		if int64(cap(into)) <= size {
			// No buffer large enough: size a new one to the file, plus
			// one byte to see the end of the file (or that it grew)
			// without another call.
			into = make([]byte, 0, size+1)
		}
		hot := wait != nil && wait(v)
		data, err := readLimited(read, into[:0], size)
		if err != nil {
			return nil, v, refuse(name, errUnreadable, err)
		}
		after, afterSize, err := version()
		if err != nil {
			return nil, v, err
		}
		changed := after != v || int64(len(data)) != afterSize
		if !changed && hot {
			wait(v)
			if err := rewind(); err != nil {
				return nil, v, refuse(name, errUnreadable, err)
			}
			same, err := sameAgain(read, data)
			if err != nil {
				return nil, v, refuse(name, errUnreadable, err)
			}
			changed = !same
		}
		if changed {
			if try == maxRereads {
				return nil, v, refuse(name, errChanging, nil)
			}
			if err := rewind(); err != nil {
				return nil, v, refuse(name, errUnreadable, err)
			}
			v, size = after, afterSize
			continue
		}
		if len(data) > MaxFileSize {
			return nil, v, refuse(name, errTooLarge, nil)
		}
		if !isText(data) {
			return nil, v, refuse(name, errNotText, nil)
		}
		return data, v, nil
	}
}

// sameAgain reads the file through read, from where it is to its end, and
// reports whether it holds exactly data. It reads into a pooled page, so
// it allocates nothing, and stops at the first byte that differs.
func sameAgain(read func([]byte) (int, error), data []byte) (bool, error) {
	page := comparePages.Get().(*[comparePage]byte)
	defer comparePages.Put(page)
	at := 0
	for {
		n, err := read(page[:])
		if n > len(data)-at || !bytes.Equal(page[:n], data[at:at+n]) {
			return false, nil
		}
		at += n
		switch {
		case errors.Is(err, io.EOF) || n == 0 && err == nil:
			return at == len(data), nil
		case err != nil:
			return false, err
		case n < len(page) && at == len(data):
			// A short read ending at the first read's end met the end
			// of the file, as in readLimited.
			return true, nil
		}
	}
}

// comparePage is the size of sameAgain's reads.
const comparePage = 8 << 10

// comparePages holds sameAgain's pages, shared by every Root: a page is
// scratch, holding nothing from one call to the next.
var comparePages = sync.Pool{New: func() any { return new([comparePage]byte) }}

// readLimited appends what read returns to buf until the end of the file
// (io.EOF, or a read of nothing) or until buf holds MaxFileSize+1 bytes,
// whichever comes first, so a file that grows after it was checked is never
// read past the limit. It grows buf only when the file is longer than buf's
// capacity.
//
// size is the size of the opened file when it was checked. A read that
// returns fewer bytes than asked for and ends exactly there has met the end
// of the file, so no second read is made just to see it; any other short
// read goes on to the end, so a file that grew is still read on and caught.
func readLimited(read func([]byte) (int, error), buf []byte, size int64) ([]byte, error) {
	for len(buf) <= MaxFileSize {
		if len(buf) == cap(buf) {
			// The file grew after it was checked; read on, still within
			// the limit.
			buf = slices.Grow(buf, min(max(len(buf), 512), MaxFileSize+1-len(buf)))
		}
		want := min(cap(buf), MaxFileSize+1) - len(buf)
		n, err := read(buf[len(buf) : len(buf)+want])
		buf = buf[:len(buf)+n]
		if errors.Is(err, io.EOF) || (n == 0 && err == nil) {
			break
		}
		if err != nil {
			return nil, err
		}
		if n < want && int64(len(buf)) == size {
			break
		}
	}
	return buf, nil
}

// checkInfo applies the file rules to one stat result.
func checkInfo(info fs.FileInfo) error {
	switch {
	case info.Mode()&fs.ModeSymlink != 0:
		return errSymlink
	case !info.Mode().IsRegular():
		return errNotRegular
	case info.Size() > MaxFileSize:
		return errTooLarge
	case linkCount(info) > 1:
		return errHardLinks
	}
	return nil
}

// classify maps an operating-system error to a reason.
func classify(err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return ErrNotFound
	case errors.Is(err, syscall.EXDEV):
		return errMountPoint
	case isLinkErr(err):
		return errSymlink
	case strings.Contains(err.Error(), "path escapes from parent"):
		return errSymlink
	}
	return errUnreadable
}
