package boundary

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"practice-notes/boundary/seam"
)

// Skipped is a file a walk or a read did not return, with the reason.
type Skipped struct {
	// Name is slash-separated, relative to the root; a byte of it that is
	// not valid UTF-8 is written as \xHH (see shownName).
	Name   string
	Reason error // one of the reasons of this package, such as ErrNotFound
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
	// Cut is set when the walk stopped at MaxEntries: the notes listed
	// are then the first ones, in byte order, of what the walk would list
	// without the limit.
	Cut bool
}

// Walk lists the notes under the root: files ending in .md, .markdown or
// .txt, in directories up to [MaxDepth] deep, examining at most
// [MaxEntries] entries. The entries of a directory are counted when it is
// listed, before those of the directories below it. When a directory holds
// more entries than are left to examine, those examined are the first in
// byte order of their names, whatever order the file system lists them in
// (among its first 4 × MaxEntries entries, for a directory larger still),
// and the walk stops there: no note after that point in the order of
// [Listing.Notes] is listed, so the notes listed are the first ones, in
// byte order, of the notes the walk would list without the limit
// ([Listing.Cut]). Names starting with "." are ignored, as are files
// with other extensions. Symbolic links, and note-named entries that are not
// regular files, are larger than [MaxFileSize] or have more than one hard
// link, are reported in Skipped with the reason a read would give;
// directories behind links are never entered: on Linux a directory is
// opened to be listed without following a link on any element of its
// name, and must be the directory its lstat saw, so one swapped for a link
// (or renamed over) since is skipped rather than entered. Whether a note
// is text is only known when it is read.
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
	w := &walker{root: r, mounts: r.mountPoints(), now: time.Now(), limit: r.maxEntries, yield: yield, listing: &Listing{}}
	if n := runtime.GOMAXPROCS(0); n > 1 {
		w.ahead = n
	}
	if err := w.dir(ctx, item{name: ".", dir: true}, 0, nil); err != nil {
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
	limit   int  // entries a walk examines at most (Root.maxEntries)
	stopped bool // the limit was reached: no more notes are handed on
	yield   func(Note)
	listing *Listing
	// ahead is how many directories may be listed ahead of the walk, each
	// on a goroutine of its own: listing is mostly system calls (getdents
	// and an lstat per entry), which then run on every core while the walk
	// hands notes on. pending counts those started and not yet taken.
	ahead   int
	pending int
	// spare holds the items of directories already walked, for the next
	// ones listed to reuse; lists ahead take them too, hence spareMu.
	spareMu sync.Mutex
	spare   [][]item
}

// maxSpare is how many item slices a walk keeps for reuse: one per
// directory being walked or listed ahead is enough.
const maxSpare = 4

// newItems returns empty storage for n items, reused when a directory
// walked before left enough.
func (w *walker) newItems(n int) []item {
	w.spareMu.Lock()
	defer w.spareMu.Unlock()
	for i, s := range w.spare {
		if cap(s) >= n {
			w.spare = slices.Delete(w.spare, i, i+1)
			return s[:0]
		}
	}
	return make([]item, 0, n)
}

// freeItems keeps s, which nothing uses any more, for newItems.
func (w *walker) freeItems(s []item) {
	if cap(s) == 0 {
		return
	}
	clear(s) // names from before must not be kept alive by it
	w.spareMu.Lock()
	defer w.spareMu.Unlock()
	if len(w.spare) < maxSpare {
		w.spare = append(w.spare, s)
	}
}

// A dirList is what listing one directory found.
type dirList struct {
	items      []item    // where its entries lead, in byte order of their keys
	skipped    []Skipped // entries refused, and the directory when it could not be listed
	seen       int       // entries examined
	incomplete bool      // the budget ran out, or a directory is too deep to enter
	cut        bool      // the budget ran out
}

