package boundary

import (
	"context"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"syscall"
	"time"

	"practice-notes/boundary/seam"
)

// readNote reads the note called name, a checked name, through os.Root.
//
// A name Windows would not open as that very file is refused first
// (checkWindowsName). Each directory on the way is checked with an Lstat
// not to be a symbolic link or any other reparse point (a junction, a mount
// point, a cloud placeholder); os.Root itself opens with OBJ_DONT_REPARSE,
// so a reparse point swapped in afterwards fails the open, and a link it
// would follow must stay inside the root. The note is opened as itself
// even when it is a reparse point (FILE_FLAG_OPEN_REPARSE_POINT), without
// fetching a cloud file's data (FILE_FLAG_OPEN_NO_RECALL), and checked on
// the opened handle (GetFileInformationByHandle): a regular file on disk,
// not a reparse point or placeholder, of at most MaxFileSize bytes, with
// one hard link.
//
// As on Linux, the link count alone can be fooled: a hard link to a file
// outside the root, opened and then removed, leaves the open file with one
// link. So the name is opened again, and must still be this very file
// (same volume and file index) with one link.
func (r *Root) readNote(ctx context.Context, name string, _ Stamp, buf []byte, _ *Stamp) ([]byte, error) {
	if err := checkWindowsName(name); err != nil {
		return nil, refuse(name, err, nil)
	}
	for dir := path.Dir(name); dir != "."; dir = path.Dir(dir) {
		info, err := r.root.Lstat(filepath.FromSlash(dir))
		if err != nil {
			return nil, refuse(name, classify(err), err)
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			return nil, refuse(name, errSymlink, nil)
		}
		if err := attributeRefusal(attributes(info)); err != nil {
			return nil, refuse(name, err, nil)
		}
	}
	native := filepath.FromSlash(name)
	f, err := r.root.OpenFile(native, noteFlags, 0)
	if err != nil {
		return nil, refuse(name, classify(err), err)
	}
	defer f.Close()
	if err := r.fault(ctx, seam.Opened, name); err != nil {
		return nil, refuse(name, classify(err), err)
	}
	opened, err := handleInfo(f)
	if err != nil {
		return nil, refuse(name, errUnreadable, err)
	}
	if err := opened.check(); err != nil {
		return nil, refuse(name, err, nil)
	}
	again, err := r.noteInfo(native)
	if err != nil {
		return nil, refuse(name, classify(err), err)
	}
	switch {
	case !opened.sameFile(&again):
		return nil, refuse(name, ErrNotFound, nil) // replaced since it was opened
	case again.NumberOfLinks > 1:
		return nil, refuse(name, errHardLinks, nil)
	}
	size := int64(opened.FileSizeHigh)<<32 | int64(opened.FileSizeLow)
	type version struct {
		size  int64
		mtime time.Time
	}
	stat := func() (version, int64, error) {
		info, err := f.Stat()
		if err != nil {
			return version{}, 0, refuse(name, errUnreadable, err)
		}
		if info.Size() > MaxFileSize {
			return version{}, 0, refuse(name, errTooLarge, nil)
		}
		return version{info.Size(), info.ModTime()}, info.Size(), nil
	}
	v, _, err := stat()
	if err != nil {
		return nil, err
	}
	rewind := func() error {
		_, err := f.Seek(0, io.SeekStart)
		return err
	}
	data, _, err := readChecked(name, f.Read, rewind, stat, v, size, buf, nil)
	return data, err
}

// noteInfo opens the note at native, a path inside the root, as readNote
// does, and describes it from its handle.
func (r *Root) noteInfo(native string) (handle, error) {
	f, err := r.root.OpenFile(native, noteFlags, 0)
	if err != nil {
		return handle{}, err
	}
	defer f.Close()
	return handleInfo(f)
}

// entryRefusal is the reason the walk skips the entry rel, or nil to let
// the walk's own checks decide. Windows names a link or mount in a
// listing in ways the walk's portable checks do not all see: Go reports a
// junction or a cloud placeholder as an irregular file, not as a link, and
// a stat result carries no link count. So, from the attributes the listing
// already holds, a directory or note-named entry is refused when it is a
// reparse point or a cloud placeholder (symbolic links are left to the
// walk, which reports them as such) or when Windows would not open it by
// its name, and a note-named file is opened to count its hard links.
func (r *Root) entryRefusal(rel string, e fs.DirEntry) error {
	info, err := e.Info()
	if err != nil || info.Mode()&fs.ModeSymlink != 0 {
		return nil
	}
	attrs := attributes(info)
	isDir := attrs&syscall.FILE_ATTRIBUTE_DIRECTORY != 0
	if !isDir && !isNoteName(e.Name()) {
		return nil // not a note; not worth reporting
	}
	if !windowsNameOK(e.Name()) {
		return errWindowsName
	}
	if attrs&syscall.FILE_ATTRIBUTE_REPARSE_POINT == 0 && (isDir || !info.Mode().IsRegular() || info.Size() > MaxFileSize) {
		return attributeRefusal(attrs) // nil, unless offline: the walk decides
	}
	// A reparse point (opened as itself, to learn its kind) or a note
	// that may have other hard links.
	d, err := r.noteInfo(filepath.FromSlash(rel))
	if err != nil {
		return classify(err)
	}
	return d.check()
}
