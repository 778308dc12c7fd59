// Package boundary is the only code in practice-notes that touches the file
// system. It hands out the text of notes stored under one root directory and
// guarantees that:
//
//   - every open is confined to the root by [os.Root], so no name, symbolic
//     link or concurrent rename can make it read a file outside the root;
//   - a name is refused before any system call when it is empty, absolute,
//     has a drive letter, or contains "..", a backslash or a NUL byte;
//   - a symbolic link is never followed, even one pointing inside the root;
//   - only regular files with exactly one hard link and at most [MaxFileSize]
//     bytes of valid UTF-8 without NUL bytes are returned, and this is
//     checked on the opened file, so a file swapped for a link, a FIFO or a
//     larger file between listing and opening is caught;
//   - opens never block (a FIFO cannot stall a read) and a read never takes
//     more than [MaxFileSize] bytes, even from a file that is growing;
//   - nothing is ever written, created, renamed or removed: every open is
//     read-only.
//
// Errors never carry an absolute path or an operating-system message: they
// name the file relative to the root and give one of the reasons below, which
// callers match with [errors.Is].
//
// How a note is opened: on Linux, each element of its name is opened with
// O_NOFOLLOW relative to the directory before it, starting from a handle on
// the root that [os.Root] opened, so no link on the way is ever followed,
// atomically with the open, and the note is checked with fstat on the opened
// file (four system calls for a note in the root, two more per directory).
// Elsewhere a note is read through [os.Root] after an Lstat of each
// directory on the way and of the note, and the opened file must be the one
// that Lstat saw.
//
// What it does not guarantee: on Linux, a directory moved out of the root
// while one read is between two of its steps could be followed, as it
// could by [os.Root] itself; no directory handle is kept from one read to
// the next. Elsewhere, [os.Root] follows a symbolic link that stays inside
// the root if one is swapped in for a directory while a read is in
// progress; such a race can at worst return another note from inside the
// root, never leave it.
package boundary

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"unicode/utf8"
)

// Limits of one walk and one read.
const (
	// MaxFileSize is the largest note, in bytes, that is ever read.
	MaxFileSize = 102400
	// MaxDepth is how many directories below the root a walk descends.
	MaxDepth = 16
	// MaxEntries is how many directory entries one walk examines before it
	// stops; it bounds the cost of one call however large the tree is.
	MaxEntries = 50000
)

// Reasons a file is refused. Each is the text shown to a client.
var (
	ErrInvalidName = errors.New("not a relative path inside the root")
	ErrNotFound    = errors.New("no such note")
	ErrSymlink     = errors.New("symbolic link (not followed)")
	ErrHardLinks   = errors.New("has other hard links")
	ErrTooLarge    = errors.New("larger than the 100 KiB file limit")
	ErrNotRegular  = errors.New("not a regular file")
	ErrNotText     = errors.New("not text (invalid UTF-8 or NUL bytes)")
	ErrNotNote     = errors.New("not a note (only .md, .markdown and .txt files are read)")
	ErrUnreadable  = errors.New("could not be read")
)

// Error reports why one file was refused. Its message holds only the name
// relative to the root and the reason; the underlying operating-system error
// is kept for [errors.Is] and [errors.As] but never printed, because it may
// carry an absolute path.
type Error struct {
	Name   string // slash-separated, relative to the root; may be invalid input
	Reason error  // one of the Err* values of this package
	cause  error
}

func (e *Error) Error() string {
	return fmt.Sprintf("%q: %v", e.Name, e.Reason)
}

func (e *Error) Unwrap() []error {
	if e.cause == nil {
		return []error{e.Reason}
	}
	return []error{e.Reason, e.cause}
}

func refuse(name string, reason, cause error) error {
	return &Error{Name: name, Reason: reason, cause: cause}
}

// Root is an open notes directory. Its methods are safe for concurrent use.
type Root struct {
	dir  string
	root *os.Root
	// dot is the root directory opened through root, kept open so that
	// notes can be opened relative to it (see openNote); dotConn reaches
	// its descriptor without switching it to blocking mode.
	dot     *os.File
	dotConn syscall.RawConn
	faults  FaultHook // nil outside tests; see InjectFaults
}

// Open opens dir, made absolute once here, as a notes root. It fails when dir
// is missing, is not a directory or cannot be read.
func Open(dir string) (*Root, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	info, err := os.Stat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s does not exist", abs)
	}
	if err != nil {
		return nil, fmt.Errorf("%s cannot be read: %w", abs, bare(err))
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", abs)
	}
	r, err := os.OpenRoot(abs)
	if err != nil {
		return nil, fmt.Errorf("%s cannot be opened: %w", abs, bare(err))
	}
	// Listing the root proves it is readable now, not at the first call.
	dot, err := r.OpenFile(".", openFlags, 0)
	if err != nil {
		r.Close()
		return nil, fmt.Errorf("%s cannot be read: %w", abs, bare(err))
	}
	if _, err = dot.ReadDir(1); err != nil && !errors.Is(err, io.EOF) {
		dot.Close()
		r.Close()
		return nil, fmt.Errorf("%s cannot be read: %w", abs, bare(err))
	}
	conn, err := dot.SyscallConn()
	if err != nil {
		dot.Close()
		r.Close()
		return nil, fmt.Errorf("%s cannot be opened: %w", abs, bare(err))
	}
	return &Root{dir: abs, root: r, dot: dot, dotConn: conn}, nil
}