func (w *walker) dir(ctx context.Context, dir item, depth int, pre *pendingList) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if w.stopped {
		return nil
	}
	budget := w.limit - w.seen
	var l dirList
	if pre == nil || !pre.usable(budget) {
		var err error
		if l, err = w.list(ctx, dir, depth, budget); err != nil {
			return err
		}
	} else {
		l = pre.l
	}
	defer w.freeItems(l.items)
	w.seen += l.seen
	w.listing.Skipped = append(w.listing.Skipped, l.skipped...)
	w.listing.Incomplete = w.listing.Incomplete || l.incomplete
	if l.cut {
		// Nothing after this directory's last entry examined is listed;
		// its first entries still are, below.
		w.listing.Cut = true
		defer func() { w.stopped = true }()
	}
	// Taking the items in byte order of their keys hands notes on in the
	// order of the whole listing (see list). The next subdirectories are
	// listed ahead while the walk goes on.
	var queued []*pendingList
	next := 0
	for i, it := range l.items {
		if err := ctx.Err(); err != nil {
			return err
		}
		if w.stopped {
			return nil
		}
		if !it.dir {
			w.yield(it.note())
			continue
		}
		var p *pendingList
		if len(queued) > 0 && queued[0].name == it.name {
			p, queued = queued[0], queued[1:]
		}
		for next = max(next, i+1); next < len(l.items) && w.mayListAhead(); next++ {
			if l.items[next].dir {
				queued = append(queued, w.listAhead(ctx, l.items[next], depth+1))
			}
		}
		if p != nil {
			if err := w.take(p); err != nil {
				return err
			}
		}
		if err := w.dir(ctx, it, depth+1, p); err != nil {
			return err
		}
	}
	return nil
}

// list lists dir, examining at most budget entries: those whose names come
// first in byte order, whatever order the file system lists them in, so
// the cut of a directory larger than budget is the same on every system
// and every walk. It reads the names first (getdents alone, which costs a
// fraction of examining an entry), then examines those it keeps, with an
// lstat each, several at once where the system allows. What each entry
// leads to is kept (a note to hand on, a directory to enter) under the key
// of the names it leads to: its own name, with a "/" after a directory's,
// since a directory's names all start so. list changes nothing in w but
// its spare items, under their lock, so it may run on any goroutine.
func (w *walker) list(ctx context.Context, it item, depth, budget int) (dirList, error) {
	dir := it.name
	var l dirList
	unreadable := func(reason error) (dirList, error) {
		if dir == "." {
			return dirList{}, fmt.Errorf("listing the root: %w", errUnreadable)
		}
		l.items = nil
		l.skipped = append(l.skipped, Skipped{Name: dir, Reason: reason})
		return l, nil
	}
	f, err := w.root.openDir(dir, it.seen)
	if err == nil {
		if err = w.root.fault(ctx, seam.ListDir, dir); err != nil {
			f.Close()
		}
	}
	if err != nil {
		return unreadable(dirReason(err))
	}
	defer f.Close()
	if budget <= 0 {
		l.incomplete, l.cut = true, true
		return l, nil
	}
	d, err := newDirReader(w.root, dir, f)
	if err != nil {
		return unreadable(errUnreadable)
	}
	defer d.close()
	names, total, err := firstNames(d, budget)
	if err != nil {
		return unreadable(errUnreadable)
	}
	l.seen = len(names)
	if total > budget {
		l.incomplete, l.cut = true, true
	}
	l.items = w.newItems(len(names))
	for chunk := range slices.Chunk(names, examineBatch) {
		// A call's deadline is not the directory's fault: the walk ends
		// with ctx's error, as it does between directories.
		if err := ctx.Err(); err != nil {
			return dirList{}, err
		}
		entries, err := d.stat(chunk)
		if err != nil {
			return unreadable(errUnreadable)
		}
		rels := relNames(dir, entries)
		for i, e := range entries {
			if it, ok := w.entry(&l, rels[i], e, depth); ok {
				l.items = append(l.items, it)
			}
		}
	}
	sortItems(l.items, dir)
	return l, nil
}

// dirReason is the reason a directory that could not be opened to be
// listed is skipped with.
func dirReason(err error) error {
	switch {
	case errors.Is(err, errDirReplaced):
		return errDirReplaced
	case isLinkErr(err):
		return errSymlink
	}
	return errUnreadable
}

