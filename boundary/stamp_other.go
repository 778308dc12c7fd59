//go:build !linux

package boundary

import (
	"io/fs"
	"time"
)

// stampInfo gives no Stamp where the file system's kind is not checked.
func (r *Root) stampInfo(fs.FileInfo, time.Time) Stamp { return Stamp{} }

// seenInfo records nothing: only the Linux read path compares the file it
// opened with the walk's lstat.
func seenInfo(fs.FileInfo) Stamp { return Stamp{} }
