package boundary

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestNamesWithNULOrTooLong checks the two names the walk's lstat and a
// note's open cannot copy as they are: one holding a NUL byte, which
// would otherwise name the file before the NUL, and one longer than a
// directory entry's 255 bytes. Each must be refused, never resolved to
// another file.
func TestNamesWithNULOrTooLong(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.md"), "the note before the NUL\n")
	d, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var st syscall.Stat_t
	if err := lstatAt(int(d.Fd()), "a.md", &st); err != nil {
		t.Fatalf("lstatAt(a.md) = %v", err)
	}
	for name, want := range map[string]error{
		"a.md\x00x":              syscall.EINVAL,
		strings.Repeat("n", 300): syscall.ENAMETOOLONG,
	} {
		if err := lstatAt(int(d.Fd()), name, &st); !errors.Is(err, want) {
			t.Errorf("lstatAt(%.20q) = %v, want %v", name, err, want)
		}
	}
	r := open(t, dir)
	if !r.mount.xdev {
		t.Log("no openat2 here: the open of a name with a NUL goes through the element-by-element path")
	}
	if fd, err := r.openNote("a.md\x00x", noteFlags); err == nil {
		syscall.Close(fd)
		t.Errorf("openNote of a name holding a NUL opened a file")
	}
}