// examineBatch is how many entries are examined at once.
const examineBatch = 1000

// maxNames is how many names of one directory a walk reads, at most, to
// make its cut in byte order (see list).
const maxNames = 4 * MaxEntries

// firstNames returns the first k in byte order, sorted, of the names of
// the entries d lists, reading up to maxNames names in all, and how many it
// read. However large the directory, it holds at most k names and one
// batch it reads: a max-heap of the least names so far, whose greatest is
// replaced by each smaller name read, so a cut of a directory of 100,000
// entries at 50,000 never holds all 100,000 names; and the heap's storage
// grows with the names it holds, never past k.
func firstNames(d *dirReader, k int) ([]string, int, error) {
	h := nameHeap{k: k, s: d.nameStore(k)}
	total := 0
	for total < maxNames {
		more, err := d.names(min(examineBatch, maxNames-total))
		total += len(more)
		for _, name := range more {
			h.offer(name)
		}
		if errors.Is(err, io.EOF) || (err == nil && len(more) == 0) {
			break
		}
		if err != nil {
			return nil, 0, err
		}
	}
	slices.Sort(h.s)
	d.keepNames(h.s)
	return h.s, total, nil
}

// A nameHeap is a max-heap of at most k names (k at least one).
type nameHeap struct {
	s []string
	k int
}

// offer adds name while there is room, or else puts it in place of the
// greatest name when it is less.
func (h *nameHeap) offer(name string) {
	s := h.s
	if len(s) < h.k {
		if len(s) == cap(s) {
			// Grown by hand: append could make room for more than k.
			s = append(make([]string, 0, min(max(2*cap(s), 64), h.k)), s...)
		}
		s = append(s, name)
		for i := len(s) - 1; i > 0; {
			p := (i - 1) / 2
			if s[p] >= s[i] {
				break
			}
			s[p], s[i] = s[i], s[p]
			i = p
		}
		h.s = s
		return
	}
	if name >= s[0] {
		return
	}
	s[0] = name
	for i := 0; ; {
		c := 2*i + 1
		if c >= len(s) {
			break
		}
		if c+1 < len(s) && s[c+1] > s[c] {
			c++
		}
		if s[i] >= s[c] {
			break
		}
		s[i], s[c] = s[c], s[i]
		i = c
	}
}

// A pendingList is a directory being listed ahead of the walk, as a call.
type pendingList struct {
	name   string
	budget int // the budget it is listed with
	c      *call
	l      dirList
	err    error
}

// mayListAhead reports whether another directory may be listed ahead:
// fewer than ahead are, and fewer than maxAbandoned operations given up
// on still wait on the kernel.
func (w *walker) mayListAhead() bool {
	return w.pending < w.ahead && w.root.mayStart()
}

// listAhead starts listing dir on a goroutine of its own, with the budget
// the walk has left now. When ctx ends before the listing returns, the
// walk has given it up, whether or not it is waiting for it: the call is
// abandoned then.
func (w *walker) listAhead(ctx context.Context, dir item, depth int) *pendingList {
	p := &pendingList{name: dir.name, budget: w.limit - w.seen, c: w.root.newCall()}
	w.pending++
	stop := context.AfterFunc(ctx, func() { p.c.abandon() })
	go p.c.run(func() {
		defer stop()
		p.l, p.err = w.list(ctx, dir, depth, p.budget)
	})
	return p
}

// take waits for p. A listing that does not return holds the walk as one
// of its own would: the walk is then abandoned at its deadline (see
// Root.await).
func (w *walker) take(p *pendingList) error {
	w.pending--
	<-p.c.done
	p.c.relay()
	return p.err
}

// usable reports whether p's listing is the one the walk would make now,
// with budget entries left: the same budget, or one p never reached.
func (p *pendingList) usable(budget int) bool {
	return p.budget == budget || p.l.seen < budget
}

// An item is where an entry of a directory leads: a note, or a directory
// called name. It is a Note's fields and whether it is a directory, in 64
// bytes: a walk holds one for each entry of a directory at once.
type item struct {
	name    string
	seen    Stamp
	stamped bool
	dir     bool
}