// bare strips the path from a *fs.PathError, which the caller already names.
func bare(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Dir returns the absolute path of the root. It is for the operator's own
// messages; nothing sent to a client should contain it.
func (r *Root) Dir() string { return r.dir }

// Close releases the root's directory handles. No read may be in progress.
func (r *Root) Close() error {
	return errors.Join(r.dot.Close(), r.root.Close())
}

// CheckName reports whether name is acceptable as a note name: a non-empty,
// slash-separated path relative to the root with no "." or ".." element,
// backslash, NUL byte, drive letter or empty element, ending in a note
// extension. It does not touch the file system.
func CheckName(name string) error {
	if name == "" || strings.ContainsAny(name, "\\\x00") ||
		strings.HasPrefix(name, "/") || hasDriveLetter(name) {
		return refuse(name, ErrInvalidName, nil)
	}
	for _, elem := range strings.Split(name, "/") {
		if elem == "" || elem == "." || elem == ".." {
			return refuse(name, ErrInvalidName, nil)
		}
	}
	if !filepath.IsLocal(filepath.FromSlash(name)) {
		return refuse(name, ErrInvalidName, nil)
	}
	if !IsNoteName(name) {
		return refuse(name, ErrNotNote, nil)
	}
	return nil
}

func hasDriveLetter(name string) bool {
	return len(name) >= 2 && name[1] == ':' &&
		('a' <= name[0]|0x20 && name[0]|0x20 <= 'z')
}

// IsNoteName reports whether name has one of the note extensions.
func IsNoteName(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".md", ".markdown", ".txt":
		return true
	}
	return false
}

// ReadFile returns the contents of the note called name, a slash-separated
// path relative to the root. A refusal is an [*Error].
func (r *Root) ReadFile(ctx context.Context, name string) ([]byte, error) {
	return r.ReadFileBuffer(ctx, name, nil)
}

// ReadFileBuffer is [Root.ReadFile] reading into buf's storage when it is
// large enough, so that a caller can reuse one buffer for many notes. With
// a capacity of at least [MaxFileSize]+1 it never allocates; otherwise the
// contents are read into new memory. The result aliases buf when it fits, so
// it is only valid until buf is reused. Every check of ReadFile applies.
func (r *Root) ReadFileBuffer(ctx context.Context, name string, buf []byte) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := CheckName(name); err != nil {
		return nil, err
	}
	if err := r.fault(ctx, ReadFile, name); err != nil {
		return nil, refuse(name, classify(err), err)
	}
	return r.readNote(ctx, name, buf)
}

// readChecked reads the note called name, already opened and checked to be
// a regular file of size bytes, through read, into buf's storage when it can
// hold MaxFileSize+1 bytes and into new memory otherwise, and checks what
// was read.
func readChecked(name string, read func([]byte) (int, error), size int64, buf []byte) ([]byte, error) {
	if cap(buf) <= MaxFileSize {
		// No reusable buffer: size a new one to the file, plus one byte to
		// see the end of the file (or that it grew) without another call.
		buf = make([]byte, 0, size+1)
	}
	data, err := readLimited(read, buf[:0], size)
	if err != nil {
		return nil, refuse(name, ErrUnreadable, err)
	}
	if len(data) > MaxFileSize {
		return nil, refuse(name, ErrTooLarge, nil)
	}
	if !IsText(data) {
		return nil, refuse(name, ErrNotText, nil)
	}
	return data, nil
}

// readLimited appends what read returns to buf until the end of the file
// (io.EOF, or a read of nothing) or until buf holds MaxFileSize+1 bytes,
// whichever comes first, so a file that grows after it was checked is never
// read past the limit. It grows buf only when the file is longer than buf's
// capacity.
//
// size is the size of the opened file when it was checked. A read that
// returns fewer bytes than asked for and ends exactly there has met the end
// of the file, so no second read is made just to see it; any other short
// read goes on to the end, so a file that grew is still read on and caught.
func readLimited(read func([]byte) (int, error), buf []byte, size int64) ([]byte, error) {
	for len(buf) <= MaxFileSize {
		if len(buf) == cap(buf) {
			// The file grew after it was checked; read on, still within
			// the limit.
			buf = slices.Grow(buf, min(max(len(buf), 512), MaxFileSize+1-len(buf)))
		}
		want := min(cap(buf), MaxFileSize+1) - len(buf)
		n, err := read(buf[len(buf) : len(buf)+want])
		buf = buf[:len(buf)+n]
		if errors.Is(err, io.EOF) || (n == 0 && err == nil) {
			break
		}
		if err != nil {
			return nil, err
		}
		if n < want && int64(len(buf)) == size {
			break
		}
	}
	return buf, nil
}

