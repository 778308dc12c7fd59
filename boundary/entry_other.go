//go:build !windows

package boundary

import "io/fs"

// entryRefusal has nothing to add here to the walk's own checks of a
// directory entry; see the Windows version.
func (r *Root) entryRefusal(string, fs.DirEntry) error { return nil }
