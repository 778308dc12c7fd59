package boundary

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"slices"
	"strings"
	"syscall"

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

// readChecked reads the note called name, already opened and checked to be
// a regular file of size bytes, through read, into buf's storage when it can
// hold MaxFileSize+1 bytes and into new memory otherwise, and checks what
// was read.
func readChecked(name string, read func([]byte) (int, error), size int64, buf []byte) ([]byte, error) {
	if cap(buf) <= MaxFileSize {
		// No reusable buffer: size a new one to the file, plus one byte to
		// see the end of the file (or that it grew) without another call.
		buf = make([]byte, 0, size+1)
	}
	data, err := readLimited(read, buf[:0], size)
	if err != nil {
		return nil, refuse(name, errUnreadable, err)
	}
	if len(data) > MaxFileSize {
		return nil, refuse(name, errTooLarge, nil)
	}
	if !isText(data) {
		return nil, refuse(name, errNotText, nil)
	}
	return data, nil
}

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
