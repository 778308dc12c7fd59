//go:build linux && !amd64 && !arm64

package boundary

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// lstatAt is fstatat(fd, name, st, AT_SYMLINK_NOFOLLOW).
func lstatAt(fd int, name string, st *syscall.Stat_t) error {
	return unix.Fstatat(fd, name, (*unix.Stat_t)(unsafe.Pointer(st)), unix.AT_SYMLINK_NOFOLLOW)
}