// checkInfo applies the file rules to one stat result.
func checkInfo(info fs.FileInfo) error {
	switch {
	case info.Mode()&fs.ModeSymlink != 0:
		return ErrSymlink
	case !info.Mode().IsRegular():
		return ErrNotRegular
	case info.Size() > MaxFileSize:
		return ErrTooLarge
	case linkCount(info) > 1:
		return ErrHardLinks
	}
	return nil
}

// classify maps an operating-system error to a reason.
func classify(err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return ErrNotFound
	case isLinkErr(err):
		return ErrSymlink
	case strings.Contains(err.Error(), "path escapes from parent"):
		return ErrSymlink
	}
	return ErrUnreadable
}

// IsText reports whether data is valid UTF-8 without NUL bytes.
func IsText(data []byte) bool {
	return bytes.IndexByte(data, 0) < 0 && utf8.Valid(data)
}

// Skipped is a file a walk or a read did not return, with the reason.
type Skipped struct {
	Name   string // slash-separated, relative to the root
	Reason error  // one of the Err* values of this package
}

// Listing is the result of [Root.Walk].
type Listing struct {
	// Notes are the names of the regular files, with one hard link and at
	// most MaxFileSize bytes when listed, that a read is expected to return,
	// in byte order of their slash-separated paths. Every check is made
	// again on the opened file when one is read.
	Notes []string
	// Skipped are the entries seen but not listed, in byte order.
	Skipped []Skipped
	// Incomplete is set when the walk stopped at MaxEntries or MaxDepth.
	Incomplete bool
}

// Walk lists the notes under the root: files ending in .md, .markdown or
// .txt, in directories up to [MaxDepth] deep, examining at most
// [MaxEntries] entries. Names starting with "." are ignored, as are files
// with other extensions. Symbolic links, and note-named entries that are not
// regular files, are larger than [MaxFileSize] or have more than one hard
// link, are reported in Skipped with the reason a read would give;
// directories behind links are never entered. Whether a note is text is
// only known when it is read.
func (r *Root) Walk(ctx context.Context) (*Listing, error) {
	w := &walker{root: r, listing: &Listing{Notes: []string{}}}
	if err := w.dir(ctx, ".", 0); err != nil {
		return nil, err
	}
	sort.Strings(w.listing.Notes)
	sort.Slice(w.listing.Skipped, func(i, j int) bool {
		return w.listing.Skipped[i].Name < w.listing.Skipped[j].Name
	})
	return w.listing, nil
}

type walker struct {
	root    *Root
	seen    int
	listing *Listing
}

func (w *walker) dir(ctx context.Context, dir string, depth int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	f, err := w.root.root.OpenFile(filepath.FromSlash(dir), openFlags, 0)
	if err == nil {
		if err = w.root.fault(ctx, ListDir, dir); err != nil {
			f.Close()
		}
	}
	if err != nil {
		if dir == "." {
			return fmt.Errorf("listing the root: %w", ErrUnreadable)
		}
		w.skip(dir, ErrUnreadable)
		return nil
	}
	defer f.Close()
	for {
		budget := MaxEntries - w.seen
		if budget <= 0 {
			w.listing.Incomplete = true
			return nil
		}
		entries, err := f.ReadDir(min(budget, 1000))
		w.seen += len(entries)
		for _, e := range entries {
			w.entry(ctx, dir, e, depth)
		}
		if errors.Is(err, io.EOF) || (err == nil && len(entries) == 0) {
			return nil
		}
		if err != nil {
			if dir == "." {
				return fmt.Errorf("listing the root: %w", ErrUnreadable)
			}
			w.skip(dir, ErrUnreadable)
			return nil
		}
	}
}

func (w *walker) entry(ctx context.Context, dir string, e fs.DirEntry, depth int) {
	name := e.Name()
	if strings.HasPrefix(name, ".") {
		return
	}
	rel := name
	if dir != "." {
		rel = dir + "/" + name
	}
	if reason := w.root.entryRefusal(rel, e); reason != nil { // per system
		w.skip(rel, reason)
		return
	}
	switch t := e.Type(); {
	case t&fs.ModeSymlink != 0:
		w.skip(rel, ErrSymlink)
	case t.IsDir():
		if depth+1 > MaxDepth {
			w.listing.Incomplete = true
			return
		}
		w.dir(ctx, rel, depth+1)
	case !IsNoteName(name):
		// Not a note; not worth reporting.
	case t.IsRegular():
		if CheckName(rel) != nil {
			w.skip(rel, ErrInvalidName)
			return
		}
		// A directory opened through os.Root is listed with an lstat of
		// every entry (on unix, Go 1.26), so Info costs no system call here:
		// a note that would be refused on reading is refused now, and every
		// listed note is one a read is expected to return.
		info, err := e.Info()
		if err != nil {
			w.skip(rel, classify(err))
			return
		}
		if reason := checkInfo(info); reason != nil {
			w.skip(rel, reason)
			return
		}
		w.listing.Notes = append(w.listing.Notes, rel)
	default:
		w.skip(rel, ErrNotRegular)
	}
}

func (w *walker) skip(name string, reason error) {
	w.listing.Skipped = append(w.listing.Skipped, Skipped{Name: name, Reason: reason})
}
