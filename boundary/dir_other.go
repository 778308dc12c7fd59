//go:build !linux

package boundary

import (
	"io"
	"io/fs"
	"os"
)

// A dirReader lists one open directory of a walk, through os.File.
type dirReader struct{ f *os.File }

func newDirReader(f *os.File) (*dirReader, error) { return &dirReader{f}, nil }

// names returns the names of up to n more entries, and io.EOF with none at
// the end.
func (d *dirReader) names(n int, _ []string) ([]string, error) { return d.f.Readdirnames(n) }

// entries returns up to n more entries, and io.EOF with none at the end.
func (d *dirReader) entries(n int) ([]fs.DirEntry, error) { return d.f.ReadDir(n) }

// rewind lists the directory again from its first entry.
func (d *dirReader) rewind() error {
	_, err := d.f.Seek(0, io.SeekStart)
	return err
}

// close gives back the memory d reuses.
func (d *dirReader) close() {}
