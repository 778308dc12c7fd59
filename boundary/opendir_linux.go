package boundary

import (
	"os"
	"syscall"
)

// openDir opens the directory dir of a walk, whose lstat gave seen, to
// list it. It is opened as a note is (see openNote): by openat2 relative
// to the root's handle, with RESOLVE_BENEATH, RESOLVE_NO_SYMLINKS and
// RESOLVE_NO_XDEV where the kernel has it, and otherwise one element at a
// time with O_NOFOLLOW relative to the directory opened before; with
// O_DIRECTORY too. A link on any element, the last included, fails the
// open, whatever was swapped in since the lstat, so a link is never
// entered. The opened directory must then be the one the lstat saw (same
// device and inode): one renamed over it since is refused with
// errDirReplaced, as a directory the walk did not examine.
func (r *Root) openDir(dir string, seen Stamp) (*os.File, error) {
	if dir == "." {
		return r.root.OpenFile(".", openFlags, 0)
	}
	fd, err := r.openNote(dir, noteFlags|syscall.O_DIRECTORY)
	if err != nil {
		return nil, err
	}
	var st syscall.Stat_t
	if err := ignoringEINTR(func() error { return syscall.Fstat(fd, &st) }); err != nil {
		syscall.Close(fd)
		return nil, err
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFDIR || uint64(st.Dev) != seen.dev || uint64(st.Ino) != seen.ino {
		syscall.Close(fd)
		return nil, errDirReplaced
	}
	return os.NewFile(uintptr(fd), dir), nil
}
