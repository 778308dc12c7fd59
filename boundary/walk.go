package boundary

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
)

// Skipped is a file a walk or a read did not return, with the reason.
type Skipped struct {
	Name   string // slash-separated, relative to the root
	Reason error  // one of the Err* values of this package
}

// A Note is a file a walk listed as a note.
type Note struct {
	Name string // slash-separated, relative to the root
	// seen is the walk's lstat of the note, whether or not a Stamp is
	// given: a read of this Note that opens the very file the walk saw,
	// with nothing about it changed since, needs no second lookup of its
	// name (see readNote). A Note made by hand has none.
	seen Stamp
	// stamped says the note is given a Stamp, which is then seen.
	stamped bool
}

// Stamp returns the note's [Stamp] from the walk's own lstat of it, or the
// zero Stamp where none is given.
func (n Note) Stamp() Stamp {
	if n.stamped {
		return n.seen
	}
	return Stamp{}
}

// Listing is the result of [Root.Walk].
type Listing struct {
	// Notes are the regular files, with one hard link and at most
	// MaxFileSize bytes when listed, that a read is expected to return,
	// in byte order of their slash-separated names. Every check is made
	// again on the opened file when one is read.
	Notes []Note
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
//
// Walk returns by ctx's deadline even when the file system never answers:
// the walk is then abandoned and Walk returns an error wrapping
// [ErrNotInTime] and ctx's error.
func (r *Root) Walk(ctx context.Context) (*Listing, error) {
	var notes []Note
	listing, err := r.WalkFunc(ctx, func(n Note) { notes = append(notes, n) })
	if err != nil {
		return nil, err
	}
	listing.Notes = notes
	return listing, nil
}

// WalkFunc is [Root.Walk] handing each note to yield as soon as the walk
// knows it comes next, in the order of [Listing.Notes], instead of in the
// Listing it returns, whose Notes is nil. So a caller can read the first
// notes while the walk goes on. yield runs on the walk's goroutine and
// should return promptly. A walk abandoned at ctx's deadline may still call
// yield after WalkFunc has returned, until it sees that ctx has ended.
func (r *Root) WalkFunc(ctx context.Context, yield func(Note)) (*Listing, error) {
	var (
		listing *Listing
		err     error
	)
	if aerr := r.await(ctx, func() { listing, err = r.walk(ctx, yield) }); aerr != nil {
		return nil, fmt.Errorf("listing the root: %w", aerr)
	}
	return listing, err
}

func (r *Root) walk(ctx context.Context, yield func(Note)) (*Listing, error) {
	w := &walker{root: r, mounts: r.mountPoints(), now: time.Now(), yield: yield, listing: &Listing{}}
	if err := w.dir(ctx, ".", 0); err != nil {
		return nil, err
	}
	sort.Slice(w.listing.Skipped, func(i, j int) bool {
		return w.listing.Skipped[i].Name < w.listing.Skipped[j].Name
	})
	return w.listing, nil
}

type walker struct {
	root    *Root
	mounts  map[string]bool // mount points below the root
	now     time.Time       // when the walk started, for Stamps
	seen    int
	yield   func(Note)
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
	// Each entry is examined as it is listed, and what it leads to is kept
	// (a note to hand on, a directory to enter) under the key of the names
	// it leads to: its own name, with a "/" after a directory's, since a
	// directory's names all start so. Taking them in byte order of their
	// keys hands notes on in the order of the whole listing, as they are
	// found, while only the entries that lead somewhere are kept.
	var items []item
	for {
		budget := MaxEntries - w.seen
		if budget <= 0 {
			w.listing.Incomplete = true
			break
		}
		entries, err := f.ReadDir(min(budget, 1000))
		w.seen += len(entries)
		for _, e := range entries {
			if it, ok := w.entry(dir, e, depth); ok {
				items = append(items, it)
			}
		}
		if errors.Is(err, io.EOF) || (err == nil && len(entries) == 0) {
			break
		}
		if err != nil {
			if dir == "." {
				return fmt.Errorf("listing the root: %w", ErrUnreadable)
			}
			w.skip(dir, ErrUnreadable)
			return nil
		}
	}
	slices.SortFunc(items, func(a, b item) int { return strings.Compare(a.key, b.key) })
	for _, it := range items {
		if err := ctx.Err(); err != nil {
			return err
		}
		if it.dir {
			w.dir(ctx, it.note.Name, depth+1)
		} else {
			w.yield(it.note)
		}
	}
	return nil
}

// An item is where an entry of a directory leads: a note, or a directory
// named by note.Name.
type item struct {
	key  string
	dir  bool
	note Note
}

// entry examines one entry of dir: it records the entry in Skipped, or
// returns where it leads, or neither for a file that is not a note.
func (w *walker) entry(dir string, e fs.DirEntry, depth int) (item, bool) {
	name := e.Name()
	if isHidden(name) {
		return item{}, false
	}
	rel := name
	if dir != "." {
		rel = dir + "/" + name
	}
	if reason := w.root.entryRefusal(rel, e); reason != nil { // per system
		w.skip(rel, reason)
		return item{}, false
	}
	// A directory opened through os.Root is listed with an lstat of every
	// entry (on unix, Go 1.26), so Info costs no system call here.
	info, err := e.Info()
	if err != nil {
		w.skip(rel, classify(err))
		return item{}, false
	}
	if w.mounts[rel] || !w.root.onRootDevice(info) {
		w.skip(rel, ErrMountPoint)
		return item{}, false
	}
	switch t := e.Type(); {
	case t&fs.ModeSymlink != 0:
		w.skip(rel, ErrSymlink)
	case t.IsDir():
		if depth+1 > MaxDepth {
			w.listing.Incomplete = true
			return item{}, false
		}
		return item{key: name + "/", dir: true, note: Note{Name: rel}}, true
	case !IsNoteName(name):
		// Not a note; not worth reporting.
	case t.IsRegular():
		if CheckName(rel) != nil {
			w.skip(rel, ErrInvalidName)
			return item{}, false
		}
		// A note that would be refused on reading is refused now, and every
		// listed note is one a read is expected to return.
		if reason := checkInfo(info); reason != nil {
			w.skip(rel, reason)
			return item{}, false
		}
		return item{key: name, note: Note{Name: rel, seen: seenInfo(info), stamped: w.root.stampedInfo(info, w.now)}}, true
	default:
		w.skip(rel, ErrNotRegular)
	}
	return item{}, false
}

func (w *walker) skip(name string, reason error) {
	w.listing.Skipped = append(w.listing.Skipped, Skipped{Name: name, Reason: reason})
}
