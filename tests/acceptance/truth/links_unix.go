//go:build unix

package truth

import (
	"io/fs"
	"syscall"
)

// hardLinks returns a file's count of hard links, or 0 when unknown.
func hardLinks(info fs.FileInfo) int {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return int(st.Nlink)
	}
	return 0
}
