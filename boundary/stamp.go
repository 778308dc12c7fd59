package boundary

import "time"

// A Stamp identifies one version of a note: its device, inode, size, and
// modification and change times in nanoseconds. Two equal non-zero Stamps
// of one name mean the note holds the same bytes as when the first was
// taken, except for the changes below that move no time, so a caller may
// keep what it learned from a read until the Stamp changes, for a bounded
// time (see search's summaries). A non-zero Stamp is only given where that
// holds:
//
//   - on a local file system from an allow-list (statfs), whose times are
//     set by the kernel on every write, and never on network, FUSE, FAT or
//     memory file systems, whose times can lag, be cached or be coarse;
//   - once both times are older than the kernel's writeback window (see
//     writebackSettle): at least a minute, twice the time the kernel lets
//     a dirty page wait before writing it back plus the interval of its
//     flusher. A store through a shared writable mapping into a page that
//     is already dirty moves no time: the kernel sets the times on the
//     first write fault after the page was written back, and only then.
//     Every page dirtied before the times were last set has been written
//     back, and so write-protected, by the end of that window, so any
//     later store faults and sets the change time anew, which no one can
//     set back. The window also covers a write(2) that sets the times
//     before its data copy, unless the copy takes longer, and two writes
//     within one timestamp tick.
//
// Changes that move no time at all are not seen by a Stamp: XFS swapext
// (xfs_io), XFS's handle-based "invisible" writes, a page left dirty
// longer than the window (writeback stalled, or turned off:
// vm.dirty_writeback_centisecs = 0, where no Stamp is given), and a
// write(2) whose copy outlasts the window. Callers bound how long those
// can go unseen by reading again on a schedule.
//
// The zero Stamp identifies nothing and never equals a version.
type Stamp struct {
	dev, ino     uint64
	size         int64
	mtime, ctime int64
}

// minSettle is the shortest a note's times must have stood before it is
// given a Stamp, whatever the writeback settings say.
const minSettle = time.Minute
