//go:build linux && (amd64 || arm64)

package boundary

import (
	"strings"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// lstatAt is fstatat(fd, name, st, AT_SYMLINK_NOFOLLOW) for one name in
// fd's directory, with the name's NUL-terminated copy on the stack rather
// than allocated, as unix.Fstatat does: a walk makes one a note.
func lstatAt(fd int, name string, st *syscall.Stat_t) error {
	var p [256]byte // a name inside a directory is at most 255 bytes
	if len(name) >= len(p) || strings.IndexByte(name, 0) >= 0 {
		return unix.Fstatat(fd, name, (*unix.Stat_t)(unsafe.Pointer(st)), unix.AT_SYMLINK_NOFOLLOW)
	}
	copy(p[:], name)
	_, _, errno := syscall.Syscall6(unix.SYS_NEWFSTATAT, uintptr(fd), uintptr(unsafe.Pointer(&p[0])),
		uintptr(unsafe.Pointer(st)), unix.AT_SYMLINK_NOFOLLOW, 0, 0)
	if errno != 0 {
		return errno
	}
	return nil
}
