//go:build !linux && !windows

package boundary

import (
	"context"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"time"

	"practice-notes/boundary/seam"
)

// readNote reads the note called name, a checked name, through os.Root.
// Every directory on the way is checked with an Lstat not to be a link;
// os.Root would follow a link that stays inside the root if one were
// swapped in between that check and the open. The note itself is checked
// with an Lstat before it is opened and on the opened file after, and only
// the very file seen at that name is read.
func (r *Root) readNote(ctx context.Context, name string, _ Stamp, buf []byte, _ *Stamp) ([]byte, error) {
	for dir := path.Dir(name); dir != "."; dir = path.Dir(dir) {
		info, err := r.root.Lstat(filepath.FromSlash(dir))
		if err != nil {
			return nil, refuse(name, classify(err), err)
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			return nil, refuse(name, errSymlink, nil)
		}
	}
	native := filepath.FromSlash(name)
	linfo, err := r.root.Lstat(native)
	if err != nil {
		return nil, refuse(name, classify(err), err)
	}
	if err := checkInfo(linfo); err != nil {
		return nil, refuse(name, err, nil)
	}
	f, err := r.root.OpenFile(native, openFlags, 0)
	if err != nil {
		return nil, refuse(name, classify(err), err)
	}
	defer f.Close()
	if err := r.fault(ctx, seam.Opened, name); err != nil {
		return nil, refuse(name, classify(err), err)
	}
	info, err := f.Stat()
	if err != nil {
		return nil, refuse(name, errUnreadable, err)
	}
	if err := checkInfo(info); err != nil {
		return nil, refuse(name, err, nil)
	}
	// The name may have become a link to this file since the Lstat above
	// (os.Root follows links that stay inside the root); only the very file
	// that was seen as a regular file at that name is accepted.
	if !os.SameFile(info, linfo) {
		return nil, refuse(name, errSymlink, nil)
	}
	type version struct {
		size  int64
		mtime time.Time
	}
	stat := func() (version, int64, error) {
		info, err := f.Stat()
		if err != nil {
			return version{}, 0, refuse(name, errUnreadable, err)
		}
		if err := checkInfo(info); err != nil {
			return version{}, 0, refuse(name, err, nil)
		}
		return version{info.Size(), info.ModTime()}, info.Size(), nil
	}
	rewind := func() error {
		_, err := f.Seek(0, io.SeekStart)
		return err
	}
	data, _, err := readChecked(name, f.Read, rewind, stat, version{info.Size(), info.ModTime()}, info.Size(), buf, nil)
	return data, err
}
