//go:build unix

package boundary

import (
	"errors"
	"io/fs"
	"syscall"
)

// openFlags opens read-only and never blocks, so a FIFO cannot stall a walk
// or a read.
const openFlags = syscall.O_RDONLY | syscall.O_NONBLOCK

// linkCount returns the number of hard links to the file info describes.
func linkCount(info fs.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

func isLinkErr(err error) bool {
	return errors.Is(err, syscall.ELOOP)
}
