package boundary

import (
	"io"
	"io/fs"
	"os"
	"runtime"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// A dirReader lists one open directory of a walk. On Linux it reads the
// entries with getdents(2) into a buffer of its own and examines them with
// one fstatat(2) each, relative to the directory's handle and never
// following a link, as os.Root's listing does, but without its per-entry
// objects, and several entries at once: an lstat is most of what a walk
// costs, and one directory of many entries would otherwise keep one core
// busy while the others wait.
type dirReader struct {
	f        *os.File
	fd       int
	pos, end int // d.buf[pos:end] is what getdents returned, not parsed yet
	eof      bool
	*dirScratch
}

// dirScratch is the memory a dirReader reuses from one directory to the
// next.
type dirScratch struct {
	buf   []byte
	ents  []statEntry // the last batch stat returned
	out   []fs.DirEntry
	names []string // the storage of the names kept (see firstNames)
	batch []string // the storage of the names names returns
}

var dirScratchPool = sync.Pool{New: func() any { return &dirScratch{buf: make([]byte, direntBuf)} }}

// direntBuf is the size of one getdents read: about 800 entries of short
// names.
const direntBuf = 32 << 10

// statAtOnce is the fewest entries worth another goroutine's lstats.
const statAtOnce = 64

// newDirReader returns a dirReader of f, the directory called dir under
// root, open for reading.
func newDirReader(_ *Root, _ string, f *os.File) (*dirReader, error) {
	sc, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	d := &dirReader{f: f, dirScratch: dirScratchPool.Get().(*dirScratch)}
	// The descriptor stays valid while f is open: the walk closes f only
	// once it is done with d.
	if err := sc.Control(func(fd uintptr) { d.fd = int(fd) }); err != nil {
		return nil, err
	}
	return d, nil
}

// names returns the names of up to n more entries, but "." and "..", and
// io.EOF with none once the directory has no more, as os.File.Readdirnames
// does. The slice is valid until the next call; the names stay valid.
func (d *dirReader) names(n int) ([]string, error) {
	into := d.batch[:0]
	defer func() { d.batch = into[:0] }()
	for len(into) < n {
		if d.pos >= d.end {
			if d.eof {
				break
			}
			var got int
			err := ignoringEINTR(func() (err error) {
				got, err = syscall.Getdents(d.fd, d.buf)
				return err
			})
			if err != nil {
				return into, &os.PathError{Op: "getdents", Path: d.f.Name(), Err: err}
			}
			if got <= 0 {
				d.eof = true
				break
			}
			d.pos, d.end = 0, got
		}
		used, _, more := syscall.ParseDirent(d.buf[d.pos:d.end], n-len(into), into)
		d.pos += used
		into = more
	}
	if len(into) == 0 && n > 0 {
		return into, io.EOF
	}
	return into, nil
}

// stat examines the entries called names with an lstat each, and returns
// them in that order but for those removed since they were listed. What it
// returns is valid until the next call.
func (d *dirReader) stat(names []string) ([]fs.DirEntry, error) {
	if cap(d.ents) < len(names) {
		d.ents = make([]statEntry, len(names))
	}
	ents := d.ents[:len(names)]
	stat := func(lo, hi int) {
		for i := lo; i < hi; i++ {
			e := &ents[i]
			e.name = names[i]
			e.err = ignoringEINTR(func() error { return lstatAt(d.fd, e.name, &e.st) })
		}
	}
	workers := min(runtime.GOMAXPROCS(0), len(names)/statAtOnce)
	if workers <= 1 {
		stat(0, len(names))
	} else {
		var wg sync.WaitGroup
		per := (len(names) + workers - 1) / workers
		for lo := per; lo < len(names); lo += per {
			wg.Go(func() { stat(lo, min(lo+per, len(names))) })
		}
		stat(0, per)
		wg.Wait()
	}
	d.out = d.out[:0]
	for i := range ents {
		switch e := &ents[i]; {
		case e.err == syscall.ENOENT:
			continue // removed since it was listed
		case e.err != nil:
			return d.out, &os.PathError{Op: "lstat", Path: e.name, Err: e.err}
		}
		d.out = append(d.out, &ents[i])
	}
	return d.out, nil
}

// nameStore returns empty storage for at most k names, reused from an
// earlier directory when it holds no more than k.
func (d *dirReader) nameStore(k int) []string {
	if cap(d.dirScratch.names) > k {
		return nil
	}
	return d.dirScratch.names[:0]
}

// keepNames keeps names' storage to be reused, once d is closed, by the
// next directory's.
func (d *dirReader) keepNames(names []string) { d.dirScratch.names = names }

// close gives back the memory d reuses; what stat and names returned is
// then no longer valid. It leaves the directory open.
func (d *dirReader) close() {
	clear(d.ents)
	clear(d.dirScratch.names)
	d.dirScratch.names = d.dirScratch.names[:0]
	clear(d.batch[:cap(d.batch)])
	d.out = d.out[:0]
	dirScratchPool.Put(d.dirScratch)
	d.dirScratch = nil
}

// statEntry is an entry with its lstat: both its fs.DirEntry and its
// fs.FileInfo, whose Sys is the *syscall.Stat_t, as os gives.
type statEntry struct {
	name string
	st   syscall.Stat_t
	err  error // of the lstat
}

// A unix.Stat_t is read into a syscall.Stat_t: the same kernel structure.
var _ [unsafe.Sizeof(syscall.Stat_t{}) - unsafe.Sizeof(unix.Stat_t{})]byte
var _ [unsafe.Sizeof(unix.Stat_t{}) - unsafe.Sizeof(syscall.Stat_t{})]byte

func (e *statEntry) Name() string               { return e.name }
func (e *statEntry) IsDir() bool                { return e.Mode().IsDir() }
func (e *statEntry) Type() fs.FileMode          { return e.Mode().Type() }
func (e *statEntry) Info() (fs.FileInfo, error) { return e, nil }
func (e *statEntry) Size() int64                { return e.st.Size }
func (e *statEntry) ModTime() time.Time         { return time.Unix(e.st.Mtim.Unix()) }
func (e *statEntry) Sys() any                   { return &e.st }

// Mode is the mode os.Lstat gives.
func (e *statEntry) Mode() fs.FileMode {
	m := fs.FileMode(e.st.Mode & 0o777)
	switch e.st.Mode & syscall.S_IFMT {
	case syscall.S_IFBLK:
		m |= fs.ModeDevice
	case syscall.S_IFCHR:
		m |= fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFDIR:
		m |= fs.ModeDir
	case syscall.S_IFIFO:
		m |= fs.ModeNamedPipe
	case syscall.S_IFLNK:
		m |= fs.ModeSymlink
	case syscall.S_IFSOCK:
		m |= fs.ModeSocket
	}
	if e.st.Mode&syscall.S_ISGID != 0 {
		m |= fs.ModeSetgid
	}
	if e.st.Mode&syscall.S_ISUID != 0 {
		m |= fs.ModeSetuid
	}
	if e.st.Mode&syscall.S_ISVTX != 0 {
		m |= fs.ModeSticky
	}
	return m
}