// note is the Note an item of a note leads to.
func (it item) note() Note { return Note{Name: it.name, seen: it.seen, stamped: it.stamped} }

// sortItems sorts the items of dir in byte order of the names they lead
// to: a note's own name, and a directory's name with a "/" after it, since
// the names below it all start so (see list).
func sortItems(items []item, dir string) {
	off := 0 // where an entry's own name starts in its note.Name
	if dir != "." {
		off = len(dir) + 1
	}
	slices.SortFunc(items, func(a, b item) int {
		an, bn := a.name[off:], b.name[off:]
		n := min(len(an), len(bn))
		if c := strings.Compare(an[:n], bn[:n]); c != 0 {
			return c
		}
		return cmp.Compare(keyByte(an, n, a.dir), keyByte(bn, n, b.dir))
	})
}

// keyByte is the byte at i of name's key (name, with a "/" after it for a
// directory), or -1 past its end.
func keyByte(name string, i int, dir bool) int {
	switch {
	case i < len(name):
		return int(name[i])
	case i == len(name) && dir:
		return '/'
	}
	return -1
}

// relNames returns the names, relative to the root, of entries of dir,
// made in one string for them all: a walk makes one for every entry.
func relNames(dir string, entries []fs.DirEntry) []string {
	rels := make([]string, len(entries))
	if dir == "." {
		for i, e := range entries {
			rels[i] = e.Name()
		}
		return rels
	}
	size := 0
	for _, e := range entries {
		size += len(dir) + 1 + len(e.Name())
	}
	var b strings.Builder
	b.Grow(size)
	for _, e := range entries {
		b.WriteString(dir)
		b.WriteByte('/')
		b.WriteString(e.Name())
	}
	all, at := b.String(), 0
	for i, e := range entries {
		n := len(dir) + 1 + len(e.Name())
		rels[i] = all[at : at+n]
		at += n
	}
	return rels
}

// entry examines one entry, called rel: it records the entry in l's skipped,
// or returns where it leads, or neither for a file that is not a note.
func (w *walker) entry(l *dirList, rel string, e fs.DirEntry, depth int) (item, bool) {
	name := e.Name()
	if isHidden(name) {
		return item{}, false
	}
	if reason := w.root.entryRefusal(rel, e); reason != nil { // per system
		l.skip(rel, reason)
		return item{}, false
	}
	// Every entry was examined with an lstat as it was listed (see
	// dirReader), so Info costs no system call here.
	info, err := e.Info()
	if err != nil {
		l.skip(rel, classify(err))
		return item{}, false
	}
	if w.mounts[rel] || !w.root.onRootDevice(info) {
		l.skip(rel, errMountPoint)
		return item{}, false
	}
	switch t := e.Type(); {
	case t&fs.ModeSymlink != 0:
		l.skip(rel, errSymlink)
	case t.IsDir():
		if !utf8.ValidString(name) {
			// Nothing below it could be a note (checkName).
			l.skip(rel, errNameNotUTF8)
			return item{}, false
		}
		if depth+1 > MaxDepth {
			l.incomplete = true
			return item{}, false
		}
		return item{dir: true, name: rel, seen: seenInfo(info)}, true
	case !isNoteName(name):
		// Not a note; not worth reporting.
	case t.IsRegular():
		if err := checkName(rel); err != nil {
			var be *Error
			if errors.As(err, &be) {
				l.skip(rel, be.Reason)
				return item{}, false
			}
		}
		// A note that would be refused on reading is refused now, and every
		// listed note is one a read is expected to return.
		if reason := checkInfo(info); reason != nil {
			l.skip(rel, reason)
			return item{}, false
		}
		return item{name: rel, seen: seenInfo(info), stamped: w.root.stampedInfo(info, w.now)}, true
	default:
		l.skip(rel, errNotRegular)
	}
	return item{}, false
}

func (l *dirList) skip(name string, reason error) {
	l.skipped = append(l.skipped, Skipped{Name: shownName(name), Reason: reason})
}
