//go:build !unix && !windows

package boundary

import (
	"io/fs"
	"os"
)

const openFlags = os.O_RDONLY

// linkCount is not known on this platform; the symlink and size checks
// still apply.
func linkCount(fs.FileInfo) uint64 { return 1 }

func isLinkErr(error) bool { return false }
