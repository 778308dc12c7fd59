//go:build !linux

package boundary

import (
	"io/fs"
	"time"
)

// stampedInfo gives no Stamp where the file system's kind is not checked.
func (r *Root) stampedInfo(fs.FileInfo, time.Time) bool { return false }

// seenInfo records nothing: only the Linux read path compares the file it
// opened with the walk's lstat.
func seenInfo(fs.FileInfo) Stamp { return Stamp{} }
