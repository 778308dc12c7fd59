//go:build !linux

package boundary

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// A dirReader lists one open directory of a walk, through os.File, and
// examines its entries through the root's os.Root.
type dirReader struct {
	root *Root
	dir  string
	f    *os.File
	out  []fs.DirEntry
}

// newDirReader returns a dirReader of f, the directory called dir under
// root, open for reading.
func newDirReader(root *Root, dir string, f *os.File) (*dirReader, error) {
	return &dirReader{root: root, dir: dir, f: f}, nil
}

// names returns the names of up to n more entries, and io.EOF with none at
// the end.
func (d *dirReader) names(n int) ([]string, error) { return d.f.Readdirnames(n) }

// stat examines the entries called names with an lstat each, and returns
// them in that order but for those removed since they were listed.
func (d *dirReader) stat(names []string) ([]fs.DirEntry, error) {
	d.out = d.out[:0]
	for _, name := range names {
		rel := name
		if d.dir != "." {
			rel = d.dir + "/" + name
		}
		info, err := d.root.root.Lstat(filepath.FromSlash(rel))
		if errors.Is(err, fs.ErrNotExist) {
			continue // removed since it was listed
		}
		if err != nil {
			return d.out, err
		}
		d.out = append(d.out, fs.FileInfoToDirEntry(info))
	}
	return d.out, nil
}

// nameStore returns empty storage for the names kept (see firstNames).
func (d *dirReader) nameStore(int) []string { return nil }

// keepNames keeps names' storage to be reused.
func (d *dirReader) keepNames([]string) {}

// close gives back the memory d reuses.
func (d *dirReader) close() {}

// openDir opens the directory dir of a walk to list it, through os.Root,
// which follows a link that stays inside the root: a directory swapped
// for such a link after the walk's lstat is entered (see Root).
func (r *Root) openDir(dir string, _ Stamp) (*os.File, error) {
	return r.root.OpenFile(filepath.FromSlash(dir), openFlags, 0)
}
