package boundary

import "time"

// A Stamp identifies one version of a note: its device, inode, size, and
// modification and change times in nanoseconds. Two equal non-zero Stamps
// of one name mean the note holds the same bytes as when the first was
// taken, so a caller may keep what it learned from a read until the Stamp
// changes. A non-zero Stamp is only given where that holds:
//
//   - on a local file system from an allow-list (statfs), whose times are
//     set by the kernel on every write, and never on network, FUSE, FAT or
//     memory file systems, whose times can lag, be cached or be coarse;
//   - once both times are at least [settle] old, so that two writes within
//     one timestamp tick cannot leave a Stamp unchanged: any write after
//     the Stamp was taken sets the change time to a later tick, which no
//     one can set back.
//
// The zero Stamp identifies nothing and never equals a version.
type Stamp struct {
	dev, ino     uint64
	size         int64
	mtime, ctime int64
}

// settle is how old a note's times must be before it is given a Stamp; a
// timestamp tick is far shorter.
const settle = 2 * time.Second
