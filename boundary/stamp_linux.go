package boundary

import (
	"io/fs"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// stampedFS reports whether the file system holding fd is one whose
// Stamps are given (see [Stamp]): ext2, ext3, ext4, XFS and Btrfs.
func stampedFS(fd int) bool {
	var sfs syscall.Statfs_t
	if err := ignoringEINTR(func() error { return syscall.Fstatfs(fd, &sfs) }); err != nil {
		return false
	}
	switch uint32(sfs.Type) {
	case 0xEF53, // ext2, ext3, ext4
		0x58465342, // XFS
		0x9123683E: // Btrfs
		return true
	}
	return false
}

// writebackSettle returns how old a note's times must be before it is given
// a Stamp (see Stamp): twice the time a dirty page may wait for writeback
// (vm.dirty_expire_centisecs) plus the interval of the kernel's flusher
// (vm.dirty_writeback_centisecs), and at least minSettle; 35 s by default,
// so 70 s. It returns 0, for no Stamps at all, when either setting cannot
// be read or periodic writeback is turned off (a zero interval), since a
// dirty page may then wait for ever. The settings are read when a root is
// opened; a change made later is left to the callers' schedule (see Stamp).
func writebackSettle() time.Duration {
	read := func(name string) time.Duration {
		data, err := os.ReadFile("/proc/sys/vm/" + name)
		if err != nil {
			return 0
		}
		cs, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 32)
		if err != nil || cs <= 0 {
			return 0
		}
		return time.Duration(cs) * 10 * time.Millisecond
	}
	expire, every := read("dirty_expire_centisecs"), read("dirty_writeback_centisecs")
	if expire == 0 || every == 0 {
		return 0
	}
	return max(2*(expire+every), minSettle)
}

// stamped reports whether st, taken at now, is given a Stamp.
func (r *Root) stamped(st *syscall.Stat_t, now time.Time) bool {
	if !r.mount.stamps || r.settle <= 0 {
		return false
	}
	m, c := time.Unix(st.Mtim.Unix()), time.Unix(st.Ctim.Unix())
	limit := now.Add(-r.settle)
	return !m.After(limit) && !c.After(limit)
}

// stamp returns the Stamp of st, taken at now, or the zero Stamp when
// none is given.
func (r *Root) stamp(st *syscall.Stat_t, now time.Time) Stamp {
	if !r.stamped(st, now) {
		return Stamp{}
	}
	return statStamp(st)
}

// statStamp returns the device, inode, size and times of st as a Stamp,
// whether or not one is given.
func statStamp(st *syscall.Stat_t) Stamp {
	return Stamp{
		dev: uint64(st.Dev), ino: uint64(st.Ino), size: st.Size,
		mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano(),
	}
}

// seenInfo is statStamp for a walk's lstat result.
func seenInfo(info fs.FileInfo) Stamp {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return Stamp{}
	}
	return statStamp(st)
}

// stampedInfo is stamped for a walk's lstat result.
func (r *Root) stampedInfo(info fs.FileInfo, now time.Time) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && r.stamped(st, now)
}
