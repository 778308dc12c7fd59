package boundary

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"sort"
	"time"
)

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
	// Stamps holds the [Stamp] of each of Notes, from the walk's own lstat
	// of it, or the zero Stamp where none is given.
	Stamps []Stamp
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
	var (
		listing *Listing
		err     error
	)
	if aerr := r.await(ctx, func() { listing, err = r.walk(ctx) }); aerr != nil {
		return nil, fmt.Errorf("listing the root: %w", aerr)
	}
	return listing, err
}

func (r *Root) walk(ctx context.Context) (*Listing, error) {
	w := &walker{root: r, mounts: r.mountPoints(), now: time.Now(), listing: &Listing{}}
	if err := w.dir(ctx, ".", 0); err != nil {
		return nil, err
	}
	sort.Slice(w.notes, func(i, j int) bool { return w.notes[i].name < w.notes[j].name })
	w.listing.Notes = make([]string, len(w.notes))
	w.listing.Stamps = make([]Stamp, len(w.notes))
	for i, n := range w.notes {
		w.listing.Notes[i], w.listing.Stamps[i] = n.name, n.stamp
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
	notes   []listed
	listing *Listing
}

type listed struct {
	name  string
	stamp Stamp
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
	if isHidden(name) {
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
	// A directory opened through os.Root is listed with an lstat of every
	// entry (on unix, Go 1.26), so Info costs no system call here.
	info, err := e.Info()
	if err != nil {
		w.skip(rel, classify(err))
		return
	}
	if w.mounts[rel] || !w.root.onRootDevice(info) {
		w.skip(rel, ErrMountPoint)
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
		// A note that would be refused on reading is refused now, and every
		// listed note is one a read is expected to return.
		if reason := checkInfo(info); reason != nil {
			w.skip(rel, reason)
			return
		}
		w.notes = append(w.notes, listed{rel, w.root.stampInfo(info, w.now)})
	default:
		w.skip(rel, ErrNotRegular)
	}
}

func (w *walker) skip(name string, reason error) {
	w.listing.Skipped = append(w.listing.Skipped, Skipped{Name: name, Reason: reason})
}
